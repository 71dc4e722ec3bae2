// Row counts of the tables a payment request writes to, for "a rejected request writes nothing".
import type { Merchant, TestGateway } from './gateway.ts';

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

/** An API payment as an attempt writes it before its bank call (`started`), for the settlement's tests. */
export async function startedPayment(t: TestGateway, m: Merchant, channelReference: string): Promise<{ id: string; workspaceId: string; source: 'api' }> {
  const payment = await t.gateway.services.db.payment.create({
    data: {
      workspaceId: m.workspaceId,
      channelId: m.channelToken,
      paymentAccountId: m.accountToken,
      source: 'api',
      securityType: 'non_secure',
      status: 'started',
      channelReference,
      amount: 10_000n,
      baseAmount: 10_000n,
      currency: 'TRY',
      isTest: true,
      cardHolderName: 'AYSE YILMAZ',
      cardFirstDigits: '41111111',
      cardLastFourDigits: '1111',
      createdAt: t.clock.now(),
    },
  });
  return { id: payment.id, workspaceId: payment.workspaceId, source: 'api' };
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
