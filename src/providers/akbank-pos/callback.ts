// The 3-D Secure callback: after Akbank's 3-D pages the shopper's browser POSTs Akbank's fields to
// okUrl or failUrl (both the gateway's callback address for the payment). A browser carries it,
// so nothing in it is believed before `hash` checks (hash.ts), and the fields it goes by must be
// among those `hashParams` says were signed: a callback that signs less is refused. The callback
// names no amount: the amount is the one the gateway's signed form asked for that order id, and
// the 3D model's sale repeats it (the bank refuses a sale that does not match its
// authentication). In the 3D model only responseCode VPS-0000 goes on to the sale (mewebstudio/pos
// is3dAuthSuccess); in the 3D Pay and 3D Host models the bank charged already, and the callback
// says how: VPS-0000 charged, a refusal with a txnCode (a charge was tried) refused, no txnCode
// not authenticated.
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { APPROVED, threeDsFailure } from './codes.ts';
import { checkCallbackHash, signedNames } from './hash.ts';
import { orderIdOf } from './references.ts';
import type { ThreeDModel } from './requests.ts';

export interface CallbackContext {
  merchantSafeId: string;
  terminalSafeId: string;
  secretKey: string;
  model: ThreeDModel;
}

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** The 3D model's secure data: the sale after the callback sends it back. */
const SECURE_FIELDS = ['secureId', 'secureEcomInd', 'secureData', 'secureMd'] as const;

/** The first way the form's fields disagree with the payment; null when they all agree. */
function disagreement(ctx: CallbackContext, orderId: string | null, f: Record<string, string>): CallbackCheck | null {
  if (orderId === null || f.orderId !== orderId) return reject('order', 'callback is for another order');
  // A refusal before the terminal was read names no merchant (''); any merchant named must be ours.
  if ((f.merchantSafeId ?? '') !== '' && f.merchantSafeId !== ctx.merchantSafeId) return reject('merchant', 'callback is for another merchant');
  if ((f.terminalSafeId ?? '') !== '' && f.terminalSafeId !== ctx.terminalSafeId) return reject('merchant', 'callback is for another terminal');
  return null;
}

/** Judges a posted callback for the 3-D payment the gateway started (no I/O). */
export function judgeCallback(ctx: CallbackContext, payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
  if ((fields.hash ?? '') === '') return reject('unsigned', 'callback is not signed');
  if (!checkCallbackHash(fields, ctx.secretKey)) return reject('signature', 'callback hash does not match the secret key');
  const signed = new Set(signedNames(fields));
  if (!signed.has('orderId') || !signed.has('responseCode')) return reject('incomplete', 'callback does not sign its order id and outcome');
  const orderId = orderIdOf(payment.providerReference);
  const wrong = disagreement(ctx, orderId, fields);
  if (wrong !== null || orderId === null) return wrong ?? reject('order', 'callback is for another order');

  const code = fields.responseCode ?? '';
  const message = fields.responseMessage ?? '';
  if (ctx.model !== '3d') {
    if (code !== APPROVED && (fields.txnCode ?? '') === '') return { status: 'verified', authenticated: false, failure: threeDsFailure(code, message) };
    if (!signed.has('txnCode')) return reject('incomplete', 'the charge callback does not sign its transaction code');
    const data = { orderId, responseCode: code, hostResponseCode: fields.hostResponseCode ?? '', message: fields.hostMessage || message, rrn: fields.rrn ?? '' };
    return { status: 'verified', authenticated: true, data };
  }
  if (code !== APPROVED) return { status: 'verified', authenticated: false, failure: threeDsFailure(code, message) };
  if (!SECURE_FIELDS.every((name) => (fields[name] ?? '') !== '' && signed.has(name))) return reject('incomplete', 'the 3D callback has no signed secure data to sell with');
  return { status: 'verified', authenticated: true, data: { orderId, ...Object.fromEntries(SECURE_FIELDS.map((name) => [name, fields[name]!])) } };
}
