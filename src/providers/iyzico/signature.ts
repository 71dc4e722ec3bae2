// iyzico signs its payment answers and the 3D callback: `signature` is the hex HMAC-SHA256, with
// the merchant's secret key, of some answer fields joined by ':' (iyzico's "Response Signature
// Validation" page lists them per call). A valid signature shows the answer came from iyzico and
// its ids and amounts were not altered on the way. Prices enter the signature as iyzico's
// decimal without trailing zeros ("1.20" -> "1.2", "1.0" -> "1"), which is how the official
// client's samples compute it (they join the parsed JSON numbers).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { fromIyzicoPrice } from './amount.ts';
import type { AnswerPrice, PaymentAnswer, RefundAnswer, ThreeDSInitializeAnswer } from './wire.ts';

/** A price as it enters a signature; null when it is not an exact amount. */
export function signaturePrice(value: AnswerPrice | undefined): string | null {
  const minor = fromIyzicoPrice(value);
  if (minor === null) return null;
  const cents = minor % 100n;
  if (cents === 0n) return String(minor / 100n);
  return `${minor / 100n}.${cents.toString().padStart(2, '0').replace(/0$/, '')}`;
}

/** HMAC-SHA256 hex of the parameters joined by ':'. */
export function signParams(secretKey: string, params: readonly string[]): string {
  return createHmac('sha256', secretKey).update(params.join(':')).digest('hex');
}

export type SignatureCheck = 'valid' | 'invalid' | 'absent';

function compare(secretKey: string, params: ReadonlyArray<string | null | undefined>, signature: unknown): SignatureCheck {
  if (typeof signature !== 'string' || signature === '') return 'absent';
  if (params.some((p) => p === null || p === undefined)) return 'invalid';
  const expected = Buffer.from(signParams(secretKey, params as string[]), 'utf8');
  const given = Buffer.from(signature.toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'valid' : 'invalid';
}

/** payment/auth, payment/3dsecure/auth, payment/detail: paymentId, currency, basketId, conversationId, paidPrice, price. */
export function checkPaymentSignature(secretKey: string, answer: PaymentAnswer): SignatureCheck {
  const { paymentId, currency, basketId, conversationId } = answer;
  return compare(secretKey, [paymentId, currency, basketId, conversationId, signaturePrice(answer.paidPrice), signaturePrice(answer.price)], answer.signature);
}

/** payment/refund and v2/payment/refund: paymentId, price, currency, conversationId. */
export function checkRefundSignature(secretKey: string, answer: RefundAnswer): SignatureCheck {
  const paymentId = answer.paymentId === undefined ? undefined : String(answer.paymentId);
  return compare(secretKey, [paymentId, signaturePrice(answer.price), answer.currency, answer.conversationId], answer.signature);
}

/** payment/3dsecure/initialize: paymentId, conversationId. */
export function checkThreeDSInitializeSignature(secretKey: string, answer: ThreeDSInitializeAnswer): SignatureCheck {
  return compare(secretKey, [answer.paymentId, answer.conversationId], answer.signature);
}

/** The 3D callback iyzico posts to callbackUrl: conversationData, conversationId, mdStatus, paymentId, status. */
export function checkCallbackSignature(
  secretKey: string,
  callback: { conversationData?: string; conversationId?: string; mdStatus?: string; paymentId?: string; status?: string; signature?: string },
): SignatureCheck {
  const { conversationData, conversationId, mdStatus, paymentId, status } = callback;
  // conversationData is optional in the callback; an absent one is taken as an empty field (an
  // assumption to confirm against iyzico's sandbox).
  return compare(secretKey, [conversationData ?? '', conversationId, mdStatus, paymentId, status], callback.signature);
}
