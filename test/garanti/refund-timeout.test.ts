// A refund GVP answers too late (the account's timeout_ms is 1 s, the emulator slow): the merchant
// gets provider_timeout_refund, the refund stays pending with its amount reserved (a further
// refund beyond what is left is a 422), while GVP carried the refund out. The recover-interrupted
// job then asks GVP's order history (orderhistoryinq) and finds it by counting the order's
// refunds against the payment's recorded ones: the refund succeeds, the payment is partially
// refunded. A refund GVP never received (emulator `timeout`) ends failed with its amount released.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';
import { GARANTI_CARDS, garantiCalls, garantiOrderOf, seedGarantiMerchant, setGarantiBehaviour, useGarantiEmulator } from '../helpers/garanti.ts';
import type { Merchant } from '../helpers/gateway.ts';

const { t } = useGateway();
const garanti = useGarantiEmulator();
let m: Merchant;
let reference = 1;

const merchant = async () => (m ??= await seedGarantiMerchant(t, garanti.emulator, { timeoutMs: 1_000 }));
const payment = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const refunds = (paymentId: string) => t.gateway.services.db.refund.findMany({ where: { paymentId }, orderBy: { createdAt: 'asc' } });

/** A paid 100.00 TRY payment; its token. */
async function paid(): Promise<string> {
  await merchant();
  const res = await m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: `GVPRT-${reference++}` } }));
  expect(res.body.result).toEqual({ successful: true, message: null });
  return res.body.transaction.token as string;
}

describe('a refund GVP answers too late', () => {
  it('provider_timeout_refund and pending with its amount reserved; the job finds it in the order history: succeeded, partially refunded', async () => {
    const token = await paid();
    await setGarantiBehaviour(garanti.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    t.clock.advance(1000);

    const res = await m.call('refund-payment', { transaction: { token }, amount: '30.00' });

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    expect(await refunds(token)).toEqual([expect.objectContaining({ type: 'refund', status: 'pending', amount: 3_000n })]);
    t.clock.advance(1000);
    expectFieldError(await m.call('refund-payment', { transaction: { token }, amount: '70.01' }), 'amount', 'refund_exceeds');
    await expect.poll(async () => (await garantiOrderOf(t, garanti.emulator, token))!.txns.map((x) => `${x.type}:${x.code}:${x.amount}`), { timeout: 5_000 }).toEqual(['sales:00:10000', 'refund:00:3000']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);

    const history = garantiCalls(t, 'refundStatus').at(-1)!;
    expect(history.request).toMatchObject({ Transaction: { Type: 'orderhistoryinq' } });
    expect(await refunds(token)).toEqual([expect.objectContaining({ status: 'succeeded', amount: 3_000n })]);
    expect(await payment(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
    // What is left can be refunded, no more.
    expectFieldError(await m.call('refund-payment', { transaction: { token }, amount: '70.01' }), 'amount', 'refund_exceeds');
    expect((await m.call('refund-payment', { transaction: { token }, amount: '70.00' })).body.result).toEqual({ successful: true, message: null });
    expect(await payment(token)).toMatchObject({ paymentStatus: 'refunded', refundedAmount: 10_000n });
  });

  it('a second refund of the same amount GVP never received: the job counts one refund for the one recorded and fails it, the amount released', async () => {
    const token = await paid();
    t.clock.advance(1000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '25.00' })).body.result).toEqual({ successful: true, message: null });
    await setGarantiBehaviour(garanti.emulator, { mode: 'timeout', count: 1 });
    t.clock.advance(1000);

    const res = await m.call('refund-payment', { transaction: { token }, amount: '25.00' });

    expect(res.body.result).toMatchObject({ successful: false, error_code: 'provider_timeout_refund' });
    expect(await payment(token)).toMatchObject({ refundedAmount: 5_000n });
    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);

    expect((await refunds(token)).map((r) => [r.status, r.amount, r.errorCode])).toEqual([
      ['succeeded', 2_500n, null],
      ['failed', 2_500n, 'refund_not_received'],
    ]);
    expect(await payment(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 2_500n });
    expect((await garantiOrderOf(t, garanti.emulator, token))!.refunded).toBe(2_500);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful', 'transaction.payment_refunded']);
  });
});
