// One notification per address that selected the event's kind, created in the transaction that
// records the event. The body is fixed here, once: a resend is byte-identical (same `id`).
import type { Tx } from '../../db/client.ts';
import type { OutboxEvent } from '../../generated/prisma/client.ts';
import { isoMicro } from '../clock.ts';

/** First delivery 30 seconds after the event (spec: Delivery rules). */
export const FIRST_DELIVERY_DELAY_MS = 30_000;

const MONEY_EVENTS = new Set(['order.paid', 'payment_link.paid', 'subscription.active']);

/** The spec's body: id, event, created_at, the record {token}, link_payment and transaction where due. */
export function notificationBody(id: string, event: OutboxEvent): string {
  const body: Record<string, unknown> = { id, event: event.kind, created_at: isoMicro(event.createdAt) };
  body[event.recordType] = { token: event.recordToken };
  if (event.recordType === 'payment_link' && event.linkPaymentToken) body.link_payment = { token: event.linkPaymentToken };
  const movesMoney = MONEY_EVENTS.has(event.kind) || event.kind.endsWith('.payment_refunded') || event.kind.endsWith('.payment_cancelled');
  if (event.recordType !== 'transaction' && movesMoney && event.transactionToken) body.transaction = { token: event.transactionToken };
  return JSON.stringify(body);
}

export async function fanOut(tx: Tx, event: OutboxEvent): Promise<number> {
  const addresses = await tx.webhookAddress.findMany({
    where: { workspaceId: event.workspaceId, enabled: true, OR: [{ allEvents: true }, { events: { has: event.kind } }] },
  });
  if (addresses.length === 0) return 0;
  const firstAttempt = new Date(event.createdAt.getTime() + FIRST_DELIVERY_DELAY_MS);
  await tx.notification.createMany({
    data: addresses.map((address) => {
      const id = crypto.randomUUID();
      return {
        id,
        workspaceId: event.workspaceId,
        outboxEventId: event.id,
        addressId: address.id,
        url: address.url,
        event: event.kind,
        recordToken: event.recordToken,
        body: notificationBody(id, event),
        nextAttemptAt: firstAttempt,
        createdAt: event.createdAt,
      };
    }),
  });
  return addresses.length;
}
