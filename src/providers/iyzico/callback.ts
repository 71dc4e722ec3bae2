// The 3D Secure callback: after the shopper's bank page, iyzico makes the shopper's browser POST
// a form to the callbackUrl given to payment/3dsecure/initialize, with status, paymentId,
// conversationData, conversationId and mdStatus. The payment is taken only by a later
// payment/3dsecure/auth call, and only if the shopper passed: status "success" and mdStatus "1".
// Other mdStatus values say why not (0 invalid signature or verification, 2-4 card or issuer not
// enrolled / not possible, 5 verification not possible, 6 3D error, 7 system error, 8 unknown card).
// A browser carries this form, so the connector must also check its signature (signature.ts) and
// that paymentId and conversationId are the ones it started.
import { z } from 'zod';

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
