import { createHmac, randomUUID } from 'node:crypto';
import type { Payment } from './state.ts';

/**
 * iyzico's merchant notifications, "Direct" format (non-3DS and 3DS payments): a JSON POST to
 * the merchant's notification URL after each payment attempt, signed in the X-IYZ-SIGNATURE-V3
 * header with hex HMAC-SHA256(key = secretKey, secretKey + iyziEventType + paymentId +
 * paymentConversationId + status). Not 2xx: tried again, at most 3 attempts in all.
 */
export type WebhookEventType = 'API_AUTH' | 'THREE_DS_AUTH';

export interface WebhookDelivery {
  paymentId: string;
  iyziEventType: WebhookEventType;
  status: 'SUCCESS' | 'FAILURE';
  attempts: number;
  /** HTTP status of the last attempt, or 0 when it could not connect. */
  lastHttpStatus: number | null;
  delivered: boolean;
}

export interface WebhookOptions {
  url: string;
  secretKey: string;
  merchantId: string;
  /** Wait before the first attempt (iyzico: 10–15 s); default 0. */
  delayMs: number;
  /** Wait between attempts (iyzico: 15 min); default 1 s. */
  retryMs: number;
}

export const WEBHOOK_ATTEMPTS = 3;

export function webhookSignature(secretKey: string, body: { iyziEventType: string; paymentId: number | string; paymentConversationId: string; status: string }): string {
  return createHmac('sha256', secretKey)
    .update(secretKey + body.iyziEventType + String(body.paymentId) + body.paymentConversationId + body.status)
    .digest('hex');
}

export class WebhookSender {
  readonly deliveries: WebhookDelivery[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: WebhookOptions) {}

  /** Called once a payment attempt has its final outcome. */
  paymentResult(payment: Payment): void {
    const iyziEventType: WebhookEventType = payment.threeDS ? 'THREE_DS_AUTH' : 'API_AUTH';
    const status = payment.status === 'SUCCESS' ? 'SUCCESS' : 'FAILURE';
    const body = {
      paymentConversationId: payment.conversationId ?? '',
      merchantId: Number(this.options.merchantId),
      paymentId: Number(payment.paymentId),
      status,
      iyziReferenceCode: randomUUID(),
      iyziEventType,
      iyziEventTime: Date.now(),
      iyziPaymentId: Number(payment.paymentId),
    };
    const delivery: WebhookDelivery = { paymentId: payment.paymentId, iyziEventType, status, attempts: 0, lastHttpStatus: null, delivered: false };
    this.deliveries.push(delivery);
    const text = JSON.stringify(body);
    const signature = webhookSignature(this.options.secretKey, body);
    this.later(this.options.delayMs, () => this.attempt(delivery, text, signature));
  }

  private async attempt(delivery: WebhookDelivery, text: string, signature: string): Promise<void> {
    delivery.attempts += 1;
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-iyz-signature-v3': signature },
        body: text,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      delivery.lastHttpStatus = response.status;
      delivery.delivered = response.status >= 200 && response.status < 300;
    } catch {
      delivery.lastHttpStatus = 0;
    }
    if (!delivery.delivered && delivery.attempts < WEBHOOK_ATTEMPTS) this.later(this.options.retryMs, () => this.attempt(delivery, text, signature));
  }

  private later(ms: number, run: () => Promise<void>): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void run();
    }, ms);
    this.timers.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
