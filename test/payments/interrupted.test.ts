// Payments a crash left `started`: the gateway (or its database) stopped after writing the
// payment row and before recording the bank's answer. Each test writes the row as the attempt
// does (attempt.ts) and, when the bank got the call, makes that call on the gateway's own
// simulator with the attempt's idempotency key, so the bank's books hold what it answered and
// nobody recorded it. The recover-interrupted sweep then settles it on the bank's status inquiry.
import { describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import { INTERRUPTED_AFTER_MS, KEEP_ASKING_MS, recoverInterruptedPayments } from '../../src/domain/payments/interrupted.ts';
import { RECOVER_INTERRUPTED_JOB } from '../../src/jobs/recover-interrupted.ts';
import type { Payment } from '../../src/generated/prisma/client.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from '../subscriptions/support.ts';

const MINUTE = 60 * 1000;
const SILENT_CARD = '4000000000000127';
const NOT_RECEIVED = 'Ödeme yarıda kaldı ve banka ödemeyi hiç almadı; karttan tahsilat yapılmadı.';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 1;

const db = () => t.gateway.services.db;
const row = (id: string) => db().payment.findUniqueOrThrow({ where: { id } });
const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const card = (number: string) => ({ holderName: 'AYSE YILMAZ', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

interface Interrupted {
  card: string;
  /** Whether the bank got the call (and answered an answer nobody recorded). */
  bankGotIt: boolean;
  security?: 'secure' | 'non_secure';
  amount?: bigint;
  merchant?: Merchant;
}

/** The row an attempt writes before its bank call, left as the crash left it. */
async function interruptedPayment(opts: Interrupted): Promise<string> {
  const amount = opts.amount ?? 12_345n;
  const owner = opts.merchant ?? m;
  const payment = await db().payment.create({
    data: {
      workspaceId: owner.workspaceId,
      channelId: owner.channelToken,
      paymentAccountId: owner.accountToken,
      source: 'api',
      securityType: opts.security ?? 'non_secure',
      status: 'started',
      channelReference: `INT-${reference++}`,
      amount,
      baseAmount: amount,
      currency: 'TRY',
      isTest: true,
      cardHolderName: 'AYSE YILMAZ',
      cardFirstDigits: opts.card.slice(0, 8),
      cardLastFourDigits: opts.card.slice(-4),
      createdAt: t.clock.now(),
    },
  });
  if (opts.bankGotIt) {
    const simulator = t.gateway.services.providers.definition('simulator').connect({ id: 'test', credentials: {}, settings: {} });
    const call = { idempotencyKey: `${payment.id}:charge`, amount, currency: 'TRY' as const, installmentNumber: 1, card: card(opts.card) };
    await simulator.charge(call).catch(() => undefined);
  }
  return payment.id;
}

async function sweepLater(ms = INTERRUPTED_AFTER_MS + 1000): Promise<void> {
  t.clock.advance(ms);
  await recoverInterruptedPayments(t.gateway.services);
}

describe('a payment interrupted after the bank was called', () => {
  it('is found by the recover-interrupted job and settled successful when the bank approved it, with transaction.successful', async () => {
    const id = await interruptedPayment({ card: CARDS.approved, bankGotIt: true, amount: 10_050n });

    t.clock.advance(INTERRUPTED_AFTER_MS + 1000);
    await runJobsDueBy(t);

    const p = await row(id);
    expect(p).toMatchObject({ status: 'successful', paymentStatus: 'paid', amount: 10_050n, errorCode: null });
    expect(p.providerReference).toMatch(/^sim_pay_approved_/);
    expect(await eventsOf(t, id)).toEqual(['transaction.successful']);
    expect(await retrieve(id)).toEqual({ successful: true, message: null });
    // The settled payment refunds like any other: the money is really there.
    const refund = await m.call('refund-payment', { transaction: { token: id }, amount: '100.50' });
    expect(refund.body.result.successful).toBe(true);
  });

  it('is settled failed with the bank\'s code when the bank declined it, with transaction.failed', async () => {
    const id = await interruptedPayment({ card: CARDS.insufficientFunds, bankGotIt: true });

    await sweepLater();

    expect(await row(id)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', paymentStatus: null });
    expect(await eventsOf(t, id)).toEqual(['transaction.failed']);
  });

  it('fails with payment_not_received when the bank never got the call', async () => {
    const id = await interruptedPayment({ card: CARDS.approved, bankGotIt: false });

    await sweepLater();

    expect(await row(id)).toMatchObject({ status: 'failed', errorCode: 'payment_not_received', providerReference: null });
    expect(await retrieve(id)).toEqual({ successful: false, message: NOT_RECEIVED, error_code: 'payment_not_received' });
    expect(await eventsOf(t, id)).toEqual(['transaction.failed']);
  });

  it('of a 3D payment stopped before its page was written fails the same way: no page, nothing charged', async () => {
    const id = await interruptedPayment({ card: CARDS.approved, bankGotIt: false, security: 'secure' });

    await sweepLater();

    expect(await row(id)).toMatchObject({ status: 'failed', errorCode: 'payment_not_received' });
    expect(await eventsOf(t, id)).toEqual(['transaction.failed']);
  });

  it('is settled once: a second sweep finds nothing left to do', async () => {
    const id = await interruptedPayment({ card: CARDS.approved, bankGotIt: true });
    await sweepLater();
    const settled = await row(id);

    t.clock.advance(MINUTE);
    await recoverInterruptedPayments(t.gateway.services);

    expect(await row(id)).toEqual(settled);
    expect(await eventsOf(t, id)).toEqual(['transaction.successful']);
  });
});

describe('a subscription renewal interrupted after the bank was called', () => {
  /** An active subscription, then its renewal as the renewal job leaves it when stopped mid-charge. */
  async function interruptedRenewal(bankGotIt: boolean, card: string = CARDS.approved): Promise<{ subscriptionId: string; paymentId: string; periodId: string }> {
    const owner = await seedWorkspace(t);
    await saveProducts(owner, [recurringProduct(owner, 'PLAN-BASIC')]);
    const { token } = await openSubscription(owner);
    await payPeriod(t, token, { card });
    const sub = await db().subscription.findUniqueOrThrow({ where: { id: token }, include: { periods: true } });
    expect(sub.status).toBe('active');
    const first = sub.periods[0]!;
    const saved = await db().savedCard.findFirstOrThrow({ where: { customerId: sub.customerId, isDefault: true } });
    const { payment, period } = await db().$transaction(async (tx) => {
      const period = await tx.subscriptionPeriod.create({ data: { subscriptionId: token, number: 2, amount: first.amount, status: 'unpaid', startsAt: first.endsAt, endsAt: new Date(first.endsAt!.getTime() + 30 * 24 * 60 * MINUTE) } });
      const payment = await tx.payment.create({
        data: {
          workspaceId: owner.workspaceId, channelId: owner.channelToken, paymentAccountId: saved.paymentAccountId, customerId: sub.customerId,
          source: 'subscription', securityType: 'non_secure', status: 'started', amount: first.amount, baseAmount: first.amount, currency: 'TRY',
          isTest: true, paidWithCardId: saved.id, subscriptionId: token, periodId: period.id, createdAt: t.clock.now(),
        },
      });
      return { payment, period };
    });
    if (bankGotIt) {
      const simulator = t.gateway.services.providers.definition('simulator').connect({ id: 'test', credentials: {}, settings: {} });
      await simulator.charge({ idempotencyKey: `${payment.id}:charge`, amount: first.amount, currency: 'TRY', installmentNumber: 1, savedCard: { cardReference: saved.providerCardReference } });
    }
    return { subscriptionId: token, paymentId: payment.id, periodId: period.id };
  }

  it('pays the period and keeps the subscription active with subscription.active when the bank approved it', async () => {
    const { subscriptionId, paymentId, periodId } = await interruptedRenewal(true);
    const before = await eventsOf(t, subscriptionId);

    await sweepLater();

    expect((await row(paymentId)).status).toBe('successful');
    expect((await db().subscriptionPeriod.findUniqueOrThrow({ where: { id: periodId } })).status).toBe('paid');
    expect((await db().subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).status).toBe('active');
    expect(await eventsOf(t, subscriptionId)).toEqual([...before, 'subscription.active']);
    expect(await eventsOf(t, paymentId)).toEqual([]);
  });

  it('makes the subscription past_due with subscription.past_due when the bank never got it', async () => {
    const { subscriptionId, paymentId, periodId } = await interruptedRenewal(false);
    const before = await eventsOf(t, subscriptionId);

    await sweepLater();

    expect(await row(paymentId)).toMatchObject({ status: 'failed', errorCode: 'payment_not_received' });
    expect((await db().subscriptionPeriod.findUniqueOrThrow({ where: { id: periodId } })).status).toBe('failed');
    expect((await db().subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).status).toBe('past_due');
    expect(await eventsOf(t, subscriptionId)).toEqual([...before, 'subscription.past_due']);
  });
});

describe('what the sweep leaves alone', () => {
  it('a payment younger than the threshold, whose request may still be waiting for the bank', async () => {
    const id = await interruptedPayment({ card: CARDS.approved, bankGotIt: true });

    await sweepLater(INTERRUPTED_AFTER_MS - 1000);

    expect((await row(id)).status).toBe('started');
    expect(await eventsOf(t, id)).toEqual([]);
    // and takes it once it is old enough
    await sweepLater(2000);
    expect((await row(id)).status).toBe('successful');
  });

  it('a 3D payment waiting on its page, until its own timer expires it', async () => {
    const started = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `INT-${reference++}` } }));
    const id: string = started.body.transaction.token;
    const before: Payment = await row(id);
    expect(before.expiresAt).not.toBeNull();

    // Older than the threshold but not expired (15 minutes): the shopper may still be on the page
    await sweepLater(10 * MINUTE);
    expect(await row(id)).toEqual(before);
    expect(await eventsOf(t, id)).toEqual([]);

    // Its timer, not the sweep, ends it
    t.clock.advance(6 * MINUTE);
    await runJobsDueBy(t);
    expect((await row(id)).status).toBe('expired');
    expect(await eventsOf(t, id)).toEqual(['transaction.expired']);
  });
});

