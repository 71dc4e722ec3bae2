// Domain events go to the outbox in the same transaction as the state change they describe;
// the webhook jobs and live subscriptions read them from there, so a crash loses nothing.
import type { Tx } from '../db/client.ts';
import { Prisma, type OutboxEvent } from '../generated/prisma/client.ts';
import { notificationInput, notificationsSql, notifySubscriptionUrl, type NotificationInput } from './webhooks/fanout.ts';
import { currentRequestId } from '../observability/context.ts';
import { queryRows, type RawOptions } from '../db/raw.ts';

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
 * An event as a statement takes it (its input row `e`), made in the caller's context: the request
 * that caused it is read here, and a statement may be sent later for many callers at once
 * (payments/settle.ts). `at` is the gateway's clock: the event carries the workspace's time
 * (a test clock runs ahead), while its deliveries are scheduled on the gateway's clock, which is
 * what the delivery job reads. `rowId`: the changed row the event reports, when the statement
 * changes several (changeWithEvents).
 */
export interface EventInput extends NotificationInput {
  id: string;
  rowId: string | null;
  workspaceId: string;
  kind: EventKind;
  recordType: RecordType;
  recordToken: string;
  transactionToken: string | null;
  linkPaymentToken: string | null;
  requestId: string | null;
  /** The gateway's clock, as UTC ISO text. */
  at: string;
  /** The EventSignal's JSON, sent on EVENTS_CHANNEL when the statement commits. */
  signal: string;
}

export function eventInput(event: DomainEvent, at: Date, rowId: string | null = null): EventInput {
  const id = crypto.randomUUID();
  const recordType = recordTypeOf(event.kind);
  const transactionToken = event.transactionToken ?? null;
  const linkPaymentToken = event.linkPaymentToken ?? null;
  const signal: EventSignal = { id, workspaceId: event.workspaceId, kind: event.kind, recordToken: event.recordToken, transactionToken };
  const body = { kind: event.kind, recordType, recordToken: event.recordToken, transactionToken, linkPaymentToken };
  return {
    id,
    rowId,
    workspaceId: event.workspaceId,
    ...body,
    requestId: currentRequestId() ?? null,
    at: at.toISOString(),
    signal: JSON.stringify(signal),
    ...notificationInput(body, at),
  };
}

export async function recordEvent(tx: Tx, event: DomainEvent, at: Date): Promise<void> {
  const input = eventInput(event, at);
  const rows = await queryRows<Written>(tx, eventsStatement([input]));
  const [written] = writtenEvents(rows, [input]);
  if (!written) throw new Error(`recordEvent: workspace ${event.workspaceId} not found`);
  await notifySubscriptionUrl(tx, written.event, written.notified, at);
}

/**
 * A change and the event it makes, in one statement and so without a transaction: `change` is a
 * data-modifying statement with `RETURNING *` of one row at most (rows.ts: updateRowSql). The event
 * is written only when it changed a row, which is returned (null when none). Not for subscription
 * events: their subscription's own webhook_url takes one more statement (recordEvent, in a transaction).
 */
export async function changeWithEvent<T>(db: Tx, change: Prisma.Sql, event: DomainEvent, at: Date): Promise<T | null> {
  const [row] = await changeWithEvents<T & { id: string }>(db, change, [eventInput(event, at)]);
  return row ?? null;
}

/**
 * Changes of several rows and the events they make, in one statement: `change` returns each
 * changed row with its `id` (rows.ts: updateRowsSql); an event is written only when its `rowId`
 * (any changed row when null) changed. Returns the changed rows, without the events' columns.
 * `options`: how the statement is sent (raw.ts), e.g. unnamed when its plan depends on the rows.
 */
