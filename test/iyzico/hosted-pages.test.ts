// The gateway's hosted pages paying through iyzico (the emulator), without a browser: the card
// form of an order page, a link page and a subscription page is posted, the 3D address serves
// iyzico's page, which goes on to the emulator's ACS, whose answer is posted to the gateway's
// callback; the owner's page follows. A subscription's renewal (the renew-subscriptions job, the
// clock moved past the period end) charges the card stored at iyzico, without 3D.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, postCallback } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { orderBody } from '../helpers/orders.ts';
import { eventually } from '../helpers/webhooks.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { recurringProduct, saveProducts, openSubscription } from '../subscriptions/support.ts';
import { answerIyzicoAcs, emulatorState, IYZICO_CARDS, seedIyzicoMerchant, setBehaviour, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t, receiver: shop } = useGateway({ receiver: true, now: '2024-01-31T07:15:00.000Z' });
const iyzico = useIyzicoEmulator();
let m: Merchant;
const merchant = async () => (m ??= await seedIyzicoMerchant(t, iyzico.emulator));
const card = { number: IYZICO_CARDS.approved, security_code: '987' };

/** Follows the card form's redirect to the 3D address (iyzico's page), answers the ACS, posts the callback. */
async function throughIyzico3D(origin: string, location: string, decision: 'approve' | 'decline' = 'approve') {
  const page = await fetch(new URL(location, origin));
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(autoPostForm(html)?.action).toMatch(new RegExp(`^${iyzico.emulator.url}/_emulator/acs/\\d+$`));
  const answer = await answerIyzicoAcs(html, decision);
  expect(answer.callbackUrl).toMatch(new RegExp(`^${t.gateway.baseUrl}/checkout/3ds/callback/`));
  return postCallback(answer.callbackUrl, answer.fields);
}

/** The emulator's payment behind a gateway payment (its provider reference starts with iyzico's paymentId). */
async function atIyzico(paymentId: string) {
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  return (await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === row.providerReference);
}

describe('an order page paid through iyzico', () => {
  it('the card form, iyzico\u2019s 3D page and the ACS: the order is paid, success_url gets transaction_token', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-IYZ-1', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, card);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const back = await throughIyzico3D(checkoutUrl, submit.location!);

    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(order.status).toBe('paid');
    const [payment] = order.payments;
    expect(payment).toMatchObject({ source: 'order', status: 'successful', amount: 10_000n });
    expect(autoPostForm(back.html)).toMatchObject({ action: `${shop.url}/success`, fields: { transaction_token: payment!.id } });
    const held = await atIyzico(payment!.id);
    // The order's items are iyzico's basket.
    expect(held).toMatchObject({ status: 'SUCCESS', threeDS: true, paidPrice: 10_000 });
    expect(held!.items.map((i) => i.price)).toEqual([10_000]);
  });

  it('3 installments on the order page: charged at iyzico’s quoted total, with installment 3', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-IYZ-3', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };
    // iyzico's quote for the card prices it (the emulator: 4.54 % for 3 installments).
    const submit = await submitCard(checkoutUrl, { ...card, installment_number: '3' });
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    await throughIyzico3D(checkoutUrl, submit.location!);

    const [payment] = (await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } })).payments;
    expect(payment).toMatchObject({ status: 'successful', installmentNumber: 3, amount: 10_454n, baseAmount: 10_000n });
    expect(await atIyzico(payment!.id)).toMatchObject({ status: 'SUCCESS', installment: 3, paidPrice: 10_454 });
  });

  it('declined on the ACS: back to the order page with the 3D reason, nothing charged at iyzico', async () => {
    await merchant();
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-IYZ-2', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, card);
    const back = await throughIyzico3D(checkoutUrl, submit.location!, 'decline');

    const [failed] = (await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } })).payments;
    expect(back.status).toBe(303);
    expect(back.location).toBe(`/checkout/order/${token}?attempt=${failed!.id}`);
    expect(failed).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
    expect((await atIyzico(failed!.id))!.status).toBe('CALLBACK_THREEDS');
  });
});

describe('an order of several items paid through iyzico', () => {
  it('its items are iyzico\u2019s basket, and the payment is refunded in two parts across them', async () => {
    await merchant();
    const items = [
      { channel_reference: 'BOOK', name: 'Kitap', quantity: 2, unit_amount: '50.00', tax_rate: 10 },
      { channel_reference: 'PEN', name: 'Kalem', quantity: 1, unit_amount: '25.50', tax_rate: 20 },
    ];
    const res = await m.call('order-payment', orderBody(m, { items, order: { channel_reference: 'ORD-IYZ-4', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };
    const submit = await submitCard(checkoutUrl, card);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    await throughIyzico3D(checkoutUrl, submit.location!);
    const [payment] = (await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } })).payments;
    expect(payment).toMatchObject({ status: 'successful', amount: 12_550n });
    const held = await atIyzico(payment!.id);
    expect(held!.items.map((i) => [i.itemId, i.price])).toEqual([['BOOK', 10_000], ['PEN', 2_550]]);

    t.clock.advance(1000);
    const part = await m.call('refund-payment', { transaction: { token: payment!.id }, amount: '60.00' });
    expect(part.body.result, part.text).toEqual({ successful: true, message: null });
    t.clock.advance(1000);
    const rest = await m.call('refund-payment', { transaction: { token: payment!.id } });
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '65.50' });

    const after = (await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === held!.paymentId)!;
    expect(after.items.reduce((sum, i) => sum + i.refunded, 0)).toBe(12_550);
    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: payment!.id } })).paymentStatus).toBe('refunded');
  });
});