describe('a bank that does not answer the status inquiry', () => {
  it('leaves the payment started for the next sweeps, then makes it unresolved for reconciliation', async () => {
    const id = await interruptedPayment({ card: SILENT_CARD, bankGotIt: true });

    await sweepLater();
    expect((await row(id)).status).toBe('started');
    await sweepLater(10 * MINUTE);
    expect((await row(id)).status).toBe('started');
    expect(await eventsOf(t, id)).toEqual([]);

    await sweepLater(KEEP_ASKING_MS);
    expect(await row(id)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    expect(await eventsOf(t, id)).toEqual([]);

    // Reconciliation's tries (up to 6 hours) find no answer either, and fail it once
    t.clock.advance(7 * 60 * MINUTE);
    await runJobsDueBy(t);
    expect(await row(id)).toMatchObject({ status: 'failed', errorCode: 'payment_unconfirmed' });
    expect(await eventsOf(t, id)).toEqual(['transaction.failed']);
  });
});

describe('a payment the sweep cannot ask about', () => {
  it('does not stop the others: they are settled and the run fails naming it', async () => {
    // An account whose provider this gateway no longer has
    const retired = await seedWorkspace(t);
    await db().paymentAccount.update({ where: { id: retired.accountToken }, data: { provider: 'retired-bank' } });
    const stuck = await interruptedPayment({ card: CARDS.approved, bankGotIt: false, merchant: retired });
    const other = await interruptedPayment({ card: CARDS.approved, bankGotIt: true });
    t.clock.advance(INTERRUPTED_AFTER_MS + 1000);

    await expect(recoverInterruptedPayments(t.gateway.services)).rejects.toThrow(/1 interrupted payment\(s\) could not be recovered, first: Payment provider "retired-bank" is not in the catalog/);

    expect((await row(other)).status).toBe('successful');
    expect((await row(stuck)).status).toBe('started');
    await db().payment.update({ where: { id: stuck }, data: { status: 'failed' } });
  });
});

describe('two gateways sweeping at once', () => {
  it('settle each interrupted payment exactly once', async () => {
    const other = await startTestGateway({ databaseUrl: t.databaseUrl, clock: t.clock });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push(await interruptedPayment({ card: CARDS.approved, bankGotIt: false }));
      t.clock.advance(INTERRUPTED_AFTER_MS + 1000);

      const counts = await Promise.all([
        recoverInterruptedPayments(t.gateway.services),
        recoverInterruptedPayments(other.gateway.services),
        recoverInterruptedPayments(t.gateway.services),
        recoverInterruptedPayments(other.gateway.services),
      ]);

      for (const id of ids) {
        expect((await row(id)).status).toBe('failed');
        expect(await eventsOf(t, id)).toEqual(['transaction.failed']);
      }
      // Each settled by one sweep (the recurring job may have taken some before)
      expect(counts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(ids.length);
    } finally {
      await other.stop();
    }
  });
});

it('the recover-interrupted job is scheduled once, as a recurring job', async () => {
  const rows = await db().$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM agenda.agenda_jobs WHERE name = '${RECOVER_INTERRUPTED_JOB}'`);
  expect(Number(rows[0]!.n)).toBe(1);
});
