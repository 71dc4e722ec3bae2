import { responseSignature } from './auth.ts';
import { autoPostPage, acsPage } from './acs.ts';
import { str, type ApiContext } from './api.ts';
import { BANK_ERRORS } from './cards.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import type { EmulatorState, Payment } from './state.ts';
import { charge, newPayment, paymentBody } from './payments.ts';

export const acsPath = (paymentId: string) => `/_emulator/acs/${paymentId}`;

/** POST /payment/3dsecure/initialize — answers base64 HTML that takes the shopper to the ACS. */
export function initializeThreeds(ctx: ApiContext): Record<string, unknown> {
  const payment = newPayment(ctx, true);
  if (payment.outcome.kind === 'threeDsInitFails') throw new IyziFailure({ httpStatus: 200, ...payment.outcome.error });
  if (ctx.forceDecline) throw new IyziFailure({ httpStatus: 200, ...BANK_ERRORS.doNotHonour });
  payment.acsToken = ctx.state.newToken();
  ctx.state.addPayment(payment);
  const html = autoPostPage('Redirecting to your bank', ctx.baseUrl + acsPath(payment.paymentId), { token: payment.acsToken });
  const conversationId = str(ctx.body.conversationId);
  return {
    threeDSHtmlContent: Buffer.from(html).toString('base64'),
    paymentId: payment.paymentId,
    signature: responseSignature(ctx.secretKey, [payment.paymentId, conversationId]),
  };
}

/** GET/POST /_emulator/acs/:paymentId — the bank's challenge page. */
export function renderAcs(state: EmulatorState, paymentId: string, token: string | undefined): string | null {
  const payment = acsPayment(state, paymentId, token);
  if (!payment) return null;
  return acsPage(`${acsPath(paymentId)}/complete`, token!, {
    amount: (payment.paidPrice / 100).toFixed(2),
    currency: payment.currency,
    lastFourDigits: payment.card.lastFourDigits,
  });
}

/**
 * POST /_emulator/acs/:paymentId/complete — records the shopper's answer and returns the page that
 * posts iyzico's callback fields to the merchant's callbackUrl. The callback is signed over
 * conversationData, conversationId, mdStatus, paymentId, status (in that order).
 */
export function completeAcs(state: EmulatorState, secretKey: string, paymentId: string, token: string | undefined, decision: string | undefined): string | null {
  const payment = acsPayment(state, paymentId, token);
  if (!payment) return null;
  const forced = payment.outcome.kind === 'mdStatus' ? payment.outcome.mdStatus : undefined;
  payment.mdStatus = forced ?? (decision === 'approve' ? '1' : '0');
  payment.status = 'CALLBACK_THREEDS';
  payment.acsToken = undefined; // one answer per challenge
  payment.conversationData = payment.mdStatus === '1' ? state.newToken() : undefined;
  const status = payment.mdStatus === '1' ? 'success' : 'failure';
  const fields = {
    status,
    paymentId: payment.paymentId,
    conversationData: payment.conversationData,
    conversationId: payment.conversationId,
    mdStatus: payment.mdStatus,
  };
  const signature = responseSignature(secretKey, [fields.conversationData, fields.conversationId, fields.mdStatus, fields.paymentId, fields.status]);
  return autoPostPage('Returning to the merchant', payment.callbackUrl!, { ...fields, signature });
}

function acsPayment(state: EmulatorState, paymentId: string, token: string | undefined): Payment | null {
  const payment = state.payments.get(paymentId);
  return payment && payment.status === 'INIT_THREEDS' && payment.acsToken && payment.acsToken === token ? payment : null;
}

/** POST /payment/3dsecure/auth — charges a payment whose 3DS callback said mdStatus 1. */
export function authThreeds(ctx: ApiContext): Record<string, unknown> {
  const payment = ctx.state.payment(str(ctx.body.paymentId));
  if (!payment.threeDS || payment.status !== 'CALLBACK_THREEDS') throw new IyziFailure(ERRORS.notCompletable);
  if (payment.conversationData !== undefined && ctx.body.conversationData !== payment.conversationData) {
    throw new IyziFailure(ERRORS.invalidField('conversationData'));
  }
  if (payment.mdStatus !== '1') {
    payment.status = 'FAILURE';
    ctx.state.paymentSettled(payment);
    throw new IyziFailure(ERRORS.threeDsNotVerified);
  }
  charge(ctx, payment);
  return paymentBody(ctx, payment, str(ctx.body.conversationId));
}
