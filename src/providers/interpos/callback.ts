// The 3D Secure callback: after InterPOS's 3D pages, the shopper's browser POSTs a form to OkUrl or
// FailUrl (both the gateway's callback address for the payment). A browser carries it, so nothing
// in it is believed before HASH checks with the store key over the fields HASHPARAMS names
// (hash.ts), and those names must cover what the decision rests on: the order id, the amount, the
// currency and mdStatus (and, in the 3D Pay and 3D Host models, where the bank has already charged,
// ProcReturnCode; in the 3D model, MD, which the sale hands back). mewebstudio/pos reads the
// outcome from `3DStatus` and checks the hash only after a success; InterPOS does not sign
// `3DStatus`, so here the signed `mdStatus` decides, a `3DStatus` that disagrees with it is
// refused, and every callback is checked, failures too (a forged failure would fail a payment).
// Then the form must be about THIS payment: its order id, amount and currency, and the merchant's
// ShopCode. mdStatus 1 (full) and 2, 3, 4 ("half secure") go on, 0 and 5-9 are failed 3D Secure
// (codes.ts); in the 3D Pay and 3D Host models the gate's charge decides (../three-d-pay.ts).
import { threeDPayOutcome } from '../three-d-pay.ts';
import type { CallbackCheck, CallbackRejection, ThreeDsPayment } from '../types.ts';
import { CURRENCY_CODES, fromInterPosAmount } from './amount.ts';
import { isAuthenticated, threeDsFailure } from './codes.ts';
import { checkCallbackHash, signedNames } from './hash.ts';
import { parsePaymentRef } from './references.ts';
import type { InterPosModel } from './settings.ts';

export interface CallbackContext {
  storeKey: string;
  shopCode: string;
  model: InterPosModel;
}

const reject = (cause: CallbackRejection, reason: string): CallbackCheck => ({ status: 'rejected', cause, reason });

/** Fields the hash must cover, per model. */
function neededNames(model: InterPosModel): string[] {
  const common = ['OrderId', 'PurchAmount', 'Currency', 'mdStatus'];
  return model === '3d' ? [...common, 'MD'] : [...common, 'ProcReturnCode'];
}

/** Judges a posted callback for the 3D payment the gateway started (no I/O). */
export function judgeCallback(ctx: CallbackContext, payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
  if ((fields.HASH ?? '') === '') return reject('unsigned', 'callback is not signed');
  if (!checkCallbackHash(fields, ctx.storeKey)) return reject('signature', 'callback HASH does not match the store key');
  const signed = new Set(signedNames(fields));
  if (neededNames(ctx.model).some((name) => !signed.has(name))) return reject('incomplete', 'callback does not sign the order, amount, currency and outcome');

  const ref = parsePaymentRef(payment.providerReference);
  if (ref === null || fields.OrderId !== ref.orderId) return reject('order', 'callback is for another order');
  if (fields.ShopCode !== undefined && fields.ShopCode !== '' && fields.ShopCode !== ctx.shopCode) return reject('merchant', 'callback is for another shop');
  if (fromInterPosAmount(fields.PurchAmount) !== payment.amount) return reject('amount', 'callback amount is not the payment amount');
  if (fields.Currency !== CURRENCY_CODES[payment.currency]) return reject('currency', 'callback currency is not the payment currency');

  const mdStatus = fields.mdStatus ?? '';
  if (fields['3DStatus'] !== undefined && fields['3DStatus'] !== mdStatus) return reject('incomplete', '3DStatus disagrees with the signed mdStatus');
  const notAuthenticated: CallbackCheck = { status: 'verified', authenticated: false, failure: threeDsFailure(mdStatus, fields.ErrorMessage) };

  if (ctx.model !== '3d') {
    const outcome = threeDPayOutcome(mdStatus, fields.ProcReturnCode ?? '');
    if (outcome === 'not_authenticated') return notAuthenticated;
    if (outcome === 'incomplete') return reject('incomplete', 'the callback does not say how the charge went (no ProcReturnCode)');
    return {
      status: 'verified',
      authenticated: true,
      data: { orderId: ref.orderId, mdStatus, procReturnCode: fields.ProcReturnCode ?? '', errorCode: fields.ErrorCode ?? '', errorMessage: fields.ErrorMessage ?? '' },
    };
  }
  if (!isAuthenticated(mdStatus)) return notAuthenticated;
  return {
    status: 'verified',
    authenticated: true,
    data: {
      orderId: ref.orderId,
      md: fields.MD ?? '',
      payerTxnId: fields.PayerTxnId ?? '',
      eci: fields.Eci ?? '',
      payerAuthenticationCode: fields.PayerAuthenticationCode ?? '',
    },
  };
}
