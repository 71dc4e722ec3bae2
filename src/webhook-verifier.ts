/**
 * Webhook verification for merchants: `import { verifyWebhook } from 'payment-gateway/verify-webhook'`.
 *
 * The gateway signs every notification with your workspace's API secret:
 * `X-Signature` = hex HMAC-SHA256(secret, `<X-Timestamp>\nPOST\n<path>\n<raw body>`), where `<path>`
 * is the path of your webhook address (leading slash, no query string, `/` when empty) and the body
 * is the exact bytes received. `verifyWebhook` checks that signature in constant time and refuses a
 * timestamp more than 5 minutes old (or ahead); answer 401 when it returns false, and parse the JSON
 * only after it returned true, from the same bytes. The body carries only the notification `id`,
 * the `event` and record tokens: fetch the record (e.g. `retrieve-payment`) before acting, and
 * drop notifications whose `id` you have already handled.
 *
 * This module is the gateway's own verifier (src/domain/signatures.ts) re-exported, so the check a
 * merchant runs cannot drift from the signer the gateway uses. See docs/webhooks.md for a complete
 * receiver.
 *
 * @example
 * import { verifyWebhook } from 'payment-gateway/verify-webhook';
 * const ok = verifyWebhook({
 *   secret: process.env.GATEWAY_API_SECRET!,
 *   timestamp: req.headers['x-timestamp'] as string | undefined,
 *   signature: req.headers['x-signature'] as string | undefined,
 *   path: '/hooks/gateway',
 *   rawBody, // Buffer or string, exactly as received
 * });
 * if (!ok) return respond(401);
 */
export { verifyWebhook, TIMESTAMP_TOLERANCE_SECONDS } from './domain/signatures.ts';
export type { VerifyWebhookInput, RawBody } from './domain/signatures.ts';
