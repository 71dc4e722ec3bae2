// The full 3-D Secure round trip through InterPOS in a real browser (Debian's Chromium through
// playwright-core), in each of InterPOS's 3D models: the gateway's redirect address answers the
// bank form, which posts itself to the emulator's gate (3D, 3D Pay) or its 3D Host page, where the
// shopper types the card; the shopper clicks Approve on the emulator's ACS, which posts InterPOS's
// signed callback to the gateway; the gateway verifies it ('3d': then makes the API sale) and posts
// transaction_token to the merchant's callback_url. Every request stays on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';
import { INTERPOS_CARDS } from './fixtures.ts';
import { seedInterPosMerchant, useInterPosEmulator } from './gateway-support.ts';

warnIfNoChromium('test/interpos/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const interpos = useInterPosEmulator();
const merchants: Partial<Record<InterPosModel, Merchant>> = {};
let browser: Browser;
let reference = 9300;

beforeAll(async () => {
  if (haveChromium) browser = await launchChromium();
});
afterAll(() => browser?.close());

describe.skipIf(!haveChromium)('3-D Secure through InterPOS in Chromium', { timeout: 120_000 }, () => {
  it.each(['3d', '3d_pay', '3d_host'] as const)('model %s: redirect_url -> InterPOS -> ACS Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async (model) => {
    const m = (merchants[model] ??= await seedInterPosMerchant(t, interpos.emulator, model));
    const res = await m.call('secure-payment', paymentBody(m, { card: { number: INTERPOS_CARDS.approved, security_code: '592' }, transaction: { channel_reference: `IPOSB-${reference++}`, callback_url: `${shop.url}/payment-return` } }));
    expect(res.status, res.text).toBe(200);
    const token = res.body.transaction.token as string;
    const before = shop.requests.length;
    const urls: string[] = [];
    const w = await openWatchedPage(browser, { width: 390, height: 844 }, true);
    w.page.on('request', (r) => urls.push(r.url()));
    try {
      await w.page.goto(res.body.result.redirect_url as string);
      if (model === '3d_host') {
        await w.page.waitForSelector('#pay');
        await w.page.fill('input[name="Pan"]', INTERPOS_CARDS.approved);
        await w.page.fill('input[name="Expiry"]', '1230');
        await w.page.fill('input[name="Cvv2"]', '592');
        await shot(w.page, 'interpos-3d-host-card.png');
        await w.page.click('#pay');
      }
      await w.page.waitForSelector('#approve');
      await shot(w.page, `interpos-acs-${model}.png`);
      await Promise.all([w.page.waitForURL(`${shop.url}/payment-return`), w.page.click('#approve')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    expect(urls).toEqual(expect.arrayContaining([model === '3d_host' ? interpos.emulator.hostUrl : interpos.emulator.gateUrl, `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`]));
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(interpos.emulator.state.orders.get(orderOf(token))?.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 10_000 })]);
  });
});

describe.skipIf(!haveChromium)('an order page paid through InterPOS in Chromium', { timeout: 120_000 }, () => {
  it('the card form -> bank form -> InterPOS gate -> ACS Approve -> success_url; the card never stored', async () => {
    const m = (merchants['3d'] ??= await seedInterPosMerchant(t, interpos.emulator, '3d'));
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-IPOS-1', success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
    expect(res.status, res.text).toBe(200);
    const { token, checkout_url: checkoutUrl } = res.body.order as { token: string; checkout_url: string };
    const w = await openWatchedPage(browser, { width: 390, height: 844 }, true);
    try {
      await w.page.goto(checkoutUrl);
      await w.page.fill('#holder_name', 'AYSE YILMAZ');
      await w.page.locator('#number').pressSequentially(INTERPOS_CARDS.approved, { delay: 5 });
      await w.page.selectOption('#expiry_month', '12');
      await w.page.selectOption('#expiry_year', '2030');
      await w.page.fill('#security_code', '592');
      await Promise.all([w.page.waitForSelector('#approve'), w.page.click('#pay-button')]);
      await Promise.all([w.page.waitForURL(`${shop.url}/success`), w.page.click('#approve')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }
    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    expect(order.status).toBe('paid');
    const [payment] = order.payments;
    expect(interpos.emulator.state.orders.get(orderOf(payment!.id))?.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 10_000 })]);
    expect(JSON.stringify(payment, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))).not.toContain(INTERPOS_CARDS.approved);
  });
});
