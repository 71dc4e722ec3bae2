// InterPOS answering too late (the account's timeout_ms is 1 s, the emulator `slow`): the gateway
// records provider_timeout (a sale) or provider_timeout_refund (a refund) and later asks InterPOS's
// StatusHistory inquiry by the order id: the reconcile job finds the late sale and settles the
// payment successful; the recover job finds the late refund by the total refunded and settles it.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { INTERRUPTED_AFTER_MS } from '../../src/domain/payments/interrupted.ts';
import { recoverPendingRefunds } from '../../src/domain/payments/interrupted-refunds.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { INTERPOS_CARDS } from './fixtures.ts';
import { interPosCalls, seedInterPosMerchant, useInterPosEmulator } from './gateway-support.ts';

const { t } = useGateway();
const interpos = useInterPosEmulator();
let m: Merchant;
let reference = 1;

const merchant = async () => (m ??= await seedInterPosMerchant(t, interpos.emulator, '3d', { timeout_ms: 1_000 }));
const pay = () => m.call('regular-payment', paymentBody(m, { card: { number: INTERPOS_CARDS.approved, security_code: '592' }, transaction: { channel_reference: `IPOSL-${reference++}` } }));
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const txnsAt = (token: string) => interpos.emulator.state.orders.get(orderOf(token))?.txns.map((x) => `${x.type}:${x.code}:${x.amount}`);

describe('InterPOS answering too late', () => {
  it('a sale: provider_timeout, unresolved; the reconcile job asks StatusHistory and settles it successful', async () => {
    await merchant();
    interpos.emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 2_500 });
    const res = await pay();
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout'), error_code: 'provider_timeout' });
    const token = res.body.transaction.token as string;
    expect(await row(token)).toMatchObject({ status: 'unresolved' });
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Auth:00:10000']);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    const asked = interPosCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderOf(token)));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.request).toMatchObject({ TxnType: 'StatusHistory', orgOrderId: orderOf(token), UserPass: '[redacted]' });
    expect(await row(token)).toMatchObject({ status: 'successful', paymentStatus: 'paid' });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('a refund: provider_timeout_refund, pending; the recover job finds it in the total refunded: succeeded, partially refunded', async () => {
    await merchant();
    const paid = await pay();
    const token = paid.body.transaction.token as string;
    expect(paid.body.result).toEqual({ successful: true, message: null });
    interpos.emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 2_500 });
    t.clock.advance(1000);
    const res = await m.call('refund-payment', { transaction: { token }, amount: '30.00' });
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    await expect.poll(() => txnsAt(token), { timeout: 5_000 }).toEqual(['Auth:00:10000', 'Refund:00:3000']);

    t.clock.advance(INTERRUPTED_AFTER_MS + 1_000);
    await recoverPendingRefunds(t.gateway.services);
    expect(interPosCalls(t, 'refundStatus').at(-1)!.request).toMatchObject({ TxnType: 'StatusHistory' });
    expect(await t.gateway.services.db.refund.findMany({ where: { paymentId: token } })).toEqual([expect.objectContaining({ status: 'succeeded', amount: 3_000n })]);
    expect(await row(token)).toMatchObject({ paymentStatus: 'partially_refunded', refundedAmount: 3_000n });
  });
});
