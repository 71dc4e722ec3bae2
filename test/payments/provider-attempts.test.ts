// Every call the gateway makes to a provider about a payment is a ProviderAttempt row on that
// payment (src/providers/recording.ts): regular and 3D payments, declines with the provider's and
// the gateway's codes, timeouts and the status inquiry after them, refunds and cancels, a card
// stored with the payment. Rows are read from the real database once the background writes are
// drained; none holds card data. A write that fails changes nothing of the payment.
import { describe, expect, it } from 'vitest';
import { Prisma, type ProviderAttempt } from '../../src/generated/prisma/client.ts';
import { useGateway } from '../helpers/fixture.ts';
import { asOwner } from '../helpers/db.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { INTERRUPTED_AFTER_MS, recoverInterruptedPayments } from '../../src/domain/payments/interrupted.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { attemptsOf as attemptsStored } from '../helpers/rows.ts';
import { subjectOfKey } from '../../src/providers/recording.ts';

const { t, merchant: m } = useGateway({ merchant: true });
const db = () => t.gateway.services.db;
let reference = 1;

/** The payment's attempts as stored, in the order they started. */
const attemptsOf = (paymentId: string): Promise<ProviderAttempt[]> => attemptsStored(t, paymentId);
const summary = (rows: ProviderAttempt[]) => rows.map((a) => ({ operation: a.operation, outcome: a.outcome, errorCode: a.errorCode }));

async function pay(number: string = CARDS.approved, over: Record<string, unknown> = {}) {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `PA-${reference++}` }, card: { number, ...over } }));
  expect(res.status, res.text).toBe(200);
  return res;
}

