// Domain events go to the outbox in the same transaction as the state change they describe;
// the webhook jobs and live subscriptions read them from there, so a crash loses nothing.
import type { Tx } from '../db/client.ts';
import { Prisma, type OutboxEvent } from '../generated/prisma/client.ts';
import { notificationsSql, notifySubscriptionUrl } from './webhooks/fanout.ts';
import { currentRequestId } from '../observability/context.ts';
import { queryRows } from '../db/raw.ts';

export const EVENT_KINDS = [
  'order.paid',
  'order.payment_refunded',
  'order.payment_cancelled',
  'payment_link.paid',
  'payment_link.payment_refunded',
  'payment_link.payment_cancelled',
  'subscription.active',
  'subscription.past_due',
  'subscription.cancelled',
  'subscription.ended',
  'subscription.completed',
  'subscription.payment_refunded',
  'subscription.payment_cancelled',
  'transaction.successful',
  'transaction.failed',
  'transaction.expired',
  'transaction.payment_refunded',
  'transaction.payment_cancelled',
  'payment_account.degraded',
  'payment_account.recovered',
  'risk_source.blocked',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];
export type RecordType = 'order' | 'payment_link' | 'subscription' | 'transaction' | 'payment_account' | 'risk_source';

export interface DomainEvent {
  workspaceId: string;
  kind: EventKind;
  recordToken: string;
  transactionToken?: string | null;
  linkPaymentToken?: string | null;
}

/** PostgreSQL channel on which committed events reach every gateway process (live subscriptions). */
export const EVENTS_CHANNEL = 'gateway_events';

export interface EventSignal {
  id: string;
  workspaceId: string;
  kind: EventKind;
  recordToken: string;
  transactionToken: string | null;
}

/**
 * `at` is the gateway's clock. The event carries the workspace's time (a test clock runs ahead),
 * while its deliveries are scheduled on the gateway's clock, which is what the delivery job reads.
 */
export async function recordEvent(tx: Tx, event: DomainEvent, at: Date): Promise<void> {
  const [row] = await queryRows<Written>(tx, eventStatement(event, at));
  const written = writtenEvent(row, event);
  await notifySubscriptionUrl(tx, written.event, written.notified, at);
}

/**
 * A change and the event it makes, in one statement and so without a transaction: `change` is a
 * data-modifying statement with `RETURNING *` of one row at most (rows.ts: updateRowSql). The event
 * is written only when it changed a row, which is returned (null when none). Not for subscription
 * events: their subscription's own webhook_url takes one more statement (recordEvent, in a transaction).
 */
export async function changeWithEvent<T>(db: Tx, change: Prisma.Sql, event: DomainEvent, at: Date): Promise<T | null> {
  if (recordTypeOf(event.kind) === 'subscription') throw new Error(`changeWithEvent: ${event.kind} needs recordEvent in a transaction`);
  const [row] = await queryRows<Written & Record<string, unknown>>(db, eventStatement(event, at, change));
  if (!row) return null;
  const { eventId, eventRequestId, eventCreatedAt, eventSignals, eventNotified, ...changed } = row;
  writtenEvent({ eventId, eventRequestId, eventCreatedAt, eventSignals, eventNotified }, event);
  return changed as T;
}

const recordTypeOf = (kind: EventKind) => kind.split('.')[0] as RecordType;

/** What the event statement returns of the event: null and 0 when it wrote none. */
interface Written {
  eventId: string | null;
  eventRequestId: string | null;
  eventCreatedAt: Date | null;
  eventSignals: bigint;
  eventNotified: string[];
}

function writtenEvent(row: Written | undefined, event: DomainEvent): { event: OutboxEvent; notified: string[] } {
  if (!row || row.eventSignals !== 1n || !row.eventId || !row.eventCreatedAt) throw new Error(`recordEvent: workspace ${event.workspaceId} not found`);
  const written: OutboxEvent = {
    id: row.eventId,
    workspaceId: event.workspaceId,
    kind: event.kind,
    recordType: recordTypeOf(event.kind),
    recordToken: event.recordToken,
    transactionToken: event.transactionToken ?? null,
    linkPaymentToken: event.linkPaymentToken ?? null,
    requestId: row.eventRequestId,
    createdAt: row.eventCreatedAt,
    processedAt: row.eventCreatedAt,
  };
  return { event: written, notified: row.eventNotified };
}

/**
 * One statement: the outbox row, stamped with the workspace's clock (its test-clock offset read in
 * the same statement); the notifications to the workspace's addresses that selected its kind; and
 * its signal, which PostgreSQL sends to every listening process only when the statement's
 * transaction commits. After `change` (as the CTE `changed`) when given, and only if it changed a row.
 */
function eventStatement(event: DomainEvent, at: Date, change?: Prisma.Sql): Prisma.Sql {
  const id = crypto.randomUUID();
  const requestId = currentRequestId() ?? null;
  const signal: EventSignal = { id, workspaceId: event.workspaceId, kind: event.kind, recordToken: event.recordToken, transactionToken: event.transactionToken ?? null };
  const createdAt = Prisma.sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC') + w.offset_ms * interval '1 millisecond'`;
  const recordType = recordTypeOf(event.kind);
  const body = { ...event, recordType, transactionToken: event.transactionToken ?? null, linkPaymentToken: event.linkPaymentToken ?? null };
  return Prisma.sql`
    WITH ${change ? Prisma.sql`changed AS (${change}),` : Prisma.empty}
    w AS (SELECT "testClockOffsetMs" AS offset_ms FROM "Workspace" WHERE id = ${event.workspaceId}::uuid ${change ? Prisma.sql`AND EXISTS (SELECT 1 FROM changed)` : Prisma.empty}),
    outbox AS (
      INSERT INTO "OutboxEvent" (id, "workspaceId", kind, "recordType", "recordToken", "transactionToken", "linkPaymentToken", "requestId", "createdAt", "processedAt")
      SELECT ${id}::uuid, ${event.workspaceId}::uuid, ${event.kind}, ${recordType}, ${event.recordToken}::uuid, ${body.transactionToken}::uuid,
             ${body.linkPaymentToken}::uuid, ${requestId}, ${createdAt}, ${createdAt}
      FROM w
      RETURNING id, "requestId", "createdAt"),
    notified AS (${notificationsSql(body, at)}),
    signalled AS (SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(signal)}) FROM outbox)
    SELECT ${change ? Prisma.sql`changed.*,` : Prisma.empty}
      (SELECT id FROM outbox) AS "eventId", (SELECT "requestId" FROM outbox) AS "eventRequestId", (SELECT "createdAt" FROM outbox) AS "eventCreatedAt",
      (SELECT count(*) FROM signalled) AS "eventSignals", ARRAY(SELECT url FROM notified) AS "eventNotified"
    ${change ? Prisma.sql`FROM changed` : Prisma.empty}`;
}
