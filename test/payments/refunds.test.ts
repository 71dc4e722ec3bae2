// refund-payment and cancel-payment state rules (contract: States "API payment", Errors): what can be
// refunded or cancelled, the resulting payment_status, the events, and 422 without any write
// when the payment cannot be refunded or cancelled.
import { describe, expect, it } from 'vitest';
import { createPaymentAccount } from '../../src/domain/workspaces.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, type MessageCode } from '../helpers/messages.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventsOf, rowCounts } from '../helpers/rows.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 3000;

/** A successful regular payment of `amount` (or a failed one with a declining card). */
async function pay(opts: { amount?: string; number?: string; account?: string } = {}): Promise<string> {
  const body = paymentBody(m, {
    transaction: { channel_reference: `REF-${reference++}`, amount: opts.amount ?? '100.00', payment_provider_token: opts.account },
    card: { number: opts.number ?? CARDS.approved },
  });
  const res = await m.call('regular-payment', body);
  expect(res.status).toBe(200);
  return res.body.transaction.token;
}

// The gateway's clock stands still; a second between steps keeps the events' order visible.
const tick = () => t.clock.advance(1000);
const refund = (token: string, amount?: string) => (tick(), m.call('refund-payment', amount === undefined ? { transaction: { token } } : { transaction: { token }, amount }));
const cancel = (token: string) => (tick(), m.call('cancel-payment', { transaction: { token } }));
const paymentStatus = async (token: string) => (await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).paymentStatus;

/** Asserts a 422 on `path` with `code`'s message, and that neither the payment nor any table changed. */
async function expectRefused(request: () => ReturnType<typeof refund>, token: string, path: string, code: MessageCode) {
  const db = t.gateway.services.db;
  const before = { rows: await rowCounts(t), payment: await db.payment.findUnique({ where: { id: token } }) };
  const res = await request();
  expectFieldError(res, path, code);
  expect(await rowCounts(t)).toEqual(before.rows);
  expect(await db.payment.findUnique({ where: { id: token } })).toEqual(before.payment);
}

describe('refund-payment', () => {
  it('a partial refund leaves the payment partially_refunded; the remainder makes it refunded', async () => {
    // Given a paid payment of 100.00
    const token = await pay();

    // When 30.00 and then the rest are refunded
    const first = await refund(token, '30.00');
    const afterFirst = await paymentStatus(token);
    const rest = await refund(token);

    // Then each refund answers with its amount, and each produced an event
    expect(first.status).toBe(200);
    expect(first.body.result).toEqual({ successful: true, message: null });
    expect(first.body.refund).toEqual({ type: 'refund', amount: '30.00' });
    expect(Object.keys(first.body)).toEqual(['result', 'transaction', 'customer', 'conversion', 'refund']);
    expect(afterFirst).toBe('partially_refunded');
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect(await paymentStatus(token)).toBe('refunded');
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded', 'transaction.payment_refunded']);
  });

  it('without an amount refunds the whole payment', async () => {
    const token = await pay({ amount: '45.50' });

    const res = await refund(token);

    expect(res.body.refund).toEqual({ type: 'refund', amount: '45.50' });
    expect(await paymentStatus(token)).toBe('refunded');
  });

  it('allows several partial refunds down to the last kuruş', async () => {
    const token = await pay({ amount: '1.00' });

    for (const amount of ['0.01', '0.49', '0.49']) expect((await refund(token, amount)).body.result.successful).toBe(true);
    const last = await refund(token);

    expect(last.body.refund).toEqual({ type: 'refund', amount: '0.01' });
    expect(await paymentStatus(token)).toBe('refunded');
  });

  it('refuses an amount above what is left after an earlier refund', async () => {
    const token = await pay();
    await refund(token, '60.00');

    await expectRefused(() => refund(token, '40.01'), token, 'amount', 'refund_exceeds');
  });

  it('refuses a refunded payment: nothing is left', async () => {
    const token = await pay();
    await refund(token);

    await expectRefused(() => refund(token), token, 'transaction.token', 'no_refundable_amount');
  });

  it('refuses a cancelled payment', async () => {
    const token = await pay();
    expect((await cancel(token)).body.result.successful).toBe(true);

    await expectRefused(() => refund(token, '10.00'), token, 'transaction.token', 'cancelled_not_refundable');
  });

  it('refuses a failed payment', async () => {
    const token = await pay({ number: CARDS.insufficientFunds });

    await expectRefused(() => refund(token), token, 'transaction.token', 'only_successful_refundable');
  });

  it('refuses a 3D payment that has not been completed', async () => {
    const started = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `REF-${reference++}` } }));
    const token = started.body.transaction.token;

    await expectRefused(() => refund(token), token, 'transaction.token', 'only_successful_refundable');
  });

  it('refuses a payment whose account does not support refunds', async () => {
    const account = await createPaymentAccount(t.gateway.services.db, m.team, { name: 'No refunds', capabilities: { refund: false } });
    await t.gateway.admission.synced();
    const token = await pay({ account: account.id });

    await expectRefused(() => refund(token), token, 'transaction.token', 'account_no_refund');
  });

  it('keeps retrieve-payment successful for a refunded payment', async () => {
    const token = await pay();
    await refund(token);

    const res = await m.call('retrieve-payment', { transaction: { token } });

    expect(res.body.result).toEqual({ successful: true, message: null });
  });
});

describe('cancel-payment', () => {
  it('cancels the whole payment and records the event', async () => {
    const token = await pay({ amount: '250.75' });

    const res = await cancel(token);

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.refund).toEqual({ type: 'cancel', amount: '250.75' });
    expect(await paymentStatus(token)).toBe('cancelled');
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_cancelled']);
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
  });

  it('refuses a partially refunded payment', async () => {
    const token = await pay();
    await refund(token, '0.01');

    await expectRefused(() => cancel(token), token, 'transaction.token', 'partially_refunded_not_cancellable');
  });

  it('refuses a fully refunded payment', async () => {
    const token = await pay();
    await refund(token);

    await expectRefused(() => cancel(token), token, 'transaction.token', 'refunded_not_cancellable');
  });

  it('refuses a payment that is already cancelled', async () => {
    const token = await pay();
    await cancel(token);

    await expectRefused(() => cancel(token), token, 'transaction.token', 'already_cancelled');
  });

  it('refuses a failed payment', async () => {
    const token = await pay({ number: CARDS.expired });

    await expectRefused(() => cancel(token), token, 'transaction.token', 'only_successful_cancellable');
  });

  it('refuses a payment whose account does not support cancellation', async () => {
    const account = await createPaymentAccount(t.gateway.services.db, m.team, { name: 'No cancels', capabilities: { cancel: false } });
    await t.gateway.admission.synced();
    const token = await pay({ account: account.id });

    await expectRefused(() => cancel(token), token, 'transaction.token', 'account_no_cancel');
  });

  it('is allowed after a refund the provider rejected (the payment is still whole)', async () => {
    const token = await pay({ number: CARDS.refundRejected });
    expect((await refund(token, '10.00')).body.result.successful).toBe(false);
    // The simulator rejects this card's cancel as well; what matters is that the gateway asked.
    const res = await cancel(token);

    expect(res.status).toBe(200);
    expect(res.body.refund).toEqual({ type: 'cancel', amount: '100.00' });
  });
});
