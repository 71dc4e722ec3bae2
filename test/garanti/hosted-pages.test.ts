// The gateway's hosted pages on a workspace that pays through Garanti only, without a browser.
// An order page: the card form answers 303 to the 3D address whose query carries the card sealed
// (never stored); that address answers the bank form, posted to the emulator's gate, answered on
// its ACS, whose callback completes the payment; the owner's success_url follows. A link page the
// same way. Subscriptions: GVP keeps no cards for the gateway (the connector has no card_storage),
// so on a Garanti-only workspace (no other account to store the card: see subscriptions.test.ts
// for one that has) a subscription, whose renewals charge a stored card, is refused up front with
// a 422 naming the missing capability, and so is saving a card on a payment; nothing is written.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { orderBody } from '../helpers/orders.ts';
import { expectFieldError, msg } from '../helpers/messages.ts';
import { rowCounts } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { recurringProduct, saveProducts, subscriptionBody } from '../subscriptions/support.ts';
import { answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiCalls, garantiState, seedGarantiMerchant, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const garanti = useGarantiEmulator();
let m: Merchant;
const merchant = async () => (m ??= await seedGarantiMerchant(t, garanti.emulator));
const card = { number: GARANTI_CARDS.approved, security_code: '987' };

/** Follows the card form's 303 (with its query: the sealed card) to the bank form, answers the ACS, posts the callback. */
async function throughGaranti3D(origin: string, location: string, decision: 'approve' | 'decline' = 'approve') {
  const redirectUrl = new URL(location, origin).href;
  expect(new URL(redirectUrl).searchParams.get('card')).toBeTruthy();
  const form = await bankFormOf(redirectUrl);
  expect(form.action).toBe(garanti.emulator.gateUrl);
  const answer = await answerGarantiAcs(form, decision);
  expect(answer.callbackUrl).toMatch(new RegExp(`^${t.gateway.baseUrl}/checkout/3ds/callback/`));
  return postCallback(answer.callbackUrl, answer.fields);
}

const atGaranti = async (paymentId: string) => (await garantiState(garanti.emulator)).orders.find((o) => o.orderId === orderOf(paymentId));

describe('an order page paid through Garanti', () => {
  it('card form -> 303 -> bank form -> gate -> ACS -> callback: the order is paid, success_url gets transaction_token', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-GVP-1', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, card);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    expect(submit.location).not.toContain(GARANTI_CARDS.approved);
    const back = await throughGaranti3D(checkoutUrl, submit.location!);

    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(order.status).toBe('paid');
    const [payment] = order.payments;
    expect(payment).toMatchObject({ source: 'order', status: 'successful', securityType: 'secure', amount: 10_000n });
    expect(autoPostForm(back.html)).toMatchObject({ action: `${shop.url}/success`, fields: { transaction_token: payment!.id } });
    expect((await atGaranti(payment!.id))!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 10_000 })]);
    expect(JSON.stringify(payment, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).not.toContain(GARANTI_CARDS.approved);
  });

  it('declined on the ACS: back to the order page with the attempt, nothing charged at GVP', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-GVP-2', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, card);
    const back = await throughGaranti3D(checkoutUrl, submit.location!, 'decline');

    const [failed] = (await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } })).payments;
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/checkout/order/${token}?attempt=${failed!.id}`);
    expect(failed).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'mdStatus:0' });
    expect(await atGaranti(failed!.id)).toBeUndefined();
    expect(garantiCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderOf(failed!.id)))).toEqual([]);
  });
});

describe('a payment link paid through Garanti', () => {
  it('the link page\u2019s form with the payer, the bank\u2019s gate and ACS: the link payment is paid', async () => {
    await merchant();
    const res = await m.call('create-payment-link', { payment_link: { currency: 'TRY', items: [{ name: 'Lale', quantity: 3, unit_amount: '120.00', tax_rate: 10 }] } }, {
      form: 'timestamp',
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.payment_link as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, { ...card, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com.tr' } as Record<string, string>);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const back = await throughGaranti3D(checkoutUrl, submit.location!);
    expect(back.status).toBeLessThan(400);

    const lp = await t.gateway.services.db.linkPayment.findFirstOrThrow({ where: { linkId: token }, include: { payment: true } });
    expect(lp.status).toBe('paid');
    expect(lp.payment).toMatchObject({ status: 'successful', amount: 36_000n });
    expect((await atGaranti(lp.payment!.id))!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 36_000 })]);
  });
});

describe('subscriptions on a Garanti-only workspace', () => {
  it('subscription-payment is refused with 422 account_no_card_storage; nothing written', async () => {
    await merchant();
    await saveProducts(m, [recurringProduct(m, 'PLAN-GVP', { amount: '80.00' })]);
    const before = await rowCounts(t);

    const res = await m.call('subscription-payment', subscriptionBody(m, { items: [{ channel_reference: 'PLAN-GVP' }], subscription: { channel_reference: 'SUB-GVP-1' } }));

    expect(res.status, res.text).toBe(422);
    expect(res.body.result).toEqual({ successful: false, message: msg('account_no_card_storage') });
    expect(JSON.stringify(res.body.errors)).toContain(msg('account_no_card_storage'));
    expect(await rowCounts(t)).toEqual(before);
    const english = await m.call('subscription-payment', subscriptionBody(m, { items: [{ channel_reference: 'PLAN-GVP' }], subscription: { channel_reference: 'SUB-GVP-1' } }), { headers: { 'Accept-Language': 'en' } });
    expect(english.body.result).toEqual({ successful: false, message: 'The payment account does not support card storage.' });
  });

  it('naming the Garanti account explicitly: the same 422 at payment_provider_token', async () => {
    await merchant();
    await saveProducts(m, [recurringProduct(m, 'PLAN-GVP-2')]);
    const before = await rowCounts(t);
    const res = await m.call('subscription-payment', subscriptionBody(m, { items: [{ channel_reference: 'PLAN-GVP-2' }], subscription: { channel_reference: 'SUB-GVP-2', payment_provider_token: m.accountToken } }));
    expectFieldError(res, 'subscription.payment_provider_token', 'account_no_card_storage');
    expect(await rowCounts(t)).toEqual(before);
  });

  it('a payment asking to save the card: 422 account_no_card_storage, nothing written, nothing sent to GVP', async () => {
    await merchant();
    const before = { rows: await rowCounts(t), calls: garantiCalls(t).length };
    const res = await m.call('regular-payment', paymentBody(m, { card: { ...card, should_save: true }, transaction: { channel_reference: 'GVP-SAVE-1' } }));
    expect(res.status, res.text).toBe(422);
    expect(res.body.result).toEqual({ successful: false, message: msg('account_no_card_storage') });
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(garantiCalls(t)).toHaveLength(before.calls);
  });
});
