// A subscription charged through Garanti (GVP stores no cards for the gateway): the page's 3D
// payment is charged at GVP, the card stored at the workspace's card storage account (the
// simulator account), whose renewals then charge it without 3D; GVP sees only the first period.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { postCallback } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { eventually } from '../helpers/webhooks.ts';
import { seedWorkspace } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { recurringProduct, saveProducts, openSubscription } from '../subscriptions/support.ts';
import { addGarantiAccount, answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiState, useGarantiEmulator } from '../helpers/garanti.ts';

const { t, receiver: shop } = useGateway({ receiver: true, now: '2024-01-31T07:15:00.000Z' });
const garanti = useGarantiEmulator();

describe('a subscription charged through Garanti, its card stored at the card storage account', () => {
  it('first period at GVP with 3D; the renewal charges the card at the simulator account', async () => {
    const m = await seedWorkspace(t);
    const vault = m.accountToken;
    const bank = await addGarantiAccount(t, m.workspaceId, garanti.emulator);
    await saveProducts(m, [recurringProduct(m, 'PLAN-GVP-V', { amount: '45.50' })]);
    const { token, checkoutUrl } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-GVP-V' }], subscription: { channel_reference: 'SUB-GVP-5', success_url: `${shop.url}/success` } });

    const submit = await submitCard(checkoutUrl, { number: GARANTI_CARDS.approved, security_code: '987' });
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const form = await bankFormOf(new URL(submit.location!, checkoutUrl).href);
    expect(form.action).toBe(garanti.emulator.gateUrl);
    const answer = await answerGarantiAcs(form, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    const [paid] = (await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token }, include: { payments: true } })).payments;
    expect(paid).toMatchObject({ status: 'successful', securityType: 'secure', amount: 4_550n, paymentAccountId: bank });
    const stored = await t.gateway.services.db.savedCard.findUniqueOrThrow({ where: { id: paid!.storedCardId! } });
    expect(stored).toMatchObject({ paymentAccountId: vault, isDefault: true });

    t.clock.advance(30 * 24 * 60 * 60 * 1000);
    const renewal = await eventually(async () => {
      const payments = await t.gateway.services.db.payment.findMany({ where: { subscriptionId: token }, orderBy: { createdAt: 'asc' } });
      return payments.length === 2 && payments[1]!.status !== 'started' ? payments[1] : undefined;
    }, 'the renewal payment');
    expect(renewal).toMatchObject({ status: 'successful', securityType: 'non_secure', amount: 4_550n, paidWithCardId: stored.id, paymentAccountId: vault });
    const orders = (await garantiState(garanti.emulator)).orders;
    expect(orders.find((o) => o.orderId === orderOf(paid!.id))?.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 4_550 })]);
    expect(orders.find((o) => o.orderId === orderOf(renewal.id))).toBeUndefined();
    expect((await m.call('cancel-subscription', { subscription: { token } })).status).toBe(200);
  });
});
