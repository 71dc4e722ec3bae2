// A refund GVP answers too late (the account's timeout_ms is 1 s, the emulator slow): the merchant
// gets provider_timeout_refund, the refund stays pending with its amount reserved (a further
// refund beyond what is left is a 422), while GVP carried the refund out. GVP's order inquiry
// cannot say what became of one refund (the connector's refundStatus keeps the outcome unknown),
// so the recover-interrupted job keeps asking until its deadline.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { GARANTI_CARDS, garantiOrderOf, seedGarantiMerchant, setGarantiBehaviour, useGarantiEmulator } from '../helpers/garanti.ts';

const { t } = useGateway();
const garanti = useGarantiEmulator();

describe('a refund GVP answers too late', () => {
  it('provider_timeout_refund; the refund stays pending with its amount reserved; GVP refunded it', async () => {
    const m = await seedGarantiMerchant(t, garanti.emulator, { timeoutMs: 1_000 });
    const paid = await m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: 'GVPRT-1' } }));
    expect(paid.body.result).toEqual({ successful: true, message: null });
    const token = paid.body.transaction.token as string;
    await setGarantiBehaviour(garanti.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    t.clock.advance(1000);

    const res = await m.call('refund-payment', { transaction: { token }, amount: '30.00' });

    expect(res.status, res.text).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: msg('provider_timeout_refund'), error_code: 'provider_timeout_refund' });
    expect(await t.gateway.services.db.refund.findMany({ where: { paymentId: token } })).toEqual([expect.objectContaining({ type: 'refund', status: 'pending', amount: 3_000n })]);
    t.clock.advance(1000);
    expectFieldError(await m.call('refund-payment', { transaction: { token }, amount: '70.01' }), 'amount', 'refund_exceeds');
    await expect.poll(async () => (await garantiOrderOf(t, garanti.emulator, token))!.txns.map((x) => `${x.type}:${x.code}:${x.amount}`), { timeout: 5_000 }).toEqual(['sales:00:10000', 'refund:00:3000']);
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });
});
