// Row counts of the tables a payment request writes to, for "a rejected request writes nothing".
import type { TestGateway } from './gateway.ts';

export interface RowCounts {
  payments: number;
  customers: number;
  refunds: number;
  events: number;
}

export async function rowCounts(t: TestGateway): Promise<RowCounts> {
  const db = t.gateway.services.db;
  const [payments, customers, refunds, events] = await Promise.all([db.payment.count(), db.customer.count(), db.refund.count(), db.outboxEvent.count()]);
  return { payments, customers, refunds, events };
}

/** The outbox events of one record, oldest first, as `kind` strings. */
export async function eventsOf(t: TestGateway, recordToken: string): Promise<string[]> {
  const rows = await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map((e) => e.kind);
}

/**
 * A payment's provider attempts as stored, in the order they started. They are written in the
 * background (src/domain/provider-attempts.ts), so the writer is drained first: reading right after
 * the answer could otherwise miss them.
 */
export async function attemptsOf(t: TestGateway, paymentId: string) {
  await t.gateway.services.attempts.drain();
  return t.gateway.services.db.providerAttempt.findMany({ where: { paymentId }, orderBy: [{ startedAt: 'asc' }, { operation: 'asc' }] });
}