describe('a payment link paid through iyzico', () => {
  it('the link page\u2019s form with the payer, iyzico\u2019s 3D page and the ACS: the link payment is paid', async () => {
    await merchant();
    const res = await m.call('create-payment-link', { payment_link: { currency: 'TRY', items: [{ name: 'Gül buketi', quantity: 2, unit_amount: '450.00', tax_rate: 10 }] } }, {
      form: 'timestamp',
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.payment_link as { token: string; checkout_url: string };

    const submit = await submitCard(checkoutUrl, { ...card, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com.tr' } as Record<string, string>);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const back = await throughIyzico3D(checkoutUrl, submit.location!);
    expect(back.status).toBeLessThan(400);

    const lp = await t.gateway.services.db.linkPayment.findFirstOrThrow({ where: { linkId: token }, include: { payment: true } });
    expect(lp.status).toBe('paid');
    expect(lp.payment).toMatchObject({ status: 'successful', amount: 90_000n });
    const held = await atIyzico(lp.payment!.id);
    expect(held).toMatchObject({ status: 'SUCCESS', threeDS: true, paidPrice: 90_000 });
  });
});

describe('a subscription paid and renewed through iyzico', () => {
  it('the page\u2019s 3D payment stores the card at iyzico; the renewal job charges that stored card at iyzico without 3D', async () => {
    await merchant();
    await saveProducts(m, [recurringProduct(m, 'PLAN-IYZ', { amount: '80.00' })]);
    const { token, checkoutUrl } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-IYZ' }], subscription: { channel_reference: 'SUB-IYZ-1', success_url: `${shop.url}/success` } });

    const submit = await submitCard(checkoutUrl, card);
    expect(submit.status, submit.html.slice(0, 300)).toBe(303);
    const back = await throughIyzico3D(checkoutUrl, submit.location!);
    expect(back.status).toBe(200);

    const first = await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(first.status).toBe('active');
    const [paid] = first.payments;
    expect(paid).toMatchObject({ status: 'successful', securityType: 'secure', amount: 8_000n });
    const stored = await t.gateway.services.db.savedCard.findUniqueOrThrow({ where: { id: paid!.storedCardId! } });
    const cardsAtIyzico = (await emulatorState(iyzico.emulator)).cards.filter((c) => stored.providerCardReference.includes(c.cardToken));
    expect(cardsAtIyzico).toHaveLength(1);

    // The period ends on 29 February; the renew-subscriptions job (every 200 ms) renews by the clock.
    t.clock.advance(30 * 24 * 60 * 60 * 1000);
    const renewal = await eventually(async () => {
      const payments = await t.gateway.services.db.payment.findMany({ where: { subscriptionId: token }, orderBy: { createdAt: 'asc' } });
      return payments.length === 2 && payments[1]!.status !== 'started' ? payments[1] : undefined;
    }, 'the renewal payment');

    expect(renewal).toMatchObject({ status: 'successful', securityType: 'non_secure', amount: 8_000n, paidWithCardId: stored.id });
    const held = await atIyzico(renewal.id);
    expect(held).toMatchObject({ status: 'SUCCESS', threeDS: false, paidPrice: 8_000, conversationId: `${renewal.id}:charge`, card: expect.objectContaining({ lastFourDigits: '0008' }) });
    expect((await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token } })).status).toBe('active');
    // Not renewed again: the next test's renewal is the only charge at its period end.
    expect((await m.call('cancel-subscription', { subscription: { token } })).status).toBe(200);
  });

  it('a renewal iyzico\u2019s bank refuses: the subscription is past_due, iyzico\u2019s code kept on the payment', async () => {
    await merchant();
    await saveProducts(m, [recurringProduct(m, 'PLAN-IYZ-2', { amount: '60.00' })]);
    const { token, checkoutUrl } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-IYZ-2' }], subscription: { channel_reference: 'SUB-IYZ-2', success_url: `${shop.url}/success` } });
    const submit = await submitCard(checkoutUrl, card);
    expect((await throughIyzico3D(checkoutUrl, submit.location!)).status).toBe(200);
    expect((await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token } })).status).toBe('active');

    await setBehaviour(iyzico.emulator, { mode: 'decline', count: 1 });
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    const renewal = await eventually(async () => {
      const payments = await t.gateway.services.db.payment.findMany({ where: { subscriptionId: token }, orderBy: { createdAt: 'asc' } });
      return payments.length === 2 && payments[1]!.status !== 'started' ? payments[1] : undefined;
    }, 'the renewal payment');

    expect(renewal).toMatchObject({ status: 'failed', securityType: 'non_secure', errorCode: 'card_declined', providerErrorCode: '10005' });
    expect((await emulatorState(iyzico.emulator)).payments.filter((p) => p.conversationId === `${renewal.id}:charge`).map((p) => p.status)).toEqual(['FAILURE']);
    await expect.poll(async () => (await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token } })).status).toBe('past_due');
  });
});
