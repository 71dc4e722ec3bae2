// The 3-D Secure callback: after PayFor's 3D pages the shopper's browser POSTs PayFor's fields to
// OkUrl or FailUrl (both the gateway's callback address for the payment). A browser carries it, so
// nothing in it is believed before `ResponseHash` checks (hash.ts). That hash signs the order id,
// the outcome (3DStatus, ProcReturnCode, AuthCode) and the bank's random, not the amount: the
// amount is the one the gateway's signed form asked for that order id, and the 3D model's sale
// charges the authentication's own amount. The form's unsigned MerchantID, PurchAmount, Currency
// and SecureType must still agree with the payment, so a form pieced together from another
// payment's is refused. In the 3D model only 3DStatus 1 goes on (mewebstudio/pos is3dAuthSuccess);
// in the 3D Pay model the gate's charge decides (../three-d-pay.ts).
import { threeDPayOutcome } from '../three-d-pay.ts';
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { threeDsFailure } from './codes.ts';
import { checkResponseHash, type SigningAccount } from './hash.ts';
import { orderIdOf } from './references.ts';
import { minorOf } from './requests.ts';

export interface CallbackContext {
  account: SigningAccount;
  model: '3d' | '3d_pay';
}

const SECURE_TYPE = { '3d': '3DModel', '3d_pay': '3DPay' } as const;

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** The first way the form's fields disagree with the payment; null when they all agree. */
function disagreement(ctx: CallbackContext, payment: ThreeDsPayment, orderId: string | null, f: Record<string, string>): CallbackCheck | null {
  if (orderId === null || f.OrderId !== orderId) return reject('order', 'callback is for another order');
  if (f.MerchantID !== undefined && f.MerchantID !== ctx.account.merchantId) return reject('merchant', 'callback is for another merchant');
  if (f.PurchAmount !== undefined && minorOf(f.PurchAmount) !== payment.amount) return reject('amount', 'callback amount is not the payment amount');
  if (f.Currency !== undefined && f.Currency !== ISO_NUMERIC_CURRENCY[payment.currency]) return reject('currency', 'callback currency is not the payment currency');
  if (f.SecureType !== undefined && f.SecureType !== SECURE_TYPE[ctx.model]) return reject('incomplete', `callback is a ${f.SecureType} answer; the account uses ${SECURE_TYPE[ctx.model]}`);
  return null;
}

/** Judges a posted callback for the 3D payment the gateway started (no I/O). */
export function judgeCallback(ctx: CallbackContext, payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
  if ((fields.ResponseHash ?? '') === '') return reject('unsigned', 'callback is not signed');
  if (!checkResponseHash(ctx.account, fields)) return reject('signature', 'callback hash does not match the store key');
  const orderId = orderIdOf(payment.providerReference);
  const wrong = disagreement(ctx, payment, orderId, fields);
  if (wrong !== null || orderId === null) return wrong ?? reject('order', 'callback is for another order');

  const threeDStatus = fields['3DStatus'] ?? '';
  const notAuthenticated: CallbackCheck = { status: 'verified', authenticated: false, failure: threeDsFailure(threeDStatus, fields.ErrMsg) };
  if (ctx.model === '3d_pay') {
    const outcome = threeDPayOutcome(threeDStatus, fields.ProcReturnCode ?? '');
    if (outcome === 'not_authenticated') return notAuthenticated;
    if (outcome === 'incomplete') return reject('incomplete', 'the 3D Pay callback does not say how the charge went (no ProcReturnCode)');
    return {
      status: 'verified',
      authenticated: true,
      data: { orderId, procReturnCode: fields.ProcReturnCode ?? '', errMsg: fields.ErrMsg ?? '', hostRefNum: fields.HostRefNum ?? '', threeDStatus },
    };
  }
  if (threeDStatus !== '1') return notAuthenticated;
  const requestGuid = fields.RequestGuid ?? '';
  if (!/^\d{1,32}$/.test(requestGuid) || requestGuid === '0') return reject('incomplete', 'the 3D callback has no RequestGuid to sell with');
  return { status: 'verified', authenticated: true, data: { orderId, requestGuid } };
}
