// One notification per address that selected the event's kind, plus one for a subscription's own
// webhook_url, created in the transaction that records the event. The body is fixed here, once:
// a resend is byte-identical (same `id`).
import type { Tx } from '../../db/client.ts';
import { Prisma, type Notification, type OutboxEvent } from '../../generated/prisma/client.ts';
import { insertRows } from '../../db/rows.ts';
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

interface Destination {
  addressId: string | null;
  url: string;
  subscriptionId: string | null;
}

/** The condition on webhook addresses `a` that get an event of this kind. */
export function subscribedToSql(kind: string): Prisma.Sql {
  return Prisma.sql`a.enabled AND (a."allEvents" OR ${kind} = ANY(a.events))`;
}

/**
 * `addresses`: the workspace's addresses that selected the event's kind (`subscribedToSql`), read by
 * the caller with the workspace. `sentFrom`: the gateway-clock instant of the event; the first
 * attempt is due 30 s after it.
 */
export async function fanOut(tx: Tx, event: OutboxEvent, addresses: Array<{ id: string; url: string }>, sentFrom: Date = event.createdAt): Promise<number> {
  const destinations: Destination[] = addresses.map((a) => ({ addressId: a.id, url: a.url, subscriptionId: null }));
  const own = await subscriptionDestination(tx, event, destinations);
  if (own) destinations.push(own);
  if (destinations.length === 0) return 0;
  const firstAttempt = new Date(sentFrom.getTime() + FIRST_DELIVERY_DELAY_MS);
  return insertRows<Notification>(
    tx,
    'Notification',
    destinations.map((d) => {
      const id = crypto.randomUUID();
      return {
        id,
        workspaceId: event.workspaceId,
        outboxEventId: event.id,
        addressId: d.addressId,
        subscriptionId: d.subscriptionId,
        url: d.url,
        event: event.kind,
        recordToken: event.recordToken,
        body: notificationBody(id, event),
        nextAttemptAt: firstAttempt,
        createdAt: event.createdAt,
      };
    }),
  );
}

/**
 * subscription-payment's `webhook_url` gets every event of its subscription, signed like any
 * webhook, besides the workspace's addresses. When one of those addresses is the same URL it
 * already gets the event: the endpoint is sent one notification, not two.
 */
async function subscriptionDestination(tx: Tx, event: OutboxEvent, taken: Destination[]): Promise<Destination | null> {
  if (event.recordType !== 'subscription') return null;
  const subscription = await tx.subscription.findFirst({ where: { id: event.recordToken, workspaceId: event.workspaceId }, select: { id: true, webhookUrl: true } });
  if (!subscription?.webhookUrl || taken.some((d) => d.url === subscription.webhookUrl)) return null;
  return { addressId: null, url: subscription.webhookUrl, subscriptionId: subscription.id };
}
