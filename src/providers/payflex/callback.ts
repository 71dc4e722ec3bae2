// The 3-D Secure callback: after the card's ACS, VakıfBank's MPI has the shopper's browser POST its
// result to SuccessUrl or FailureUrl (both the payment's callback address): MerchantId,
// VerifyEnrollmentRequestId, Pan and Expiry (the card it authenticated, in full: the 3-D sale needs
// them), PurchAmount (in minor units, as the bank's captured answers show: "101" for 1.01),
// PurchCurrency, InstallmentCount, SessionInfo (ours, unchanged), Status, Cavv, Eci, ErrorCode and
// ErrorMessage. The MPI signs none of it, so the gateway's own seal decides (hash.ts): no
// SessionInfo is `unsigned`, a seal that does not check `signature`; then the enrollment id must be
// the one the payment's start made (its reference), the merchant the account's, the amount and
// currency the payment's. Status Y goes on with CAVV and ECI, which the VPOS checks with its MPI
// when the gateway sells; anything else fails (mewebstudio's is3dAuthSuccess: Y only).
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { threeDsFailure } from './codes.ts';
import { checkSessionSeal, type SealKey } from './hash.ts';
import { parseRef } from './references.ts';

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** "0", "", "1" and absent are one payment ("0"); 2..n themselves; null for anything else. */
function installmentsOf(value: string | undefined): string | null {
  const v = value ?? '';
  if (v === '' || v === '0' || v === '1') return '0';
  return /^(?:[2-9]|1[0-2])$/.test(v) ? v : null;
}

/** The MPI's result as posted, read (what mewebstudio's map3DPaymentData reads), before anything is believed. */
export interface MpiResult {
  enrollmentId: string;
  merchantId: string | null;
  /** Y, A, N, U, E ('' when absent). */
  status: string;
  eci: string;
  cavv: string;
  pan: string;
  /** YYMM. */
  expiry: string;
  /** Minor units; null when it is not an amount. */
  amount: bigint | null;
  currency: string;
  /** "0" for one payment; null when it is not a count. */
  installments: string | null;
  errorCode: string;
  errorMessage: string;
}

export function readMpiResult(f: Record<string, string>): MpiResult {
  return {
    enrollmentId: f.VerifyEnrollmentRequestId ?? '',
    merchantId: f.MerchantId ?? null,
    status: f.Status ?? '',
    eci: f.Eci ?? '',
    cavv: f.Cavv ?? '',
    pan: f.Pan ?? '',
    expiry: f.Expiry ?? '',
    amount: /^\d{1,15}$/.test(f.PurchAmount ?? '') ? BigInt(f.PurchAmount!) : null,
    currency: f.PurchCurrency ?? '',
    installments: installmentsOf(f.InstallmentCount),
    errorCode: f.ErrorCode ?? '',
    errorMessage: f.ErrorMessage ?? '',
  };
}

/** Judges a posted callback for the 3-D payment the gateway started (no I/O). */
export function judgeCallback(seal: SealKey, payment: ThreeDsPayment, f: Record<string, string>): CallbackCheck {
  const sessionInfo = f.SessionInfo ?? '';
  if (sessionInfo === '') return reject('unsigned', 'callback carries no SessionInfo seal');
  const r = readMpiResult(f);
  const sealed = { enrollmentId: r.enrollmentId, pan: r.pan, expiry: r.expiry, amount: r.amount ?? -1n, currency: r.currency, installments: r.installments ?? '' };
  if (!checkSessionSeal(seal, sealed, sessionInfo)) return reject('signature', 'SessionInfo does not seal the card, amount and enrollment posted');

  const ref = parseRef(payment.providerReference);
  // The start's reference names its enrollment: "<orderid>:<enrollment id>".
  if (ref === null || r.enrollmentId !== ref.transactionId) return reject('order', 'callback is for another enrollment');
  if ((r.merchantId ?? seal.merchantId) !== seal.merchantId) return reject('merchant', 'callback is for another merchant');
  if (r.amount !== payment.amount) return reject('amount', 'callback amount is not the payment amount');
  if (r.currency !== ISO_NUMERIC_CURRENCY[payment.currency]) return reject('currency', 'callback currency is not the payment currency');

  if (r.status !== 'Y') return { status: 'verified', authenticated: false, failure: threeDsFailure(r.status, { code: r.errorCode, message: r.errorMessage }) };
  if (!/^\d{2}$/.test(r.eci) || r.cavv === '' || !/^\d{4}$/.test(r.expiry)) return reject('incomplete', 'an authenticated callback without ECI, CAVV or expiry');
  return { status: 'verified', authenticated: true, data: { orderId: ref.orderId, enrollmentId: r.enrollmentId, pan: r.pan, expiry: r.expiry, eci: r.eci, cavv: r.cavv, installments: sealed.installments } };
}