export async function changeWithEvents<T extends { id: string }>(db: Tx, change: Prisma.Sql, events: readonly EventInput[], options: RawOptions = {}): Promise<T[]> {
  for (const e of events) if (e.recordType === 'subscription') throw new Error(`changeWithEvent: ${e.kind} needs recordEvent in a transaction`);
  const rows = await queryRows<Written & T>(db, eventsStatement(events, change), options);
  writtenEvents(rows, events);
  return rows.map(({ eventId: _i, eventRequestId: _r, eventCreatedAt: _c, eventSignals: _s, eventNotified: _n, ...changed }) => changed as unknown as T);
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

/** The events a statement wrote (those its rows name), each as the outbox row and the urls notified. */
function writtenEvents(rows: readonly Written[], inputs: readonly EventInput[]): Array<{ event: OutboxEvent; notified: string[] }> {
  const byId = new Map(inputs.map((e) => [e.id, e]));
  const written = rows.filter((row) => row.eventId !== null);
  // Each event written sent its signal in the same statement: otherwise live subscribers miss it.
  if (written.length > 0 && written[0]!.eventSignals !== BigInt(written.length)) throw new Error(`events: ${written.length} written, ${written[0]!.eventSignals} signalled`);
  return written.map((row) => {
    const input = byId.get(row.eventId!);
    if (!input || !row.eventCreatedAt) throw new Error(`events: event ${row.eventId} not asked for`);
    const event: OutboxEvent = {
      id: input.id,
      workspaceId: input.workspaceId,
      kind: input.kind,
      recordType: input.recordType,
      recordToken: input.recordToken,
      transactionToken: input.transactionToken,
      linkPaymentToken: input.linkPaymentToken,
      requestId: row.eventRequestId,
      createdAt: row.eventCreatedAt,
      processedAt: row.eventCreatedAt,
    };
    return { event, notified: row.eventNotified };
  });
}

/**
 * One statement: the outbox rows, each stamped with its workspace's clock (the test-clock offset
 * read in the same statement); the notifications to the workspaces' addresses that selected their
 * kinds; and their signals, which PostgreSQL sends to every listening process only when the
 * statement's transaction commits. After `change` (as the CTE `changed`) when given, and then each
 * event only if its row changed. One row per changed row (with change) or per event (without), with
 * the event's columns, null where none was written.
 */
function eventsStatement(events: readonly EventInput[], change?: Prisma.Sql): Prisma.Sql {
  const reported = change ? Prisma.sql`WHERE EXISTS (SELECT 1 FROM changed c WHERE e."rowId" IS NULL OR c.id = e."rowId")` : Prisma.empty;
  const rows = change ? Prisma.sql`changed c LEFT JOIN e ON e."rowId" IS NULL OR e."rowId" = c.id` : Prisma.sql`e`;
  return Prisma.sql`
    WITH ${change ? Prisma.sql`changed AS (${change}),` : Prisma.empty}
    e AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS e(id uuid, "rowId" uuid, "workspaceId" uuid, kind text,
            "recordType" text, "recordToken" uuid, "transactionToken" uuid, "linkPaymentToken" uuid, "requestId" text, at timestamptz,
            signal text, template text, "firstAttemptAt" timestamptz)),
    outbox AS (
      INSERT INTO "OutboxEvent" (id, "workspaceId", kind, "recordType", "recordToken", "transactionToken", "linkPaymentToken", "requestId", "createdAt", "processedAt")
      SELECT e.id, e."workspaceId", e.kind, e."recordType", e."recordToken", e."transactionToken", e."linkPaymentToken", e."requestId", t.at, t.at
      FROM e CROSS JOIN LATERAL (SELECT (e.at AT TIME ZONE 'UTC') + w."testClockOffsetMs" * interval '1 millisecond' AS at
                                 FROM "Workspace" w WHERE w.id = e."workspaceId") t
      ${reported}
      RETURNING id, "workspaceId", kind, "recordToken", "requestId", "createdAt"),
    notified AS (${notificationsSql()}),
    signalled AS (SELECT pg_notify(${EVENTS_CHANNEL}, e.signal) FROM outbox o JOIN e ON e.id = o.id)
    SELECT ${change ? Prisma.sql`c.*,` : Prisma.empty}
      o.id AS "eventId", o."requestId" AS "eventRequestId", o."createdAt" AS "eventCreatedAt",
      (SELECT count(*) FROM signalled) AS "eventSignals", ARRAY(SELECT n.url FROM notified n WHERE n."outboxEventId" = o.id) AS "eventNotified"
    FROM ${rows} LEFT JOIN outbox o ON o.id = e.id`;
}
