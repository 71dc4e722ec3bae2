// Contention is an input too: waiting for a row lock never fails a request, and a
// truly saturated database answers 503 with Retry-After and a body saying nothing happened —
// which must then be true: no refund row, no money reserved, no event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { message } from '../../src/domain/messages.ts';

type Answer = { status: number; body: { result: { successful: boolean; message: string } }; headers: Headers };

async function payAndRefundAtOnce(t: TestGateway, m: Merchant, reference: string, refunds: number) {
  // A client retries a 503 (nothing was done); the saturated gateway may give one here too.
  let paid = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference, amount: '100.00' } }));
  for (let i = 0; paid.status === 503 && i < 50; i++) {
    paid = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference, amount: '100.00' } }));
  }
  expect(paid.body.result.successful).toBe(true);
  const token: string = paid.body.transaction.token;
  const answers: Answer[] = await Promise.all(Array.from({ length: refunds }, () => m.call('refund-payment', { transaction: { token }, amount: '1.00' })));
  const db = t.gateway.services.db;
  const [payment, rows, events] = await Promise.all([
    db.payment.findUniqueOrThrow({ where: { id: token } }),
    db.refund.findMany({ where: { paymentId: token } }),
    db.outboxEvent.count({ where: { recordToken: token, kind: 'transaction.payment_refunded' } }),
  ]);
  return { answers, payment, rows, events };
}

function expectMoneyConsistent(r: Awaited<ReturnType<typeof payAndRefundAtOnce>>) {
  const processed = r.answers.filter((a) => a.status === 200);
  const succeeded = r.rows.filter((row) => row.status === 'succeeded');
  // Every refund row belongs to an answered request; a 503 or a 422 wrote none.
  expect(r.rows.length).toBe(processed.length);
  expect(succeeded.length).toBe(processed.filter((a) => a.body.result.successful).length);
  expect(r.payment.refundedAmount).toBe(succeeded.reduce((sum, row) => sum + row.amount, 0n));
  expect(r.payment.refundedAmount <= 10_000n).toBe(true);
  expect(r.events).toBe(succeeded.length);
}

describe('200 refunds of one payment at once, default settings', () => {
  let t: TestGateway;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestGateway();
    m = await seedWorkspace(t);
  });
  afterAll(() => t?.stop());

  it('no request fails with a 500: each waits for the row lock and is processed or refused', async () => {
    const r = await payAndRefundAtOnce(t, m, 'SAT-1001', 200);
    for (const a of r.answers) {
      expect([200, 422, 503]).toContain(a.status);
      if (a.status === 503) expect(a.headers.get('retry-after')).toBe('2');
    }
    // 100.00 in refunds of 1.00: the first hundred processed empty it, the rest find nothing left.
    expect(r.answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expectMoneyConsistent(r);
  });
});

/** The set-up shares the one connection with the gateway's own jobs: it retries what a 503 would. */
async function seedWhileBusy(t: TestGateway): Promise<Merchant> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await seedWorkspace(t);
    } catch (err) {
      if (attempt >= 50 || !String(err).includes('Unable to start a transaction')) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('a saturated database (one connection, 10 ms wait for it)', () => {
  let t: TestGateway;
  let m: Merchant;
  beforeAll(async () => {
    t = await startTestGateway({ env: { DB_POOL_SIZE: '1', DB_TX_MAX_WAIT_MS: '10' } });
    m = await seedWhileBusy(t);
  });
  afterAll(() => t?.stop());

  it('answers 503 with Retry-After and "nothing was done", and nothing was done', async () => {
    const r = await payAndRefundAtOnce(t, m, 'SAT-2001', 60);
    const busy = r.answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const a of busy) {
      expect(a.headers.get('retry-after')).toBe('2');
      expect(a.body).toEqual({ result: { successful: false, message: message('service_busy') }, errors: {} });
    }
    for (const a of r.answers) expect([200, 422, 503]).toContain(a.status);
    expectMoneyConsistent(r);
  });

  it('a payment answered 503 wrote nothing: no payment, no customer, no event', async () => {
    const refs = Array.from({ length: 40 }, (_, i) => `SAT-P-${i}`);
    const answers: Answer[] = await Promise.all(
      refs.map((ref) => m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: ref, amount: '10.00' }, customer: { channel_reference: `C-${ref}` } }))),
    );
    const paid = refs.filter((_, i) => answers[i]!.status === 200);
    expect(paid.length).toBeLessThan(refs.length);
    for (const a of answers) {
      expect([200, 503]).toContain(a.status);
      if (a.status === 503) {
        expect(a.headers.get('retry-after')).toBe('2');
        expect(a.body).toEqual({ result: { successful: false, message: message('service_busy') }, errors: {} });
      }
    }
    const db = t.gateway.services.db;
    const payments = await db.payment.findMany({ where: { channelReference: { in: refs } } });
    expect(payments.map((p) => p.channelReference).sort()).toEqual([...paid].sort());
    expect(await db.customer.count({ where: { channelReference: { in: refs.map((ref) => `C-${ref}`) } } })).toBe(paid.length);
    expect(await db.outboxEvent.count({ where: { recordToken: { in: payments.map((p) => p.id) }, kind: 'transaction.successful' } })).toBe(paid.length);
  });
});
