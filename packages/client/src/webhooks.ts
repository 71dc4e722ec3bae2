// Webhook notifications (docs/webhooks.md): verify the signature over the raw body, then parse
// those same bytes. The body carries only tokens: fetch the record before acting on it.
import { verifyTimestamped, type VerifyTimestampedInput } from './signatures.js';
import { webhookEvents } from './generated/openapi.js';

export type WebhookEvent = (typeof webhookEvents)[number];
export { webhookEvents };

export interface WebhookNotification {
  /** Notification id; the same when it is sent again, so use it to drop duplicates. */
  id: string;
  event: WebhookEvent;
  /** When the event happened, ISO 8601 UTC. */
  created_at: string;
  transaction?: { token: string };
  order?: { token: string };
  payment_link?: { token: string };
  link_payment?: { token: string };
  subscription?: { token: string };
  /** payment_account.degraded / recovered: the account whose routing health changed. */
  payment_account?: { token: string };
}

/** What `verifyWebhook` checks; `path` is the path of the webhook address you added, e.g. `/hooks/gateway` (no query string). */
export type VerifyWebhookInput = VerifyTimestampedInput;

/**
 * True when a notification was signed by the gateway with your secret within the last (or next)
 * 5 minutes; compared in constant time. Answer 401 when it returns false.
 */
export function verifyWebhook(input: VerifyWebhookInput): boolean {
  return verifyTimestamped(input);
}

/** Thrown by `parseWebhook` for a notification that fails verification (answer 401). */
export class WebhookVerificationError extends Error {
  constructor() {
    super('webhook signature invalid or timestamp outside 5 minutes');
    this.name = 'WebhookVerificationError';
  }
}

/** Verifies, then parses the same bytes. Throws WebhookVerificationError when the check fails. */
export function parseWebhook(input: VerifyWebhookInput): WebhookNotification {
  if (!verifyWebhook(input)) throw new WebhookVerificationError();
  const text = typeof input.rawBody === 'string' ? input.rawBody : Buffer.from(input.rawBody).toString('utf8');
  return JSON.parse(text) as WebhookNotification;
}
