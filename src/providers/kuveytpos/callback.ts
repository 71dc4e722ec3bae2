// The 3-D Secure callback: after the issuer's ACS the shopper's browser POSTs KuveytPOS's
// AuthenticationResponse (its XML, URL-encoded) to OkUrl or FailUrl, both the gateway's callback
// address for the payment. A browser carries it, so nothing in it is believed before its HashData
// checks: the bank signs the order (MerchantOrderId, its OrderId) and the outcome (ResponseCode)
// with the API user's hashed password (hash.ts). It does not sign the echoed VPosMessage (amount,
// currency, instalments); those must still agree with the payment when present, and the provision
// sends the payment's own, not the callback's. Only 00 goes on (mewebstudio/pos is3dAuthSuccess),
// with the MD the provision needs. The bank's refusals at the gate itself (HashDataError,
// PosMerchantIPError...) come unsigned; start3D reads those straight from the gate's answer.
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { APPROVED, threeDsFailure } from './codes.ts';
import { callbackHash, sameHash } from './hash.ts';
import { parseRef } from './references.ts';
import { shortCurrency } from './requests.ts';
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import { authenticationResponseOf } from './xml.ts';

export interface CallbackContext {
  merchantId: string;
  password: string;
}

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** The first way the echoed, unsigned VPosMessage disagrees with the payment; null when it agrees or is absent. */
function disagreement(ctx: CallbackContext, payment: ThreeDsPayment, echo: Readonly<Record<string, string>>): CallbackCheck | null {
  if (echo.MerchantId && echo.MerchantId !== ctx.merchantId) return reject('merchant', 'callback is for another merchant');
  if (echo.Amount && echo.Amount !== payment.amount.toString()) return reject('amount', 'callback amount is not the payment amount');
  if (echo.CurrencyCode && shortCurrency(echo.CurrencyCode) !== ISO_NUMERIC_CURRENCY[payment.currency]) return reject('currency', 'callback currency is not the payment currency');
  return null;
}

/** Judges a posted callback for the 3-D payment the gateway started (no I/O). */
export function judgeCallback(ctx: CallbackContext, payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
  const raw = fields.AuthenticationResponse ?? '';
  if (raw === '') return reject('unsigned', 'callback carries no AuthenticationResponse');
  const contract = authenticationResponseOf(raw);
  if (contract === null) return reject('incomplete', 'the AuthenticationResponse is not a KuveytPOS answer');
  const f = contract.fields;
  if ((f.HashData ?? '') === '') return reject('unsigned', `callback is not signed (ResponseCode ${f.ResponseCode ?? 'none'})`);
  if (!sameHash(callbackHash(f, ctx.password), f.HashData)) return reject('signature', "callback HashData does not match the API user's password");
  const ref = parseRef(payment.providerReference);
  if (ref === null || f.MerchantOrderId !== ref.merchantOrderId) return reject('order', 'callback is for another order');
  const wrong = disagreement(ctx, payment, contract.echo);
  if (wrong !== null) return wrong;
  const code = f.ResponseCode ?? '';
  if (code !== APPROVED) return { status: 'verified', authenticated: false, failure: threeDsFailure({ code: code || 'none', ...(f.ResponseMessage ? { message: f.ResponseMessage } : {}) }) };
  const md = f.MD ?? '';
  if (md === '') return reject('incomplete', 'the authenticated callback has no MD to ask the provision with');
  return { status: 'verified', authenticated: true, data: { merchantOrderId: ref.merchantOrderId, md } };
}
