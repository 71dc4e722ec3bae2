// The full 3-D Secure round trip through Garanti in a real browser (Debian's Chromium through
// playwright-core), in both of GVP's models: the gateway's redirect address answers the bank form,
// which posts itself to the emulator's 3D gate; the shopper clicks Approve on the emulator's ACS,
// which posts GVP's signed callback to the gateway; the gateway verifies it, (model '3d') makes
// the XML sale, and posts transaction_token to the merchant's callback_url. Every request the
// browser makes stays on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, warnIfNoChromium, walkAcs } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { paymentBody } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { GARANTI_CARDS, garantiCalls, garantiState, seedGarantiMerchant, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';

warnIfNoChromium('test/garanti/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const garanti = useGarantiEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let browser: Browser;
let reference = 9100;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function start(model: '3d' | '3d_pay', number: string = GARANTI_CARDS.approved) {
  const m = (merchants[model] ??= await seedGarantiMerchant(t, garanti.emulator, { model }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number }, transaction: { channel_reference: `GVPB-${reference++}`, callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const stringify = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

const walk = (redirectUrl: string, button: '#approve' | '#decline', screenshot?: string) => walkAcs(browser, redirectUrl, `${shop.url}/payment-return`, button, { screenshot });

describe.skipIf(!haveChromium)('3-D Secure through Garanti in Chromium', { timeout: 120_000 }, () => {
  it.each(['3d', '3d_pay'] as const)('model %s: redirect_url -> bank form -> gate -> ACS Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async (model) => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const before = shop.requests.length;
    const urls = await walk(redirectUrl, '#approve', `garanti-acs-${model}.png`);

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/payment-return' });
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    const callback = `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`;
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, garanti.emulator.gateUrl, callback, `${shop.url}/payment-return`]));
    expect(urls.some((u) => u.startsWith(`${garanti.emulator.url}/_emulator/acs/`))).toBe(true);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    const order = (await garantiState(garanti.emulator)).orders.find((o) => o.orderId === orderId);
    expect(order!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 10_000 })]);
    expect(garantiCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(model === '3d' ? 1 : 0);
    const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    expect(stringify(row.threeDsRedirect)).not.toContain(GARANTI_CARDS.approved);
    expect(stringify(row)).not.toContain(GARANTI_CARDS.approved);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d');
    await walk(redirectUrl, '#decline');
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect((await garantiState(garanti.emulator)).orders.find((o) => o.orderId === orderId)).toBeUndefined();
  });
});

describe.skipIf(!haveChromium)('an order page paid through Garanti in Chromium', { timeout: 120_000 }, () => {
  it('the card form -> 303 (card sealed in the address) -> bank form -> gate -> ACS Approve -> success_url', async () => {
    const m = (merchants['3d'] ??= await seedGarantiMerchant(t, garanti.emulator, { model: '3d' }));
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-GVPB-1', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };
    const w = await openWatchedPage(browser, { width: 390, height: 844 }, true);
    try {
      await w.page.goto(checkoutUrl);
      await w.page.fill('#holder_name', 'AYSE YILMAZ');
      await w.page.locator('#number').pressSequentially(GARANTI_CARDS.approved, { delay: 5 });
      await w.page.selectOption('#expiry_month', '12');
      await w.page.selectOption('#expiry_year', '2030');
      await w.page.fill('#security_code', '123');
      await Promise.all([w.page.waitForSelector('#approve'), w.page.click('#pay-button')]);
      await Promise.all([w.page.waitForURL(`${shop.url}/success`), w.page.click('#approve')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(order.status).toBe('paid');
    const [payment] = order.payments;
    expect(payment).toMatchObject({ status: 'successful', amount: 10_000n });
    const held = (await garantiState(garanti.emulator)).orders.find((o) => o.orderId === orderOf(payment!.id));
    expect(held!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 10_000 })]);
    expect(stringify(payment)).not.toContain(GARANTI_CARDS.approved);
  });
});
