// Domain events go to the outbox in the same transaction as the state change they describe;
// the webhook jobs and live subscriptions read them from there, so a crash loses nothing.
import type { Tx } from '../db/client.ts';
import { Prisma, type OutboxEvent } from '../generated/prisma/client.ts';
import { fanOut, subscribedToSql } from './webhooks/fanout.ts';
import { workspaceTime } from './workspace-clock.ts';
import { currentRequestId } from '../observability/context.ts';

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
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];
export type RecordType = 'order' | 'payment_link' | 'subscription' | 'transaction';

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
  const id = crypto.randomUUID();
  const requestId = currentRequestId() ?? null;
  const { offsetMs, addresses } = await insertAndSignal(tx, { id, requestId }, event, at);
  const createdAt = workspaceTime({ testClockOffsetMs: offsetMs }, at);
  const row: OutboxEvent = {
    id,
    workspaceId: event.workspaceId,
    kind: event.kind,
    recordType: recordTypeOf(event.kind),
    recordToken: event.recordToken,
    transactionToken: event.transactionToken ?? null,
    linkPaymentToken: event.linkPaymentToken ?? null,
    requestId,
    createdAt,
    processedAt: createdAt,
  };
  await fanOut(tx, row, addresses, at);
}

const recordTypeOf = (kind: EventKind) => kind.split('.')[0] as RecordType;

/**
 * One statement on a payment's path: the outbox row, stamped with the workspace's clock (its
 * test-clock offset read in the same statement), its signal, and the workspace's addresses that
 * selected this kind (for the fan-out). PostgreSQL sends the signal only when the transaction
 * commits, to every listening process.
 */
async function insertAndSignal(tx: Tx, { id, requestId }: { id: string; requestId: string | null }, event: DomainEvent, at: Date): Promise<{ offsetMs: bigint; addresses: Array<{ id: string; url: string }> }> {
  const signal: EventSignal = { id, workspaceId: event.workspaceId, kind: event.kind, recordToken: event.recordToken, transactionToken: event.transactionToken ?? null };
  const createdAt = Prisma.sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC') + w.offset_ms * interval '1 millisecond'`;
  const [row] = await tx.$queryRaw<Array<{ offsetMs: bigint; signals: bigint; addresses: Array<{ id: string; url: string }> }>>`
    WITH w AS (SELECT "testClockOffsetMs" AS offset_ms FROM "Workspace" WHERE id = ${event.workspaceId}::uuid),
    inserted AS (
      INSERT INTO "OutboxEvent" (id, "workspaceId", kind, "recordType", "recordToken", "transactionToken", "linkPaymentToken", "requestId", "createdAt", "processedAt")
      SELECT ${id}::uuid, ${event.workspaceId}::uuid, ${event.kind}, ${recordTypeOf(event.kind)}, ${event.recordToken}::uuid, ${event.transactionToken ?? null}::uuid,
             ${event.linkPaymentToken ?? null}::uuid, ${requestId}, ${createdAt}, ${createdAt}
      FROM w
      RETURNING id),
    signalled AS (SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(signal)}) FROM inserted)
    SELECT w.offset_ms AS "offsetMs", (SELECT count(*) FROM signalled) AS signals,
      COALESCE((SELECT json_agg(json_build_object('id', a.id, 'url', a.url) ORDER BY a."createdAt", a.id)
                FROM "WebhookAddress" a WHERE a."workspaceId" = ${event.workspaceId}::uuid AND ${subscribedToSql(event.kind)}), '[]'::json) AS addresses
    FROM w`;
  if (!row || row.signals !== 1n) throw new Error(`recordEvent: workspace ${event.workspaceId} not found`);
  return row;
}
