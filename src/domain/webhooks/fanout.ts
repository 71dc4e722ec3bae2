// One notification per address that selected the event's kind, plus one for a subscription's own
// webhook_url, created with the event (the address ones in its very statement). The body is fixed
// here, once: a resend is byte-identical (same `id`).
import type { Tx } from '../../db/client.ts';
import { Prisma, type Notification, type OutboxEvent } from '../../generated/prisma/client.ts';
import { insertRows } from '../../db/rows.ts';
import { isoMicro } from '../clock.ts';

/** First delivery 30 seconds after the event (contract: Delivery rules). */
export const FIRST_DELIVERY_DELAY_MS = 30_000;

/** When an event's notifications are first due: 30 s after the gateway-clock instant it was sent from. */
const firstAttemptAt = (sentFrom: Date) => new Date(sentFrom.getTime() + FIRST_DELIVERY_DELAY_MS);

const MONEY_EVENTS = new Set(['order.paid', 'payment_link.paid', 'subscription.active']);

type BodyEvent = Pick<OutboxEvent, 'kind' | 'recordType' | 'recordToken' | 'linkPaymentToken' | 'transactionToken'>;

/** The contract's body: id, event, created_at, the record {token}, link_payment and transaction where due. */
function body(id: string, createdAt: string, event: BodyEvent): string {
  const body: Record<string, unknown> = { id, event: event.kind, created_at: createdAt };
  body[event.recordType] = { token: event.recordToken };
  if (event.recordType === 'payment_link' && event.linkPaymentToken) body.link_payment = { token: event.linkPaymentToken };
  const movesMoney = MONEY_EVENTS.has(event.kind) || event.kind.endsWith('.payment_refunded') || event.kind.endsWith('.payment_cancelled');
  // A blocked source names the attempt that started the block.
  const namesAttempt = movesMoney || event.recordType === 'risk_source';
  if (event.recordType !== 'transaction' && namesAttempt && event.transactionToken) body.transaction = { token: event.transactionToken };
  return JSON.stringify(body);
}

export function notificationBody(id: string, event: OutboxEvent): string {
  return body(id, isoMicro(event.createdAt), event);
}

/** The token a test event names for every record: the nil UUID, which no record ever has. */
export const TEST_RECORD_TOKEN = '00000000-0000-0000-0000-000000000000';

/** A test event's body: the contract's fields for `kind`, each record's token TEST_RECORD_TOKEN. */
export function testNotificationBody(id: string, createdAt: Date, kind: string): string {
  const t = TEST_RECORD_TOKEN;
  return body(id, isoMicro(createdAt), { kind, recordType: kind.split('.')[0]!, recordToken: t, linkPaymentToken: t, transactionToken: t });
}

const ID = '{{id}}';
const CREATED_AT = '{{created_at}}';
/** isoMicro in SQL, for a timestamp(3): milliseconds and three zeros. */
const ISO_MICRO = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';

/** What an event's notifications need of it, made with its row's input (events.ts). */
export interface NotificationInput {
  /** notificationBody's text with its id and created_at left as placeholders, filled in per row by the statement. */
  template: string;
  /** When they are first due, as UTC ISO text. */
  firstAttemptAt: string;
}

export function notificationInput(event: BodyEvent, sentFrom: Date): NotificationInput {
  return { template: body(ID, CREATED_AT, event), firstAttemptAt: firstAttemptAt(sentFrom).toISOString() };
}

/**
 * The notifications of the events a statement inserts, one per address of the event's workspace
 * that selected its kind, as a CTE after the CTE `outbox` (the events written: id, workspaceId,
 * kind, recordToken, createdAt) and beside `e`, the statement's input rows (events.ts), which carry
 * each event's NotificationInput. Returns each one's event id and url.
 */
export function notificationsSql(): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "Notification" (id, "workspaceId", "outboxEventId", "addressId", url, event, "recordToken", body, "nextAttemptAt", "createdAt")
    SELECT n.id, o."workspaceId", o.id, n.address_id, n.url, o.kind, o."recordToken",
           replace(replace(e.template, ${ID}, n.id::text), ${CREATED_AT}, to_char(o."createdAt", ${ISO_MICRO})),
           e."firstAttemptAt" AT TIME ZONE 'UTC', o."createdAt"
    FROM outbox o JOIN e ON e.id = o.id
    CROSS JOIN LATERAL (SELECT gen_random_uuid() AS id, a.id AS address_id, a.url FROM "WebhookAddress" a
       WHERE a."workspaceId" = o."workspaceId" AND a.enabled AND (a."allEvents" OR o.kind = ANY(a.events))) n
    RETURNING "outboxEventId", url`;
}

/**
 * subscription-payment's `webhook_url` gets every event of its subscription, signed like any
 * webhook, besides the workspace's addresses (`notified`: the urls those were sent to). When one of
 * those addresses is the same URL it already gets the event: the endpoint is sent one
 * notification, not two. `sentFrom`: the gateway-clock instant of the event.
 */
export async function notifySubscriptionUrl(tx: Tx, event: OutboxEvent, notified: string[], sentFrom: Date): Promise<number> {
  if (event.recordType !== 'subscription') return 0;
  const subscription = await tx.subscription.findFirst({ where: { id: event.recordToken, workspaceId: event.workspaceId }, select: { id: true, webhookUrl: true } });
  if (!subscription?.webhookUrl || notified.includes(subscription.webhookUrl)) return 0;
  const id = crypto.randomUUID();
  return insertRows<Notification>(tx, 'Notification', [
    {
      id,
      workspaceId: event.workspaceId,
      outboxEventId: event.id,
      subscriptionId: subscription.id,
      url: subscription.webhookUrl,
      event: event.kind,
      recordToken: event.recordToken,
      body: notificationBody(id, event),
      nextAttemptAt: firstAttemptAt(sentFrom),
      createdAt: event.createdAt,
    },
  ]);
}
