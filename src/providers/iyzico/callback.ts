// The 3D Secure callback: after the shopper's bank page, iyzico makes the shopper's browser POST
// a form to the callbackUrl given to payment/3dsecure/initialize, with status, paymentId,
// conversationData, conversationId and mdStatus. The payment is taken only by a later
// payment/3dsecure/auth call, and only if the shopper passed: status "success" and mdStatus "1".
// Other mdStatus values say why not (0 invalid signature or verification, 2-4 card or issuer not
// enrolled / not possible, 5 verification not possible, 6 3D error, 7 system error, 8 unknown card).
// A browser carries this form, so the connector must also check its signature (signature.ts) and
// that paymentId and conversationId are the ones it started.
import { z } from 'zod';
import type { CallbackCheck, ThreeDsPayment } from '../types.ts';
import { parsePaymentRef } from './references.ts';
import { checkCallbackSignature } from './signature.ts';

const form = z.object({
  status: z.string().min(1),
  paymentId: z.string().regex(/^\d+$/),
  conversationId: z.string().optional(),
  conversationData: z.string().optional(),
  mdStatus: z.string().regex(/^\d+$/).optional(),
  signature: z.string().optional(),
});

export interface ThreeDSCallback {
  /** The shopper passed 3D Secure: the connector may call payment/3dsecure/auth. */
  authenticated: boolean;
  status: string;
  paymentId: string;
  conversationId?: string;
  conversationData?: string;
  mdStatus?: string;
  signature?: string;
}

/** Reads the posted form (URL-encoded text, URLSearchParams or a plain object); null when it is not an iyzico callback. */
export function parseThreeDSCallback(input: string | URLSearchParams | Record<string, unknown>): ThreeDSCallback | null {
  const fields = typeof input === 'string' || input instanceof URLSearchParams ? Object.fromEntries(new URLSearchParams(input)) : input;
  const parsed = form.safeParse(fields);
  if (!parsed.success) return null;
  const callback = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined && v !== '')) as Omit<ThreeDSCallback, 'authenticated'>;
  return { ...callback, authenticated: callback.status === 'success' && callback.mdStatus === '1' };
}

/**
 * Judges a posted callback for the 3D payment the gateway started (no I/O). Rejected, with a short
 * reason that names no secret: a form that is not iyzico's, a signature that is missing or does
 * not check with the merchant's secret key, a paymentId other than the one the start handed out,
 * or a conversationId other than the start's idempotency key. Verified but not authenticated when
 * iyzico says the shopper failed 3D Secure (status not "success" or mdStatus not 1).
 */
export function judgeThreeDSCallback(secretKey: string, payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
  const callback = parseThreeDSCallback(fields);
  if (callback === null) return { status: 'rejected', cause: 'incomplete', reason: 'not an iyzico 3D Secure callback' };
  if (checkCallbackSignature(secretKey, callback) !== 'valid') return { status: 'rejected', cause: 'signature', reason: 'callback signature missing or invalid' };
  if (callback.paymentId !== parsePaymentRef(payment.providerReference)?.paymentId) {
    return { status: 'rejected', cause: 'order', reason: 'callback is for another payment' };
  }
  if (callback.conversationId !== payment.startKey) return { status: 'rejected', cause: 'order', reason: 'callback conversationId does not match the 3D start' };
  if (!callback.authenticated) {
    const providerCode = callback.mdStatus === undefined ? callback.status : `mdStatus:${callback.mdStatus}`;
    return {
      status: 'verified',
      authenticated: false,
      failure: { status: 'declined', code: '3ds_failed', message: `3D Secure not completed (${providerCode})`, providerCode },
    };
  }
  return {
    status: 'verified',
    authenticated: true,
    data: { paymentId: callback.paymentId, ...(callback.conversationData === undefined ? {} : { conversationData: callback.conversationData }) },
  };
}
