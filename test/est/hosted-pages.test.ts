// The gateway's hosted pages paying through an EST account, without a browser: the card form of
// an order page and of a link page is posted; its 303 goes to the 3D address (with its sealed
// card query), whose form "bank" posts to the emulator's gate; the ACS is answered and its signed
// callback posted to the gateway; the owner's page follows.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, postCallback } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { orderBody } from '../helpers/orders.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerEstAcs, EST_CARDS, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const est = useEstEmulator();
let m: Merchant;
const merchant = async () => (m ??= await seedEstMerchant(t, est.emulator));
const card = { number: EST_CARDS.approved, security_code: '987' };

/** Follows the card form's 303 to the 3D address (query and all), goes through the bank, posts the callback. */
async function throughEst3D(origin: string, location: string, decision: 'approve' | 'decline' = 'approve') {
  const redirectUrl = new URL(location, origin).href;
  expect(redirectUrl).toMatch(new RegExp(`^${t.gateway.baseUrl}/checkout/3ds/[^?]+\\?card=.+`));
  const answer = await answerEstAcs(redirectUrl, decision);
  expect(answer.bank.action).toBe(est.emulator.gateUrl);
  expect(answer.callbackUrl).toMatch(new RegExp(`^${t.gateway.baseUrl}/checkout/3ds/callback/`));
  return postCallback(answer.callbackUrl, answer.fields);
}

describe('an order page paid through EST', () => {
  it('the card form, the bank\u2019s gate and ACS: the order is paid, success_url gets transaction_token', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-EST-1', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, card);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const back = await throughEst3D(checkoutUrl, submit.location!);

    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(order.status).toBe('paid');
    const [payment] = order.payments;
    expect(payment).toMatchObject({ source: 'order', status: 'successful', securityType: 'secure', amount: 10_000n });
    expect(JSON.stringify(payment!.threeDsRedirect)).not.toContain(EST_CARDS.approved);
    expect(autoPostForm(back.html)).toMatchObject({ action: `${shop.url}/success`, fields: { transaction_token: payment!.id } });
    expect(estOrderOf(est.emulator, payment!.id)).toMatchObject({ mdStatus: '1', transactions: [expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 10_000 })] });
  });

  it('declined on the ACS: back to the order page with the 3D reason, nothing charged at the bank', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-EST-2', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, card);
    const back = await throughEst3D(checkoutUrl, submit.location!, 'decline');

    const [failed] = (await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } })).payments;
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/checkout/order/${token}?attempt=${failed!.id}`);
    expect(failed).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
    expect(estOrderOf(est.emulator, failed!.id)).toBeUndefined();
  });
});

describe('a payment link paid through EST', () => {
  it('the link page\u2019s form with the payer, the bank\u2019s gate and ACS: the link payment is paid', async () => {
    await merchant();
    const res = await m.call('create-payment-link', { payment_link: { currency: 'TRY', items: [{ name: 'Gül buketi', quantity: 2, unit_amount: '450.00', tax_rate: 10 }] } }, {
      form: 'timestamp',
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.payment_link as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, { ...card, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com.tr' } as Record<string, string>);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const back = await throughEst3D(checkoutUrl, submit.location!);
    expect(back.status).toBeLessThan(400);

    const lp = await t.gateway.services.db.linkPayment.findFirstOrThrow({ where: { linkId: token }, include: { payment: true } });
    expect(lp.status).toBe('paid');
    expect(lp.payment).toMatchObject({ status: 'successful', amount: 90_000n });
    expect(estOrderOf(est.emulator, lp.payment!.id)!.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 90_000 })]);
  });
});
