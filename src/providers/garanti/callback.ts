// The 3D Secure callback: after the bank's 3D pages, GVP makes the shopper's browser POST a form to
// successurl or errorurl (both the gateway's callback address for the payment). A browser carries
// it, so nothing in it is believed before `hash` checks with the store key over the fields named in
// `hashparams` (hash.ts), and those names must cover what the decision rests on: the order id and
// mdstatus (and, in the 3D Pay model, where the bank has already charged, procreturncode and
// response). Then the form must be about THIS payment: the order id the start sent, the terminal,
// and the amount and currency asked. In the 3D model mdstatus 1 (fully authenticated) and 2, 3, 4
// ("half secure": not enrolled, attempt only) let the payment go on, as GVP does (codes.ts
// isAuthenticated); 0 and 5-9 are failed 3D Secure. In the 3D Pay model the gate's charge decides
// (../three-d-pay.ts). GVP posts its own errors unsigned: such a form proves nothing and changes
// nothing, whatever the model (anyone who learns the callback address could post one).
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { threeDPayOutcome } from '../three-d-pay.ts';
import { isAuthenticated, threeDsFailure } from './codes.ts';
import { checkResponseHash, signedNames } from './hash.ts';
import { parsePaymentRef } from './references.ts';
import { CURRENCY_CODES } from './requests.ts';

export interface CallbackContext {
  storeKey: string;
  terminalId: string;
  model: '3d' | '3d_pay';
}

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** The order id the form names (oid and orderid agree), checked against the payment's and the terminal's. */
function aboutThisOrder(ctx: CallbackContext, payment: ThreeDsPayment, fields: Record<string, string>): { orderId: string } | CallbackCheck {
  const orderId = parsePaymentRef(payment.providerReference)?.orderId;
  const named = [fields.oid, fields.orderid].filter((v): v is string => v !== undefined && v !== '');
  if (orderId === undefined || named.length === 0 || named.some((v) => v !== orderId)) return reject('order', 'callback is for another order');
  const terminals = [fields.clientid, fields.terminalid].filter((v): v is string => v !== undefined && v !== '');
  if (terminals.some((v) => v !== ctx.terminalId)) return reject('merchant', 'callback is for another terminal');
  return { orderId };
}

/** Judges a posted callback for the 3D payment the gateway started (no I/O). */
export function judgeCallback(ctx: CallbackContext, payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
  if ((fields.hash ?? '') === '') return reject('unsigned', 'callback is not signed');
  if (!checkResponseHash(ctx.storeKey, fields)) return reject('signature', 'callback hash does not match the store key');
  const signed = new Set(signedNames(fields));
  const needed = ctx.model === '3d_pay' ? ['mdstatus', 'procreturncode', 'response'] : ['mdstatus'];
  if (!signed.has('oid') && !signed.has('orderid')) return reject('incomplete', 'callback does not sign the order id');
  if (needed.some((name) => !signed.has(name))) return reject('incomplete', 'callback does not sign its outcome');

  const about = aboutThisOrder(ctx, payment, fields);
  if ('status' in about) return about;
  const { orderId } = about;
  if (fields.txnamount !== payment.amount.toString()) return reject('amount', 'callback amount is not the payment amount');
  if (fields.txncurrencycode !== CURRENCY_CODES[payment.currency]) return reject('currency', 'callback currency is not the payment currency');

  const mdStatus = fields.mdstatus ?? '';
  const notAuthenticated: CallbackCheck = { status: 'verified', authenticated: false, failure: threeDsFailure(mdStatus, fields.mderrormessage) };

  if (ctx.model === '3d_pay') {
    const outcome = threeDPayOutcome(mdStatus, fields.procreturncode ?? '');
    if (outcome === 'not_authenticated') return notAuthenticated;
    if (outcome === 'incomplete') return reject('incomplete', 'the 3D Pay callback does not say how the charge went (no procreturncode)');
    return {
      status: 'verified',
      authenticated: true,
      data: {
        orderId,
        procreturncode: fields.procreturncode ?? '',
        response: fields.response ?? '',
        errmsg: fields.errmsg ?? '',
        hostrefnum: fields.hostrefnum ?? '',
        mdstatus: mdStatus,
      },
    };
  }
  if (!isAuthenticated(mdStatus)) return notAuthenticated;
  return {
    status: 'verified',
    authenticated: true,
    data: {
      orderId,
      cavv: fields.cavv ?? '',
      eci: fields.eci ?? '',
      xid: fields.xid ?? '',
      md: fields.md ?? '',
      installment: fields.txninstallmentcount ?? '',
      ip: fields.customeripaddress ?? '',
    },
  };
}