describe('provider attempts of a payment', () => {
  it('a regular payment: one charge, succeeded, with the account, provider, key and timing', async () => {
    const startedAt = t.clock.now();
    const res = await pay();
    const token = res.body.transaction.token as string;

    const [charge, ...others] = await attemptsOf(token);
    expect(others).toEqual([]);
    expect(charge).toMatchObject({
      workspaceId: m.workspaceId,
      paymentId: token,
      refundId: null,
      paymentAccountId: m.accountToken,
      provider: 'simulator',
      operation: 'charge',
      idempotencyKey: `${token}:charge`,
      outcome: 'succeeded',
      providerCode: null,
      providerMessage: null,
      errorCode: null,
      startedAt,
      durationMs: 0, // the test clock stands still during the call
    });
  });

  it('a 3D payment: start3D (redirect) then complete3D (succeeded)', async () => {
    const start = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `PA-${reference++}` } }));
    const token = start.body.transaction.token as string;
    expect(summary(await attemptsOf(token))).toEqual([{ operation: 'start3D', outcome: 'redirect', errorCode: null }]);

    t.clock.advance(1_000);
    expect((await completeThreeDs(start.body.result.redirect_url, 'approve')).returnStatus).toBeLessThan(400);

    const rows = await attemptsOf(token);
    expect(summary(rows)).toEqual([
      { operation: 'start3D', outcome: 'redirect', errorCode: null },
      { operation: 'complete3D', outcome: 'succeeded', errorCode: null },
    ]);
    expect(rows.map((a) => a.idempotencyKey)).toEqual([`${token}:authorise`, `${token}:complete`]);
    expect(rows[1]!.startedAt.getTime() - rows[0]!.startedAt.getTime()).toBe(1_000);
  });

  // The simulator's refusals carry no code of its own (the iyzico emulator's do: test/iyzico/attempts.test.ts).
  it('a declined card: declined, with the gateway\'s error_code and the provider\'s code and text as the payment keeps them', async () => {
    const res = await pay(CARDS.insufficientFunds);
    const token = res.body.transaction.token as string;
    const payment = await db().payment.findUniqueOrThrow({ where: { id: token } });

    const [charge] = await attemptsOf(token);
    expect(charge).toMatchObject({ operation: 'charge', outcome: 'declined', errorCode: 'insufficient_funds' });
    expect(res.body.result.error_code).toBe('insufficient_funds');
    expect(charge!.providerCode).toBe(payment.providerErrorCode);
    expect(charge!.providerMessage).toBe(payment.providerErrorMessage);
  });

  it('a provider failure is outcome error with its code', async () => {
    const token = (await pay(CARDS.providerError)).body.transaction.token as string;
    expect(summary(await attemptsOf(token))).toEqual([{ operation: 'charge', outcome: 'error', errorCode: 'provider_error' }]);
  });

  it('a provider that does not answer: timeout (provider_timeout), then the reconcile job\'s paymentStatus', async () => {
    const res = await pay(CARDS.timeout);
    const token = res.body.transaction.token as string;
    expect(res.body.result.error_code).toBe('provider_timeout');
    expect(summary(await attemptsOf(token))).toEqual([{ operation: 'charge', outcome: 'timeout', errorCode: 'provider_timeout' }]);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 1_000);
    await runJobsDueBy(t);

    const rows = await attemptsOf(token);
    expect(rows.map((a) => a.operation)).toEqual(['charge', 'paymentStatus']);
    // The inquiry names the lost call: the charge's key.
    expect(rows[1]).toMatchObject({ idempotencyKey: `${token}:charge`, paymentId: token });
    expect(['succeeded', 'declined', 'unknown', 'timeout']).toContain(rows[1]!.outcome);
  });

  it('a refund and a cancel: their attempts appear on their payment, with the refund they were about', async () => {
    const refunded = (await pay()).body.transaction.token as string;
    t.clock.advance(1_000);
    expect((await m.call('refund-payment', { transaction: { token: refunded }, amount: '30.00' })).body.result.successful).toBe(true);
    const cancelled = (await pay()).body.transaction.token as string;
    t.clock.advance(1_000);
    expect((await m.call('cancel-payment', { transaction: { token: cancelled } })).body.result.successful).toBe(true);

    const [refund] = await db().refund.findMany({ where: { paymentId: refunded } });
    const [cancel] = await db().refund.findMany({ where: { paymentId: cancelled } });
    expect(summary(await attemptsOf(refunded))).toEqual([
      { operation: 'charge', outcome: 'succeeded', errorCode: null },
      { operation: 'refund', outcome: 'succeeded', errorCode: null },
    ]);
    expect((await attemptsOf(refunded))[1]).toMatchObject({ refundId: refund!.id, idempotencyKey: `refund:${refund!.id}`, paymentAccountId: m.accountToken });
    expect((await attemptsOf(cancelled)).map((a) => [a.operation, a.refundId])).toEqual([
      ['charge', null],
      ['cancel', cancel!.id],
    ]);
  });

  it('a refund the provider rejects is declined with its error_code', async () => {
    const token = (await pay(CARDS.refundRejected)).body.transaction.token as string;
    t.clock.advance(1_000);
    const res = await m.call('refund-payment', { transaction: { token } });
    expect(res.body.result.successful).toBe(false);

    const [, refund] = await attemptsOf(token);
    expect(refund).toMatchObject({ operation: 'refund', outcome: 'declined', errorCode: res.body.result.error_code });
  });

  it('a card saved with a payment: the charge, then storeCard on the same payment', async () => {
    const token = (await pay(CARDS.approved, { should_save: true })).body.transaction.token as string;
    expect(summary(await attemptsOf(token))).toEqual([
      { operation: 'charge', outcome: 'succeeded', errorCode: null },
      { operation: 'storeCard', outcome: 'succeeded', errorCode: null },
    ]);
  });

  it('a card saved and deleted on its own: storeCard and deleteCard on the account, about no payment', async () => {
    const customer = { channel_token: m.channelToken, channel_reference: 'PA-CARDS' };
    const since = t.clock.now();
    const saved = await m.call('save-card', { saved_card: { channel_token: m.channelToken }, customer: { channel_reference: 'PA-CARDS' }, card: { holder_name: 'AYSE YILMAZ', number: CARDS.mastercard, expiry_month: '12', expiry_year: '2030', security_code: '987' } });
    expect(saved.body.result.successful).toBe(true);
    t.clock.advance(1_000);
    expect((await m.call('delete-saved-card', { customer, saved_card: { token: saved.body.saved_card.token } })).body.result.successful).toBe(true);
    await t.gateway.services.attempts.drain();

    const rows = await db().providerAttempt.findMany({ where: { paymentAccountId: m.accountToken, paymentId: null, startedAt: { gte: since } }, orderBy: { startedAt: 'asc' } });
    expect(rows.map((a) => [a.operation, a.outcome, a.workspaceId, a.refundId])).toEqual([
      ['storeCard', 'succeeded', m.workspaceId, null],
      ['deleteCard', 'succeeded', m.workspaceId, null],
    ]);
    expect(rows[0]!.idempotencyKey).toMatch(/^save-card:/);
    expect(rows[1]!.idempotencyKey).toBeNull();
  });

  it('the interrupted-payment sweep records its status inquiry, though it asks under the payment\'s row lock', async () => {
    const amount = 5_000n;
    const payment = await db().payment.create({
      data: { workspaceId: m.workspaceId, channelId: m.channelToken, paymentAccountId: m.accountToken, source: 'api', securityType: 'non_secure', status: 'started', amount, baseAmount: amount, currency: 'TRY', isTest: true, createdAt: t.clock.now() },
    });
    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);

    await recoverInterruptedPayments(t.gateway.services);

    expect(await db().payment.findUniqueOrThrow({ where: { id: payment.id } })).toMatchObject({ status: 'failed', errorCode: 'payment_not_received' });
    expect(summary(await attemptsOf(payment.id))).toEqual([{ operation: 'paymentStatus', outcome: 'unknown', errorCode: null }]);
  });
});

