// Domain events go to the outbox in the same transaction as the state change they describe;
// the webhook jobs and live subscriptions read them from there, so a crash loses nothing.
import type { Tx } from '../db/client.ts';
import type { OutboxEvent } from '../generated/prisma/client.ts';
import { fanOut, subscribedTo } from './webhooks/fanout.ts';
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
  // One statement: the workspace's clock and the addresses that selected this kind.
  const workspace = await tx.workspace.findUniqueOrThrow({
    where: { id: event.workspaceId },
    select: { testClockOffsetMs: true, webhookAddresses: { where: subscribedTo(event.kind), select: { id: true, url: true } } },
  });
  const createdAt = workspaceTime(workspace, at);
  const row: OutboxEvent = {
    id: crypto.randomUUID(),
    workspaceId: event.workspaceId,
    kind: event.kind,
    recordType: event.kind.split('.')[0] as RecordType,
    recordToken: event.recordToken,
    transactionToken: event.transactionToken ?? null,
    linkPaymentToken: event.linkPaymentToken ?? null,
    requestId: currentRequestId() ?? null,
    createdAt,
    processedAt: createdAt,
  };
  await insertAndSignal(tx, row);
  await fanOut(tx, row, workspace.webhookAddresses, at);
}

/**
 * The outbox row and its signal in one statement (one round trip on a payment's path). PostgreSQL
 * sends the signal only when the transaction commits, to every listening process.
 */
async function insertAndSignal(tx: Tx, row: OutboxEvent): Promise<void> {
  const signal: EventSignal = { id: row.id, workspaceId: row.workspaceId, kind: row.kind as EventKind, recordToken: row.recordToken, transactionToken: row.transactionToken };
  const created = row.createdAt.toISOString();
  await tx.$executeRaw`
    WITH inserted AS (
      INSERT INTO "OutboxEvent" (id, "workspaceId", kind, "recordType", "recordToken", "transactionToken", "linkPaymentToken", "requestId", "createdAt", "processedAt")
      VALUES (${row.id}::uuid, ${row.workspaceId}::uuid, ${row.kind}, ${row.recordType}, ${row.recordToken}::uuid, ${row.transactionToken}::uuid, ${row.linkPaymentToken}::uuid,
              ${row.requestId}, (${created}::timestamptz AT TIME ZONE 'UTC'), (${created}::timestamptz AT TIME ZONE 'UTC'))
      RETURNING id)
    SELECT pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(signal)}) FROM inserted`;
}