describe('what an attempt holds', () => {
  it('no card number, security code or expiry in any stored attempt; only the listed columns exist', async () => {
    await pay(CARDS.approved, { security_code: '739', should_save: true });
    await pay(CARDS.insufficientFunds, { security_code: '739' });
    await t.gateway.services.attempts.drain();

    const columns = await db().$queryRaw<{ column_name: string }[]>(Prisma.sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'ProviderAttempt' ORDER BY column_name`);
    expect(columns.map((c) => c.column_name)).toEqual(
      ['durationMs', 'errorCode', 'id', 'idempotencyKey', 'operation', 'outcome', 'paymentAccountId', 'paymentId', 'provider', 'providerCode', 'providerMessage', 'refundId', 'startedAt', 'workspaceId'].sort(),
    );
    const rows = await db().$queryRaw<{ row: string }[]>(Prisma.sql`SELECT row_to_json(a)::text AS row FROM "ProviderAttempt" a`);
    expect(rows.length).toBeGreaterThan(3);
    for (const { row } of rows) {
      for (const number of Object.values(CARDS)) expect(row).not.toContain(number);
      const values = Object.values(JSON.parse(row) as Record<string, unknown>);
      expect(values).not.toContain('739');
      expect(values).not.toContain('2030');
    }
  });

  it('a write that fails is logged, and the payment answers as it would have', async () => {
    await asOwner(t.databaseUrl, 'ALTER TABLE "ProviderAttempt" RENAME TO "ProviderAttemptAway"');
    try {
      const res = await pay();
      expect(res.body.result).toEqual({ successful: true, message: null });
      await t.gateway.services.attempts.drain();
      expect(t.logLines.some((l) => l.includes('provider attempt not recorded') && l.includes(res.body.transaction.token))).toBe(true);
      expect((await db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } })).status).toBe('successful');
    } finally {
      await asOwner(t.databaseUrl, 'ALTER TABLE "ProviderAttemptAway" RENAME TO "ProviderAttempt"');
    }
  });
});

describe('idempotency keys name the payment or refund', () => {
  const id = '0b9c7a52-3f1e-4c2a-9d8e-5a6b7c8d9e0f';
  it.each([
    [`${id}:charge`, { paymentId: id, refundId: null }],
    [`${id}:authorise`, { paymentId: id, refundId: null }],
    [`${id}:complete`, { paymentId: id, refundId: null }],
    [`${id}:store`, { paymentId: id, refundId: null }],
    [`${id}:charge:2`, { paymentId: id, refundId: null }],
    [`refund:${id}`, { paymentId: null, refundId: id }],
    [`cancel:${id}:3`, { paymentId: null, refundId: id }],
    [`${id.toUpperCase()}:charge`, { paymentId: id, refundId: null }],
    [`save-card:${id}:CUST-1:1111:1700000000000`, { paymentId: null, refundId: null }],
    [`${id}:charge:x`, { paymentId: null, refundId: null }],
    [`${id}:refund`, { paymentId: null, refundId: null }],
    [null, { paymentId: null, refundId: null }],
  ])('%s', (key, subject) => {
    expect(subjectOfKey(key)).toEqual(subject);
  });
});
