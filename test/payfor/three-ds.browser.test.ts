// The full 3-D Secure round trip through QNB Finansbank's PayFor in a real browser (Debian's
// Chromium through playwright-core), in both of PayFor's models the gateway offers: the gateway's
// redirect address answers the bank form, which posts itself to the emulator's 3D gate; the
// shopper clicks Approve (or Decline) on the emulator's ACS, which posts PayFor's signed callback to
// the gateway; the gateway verifies it, (model '3d') makes the 3DModelPayment sale, and posts
// transaction_token to the merchant's callback_url. Every request stays on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, warnIfNoChromium, walkAcs } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { PAYFOR_CARDS, payforCalls, payforOrder, seedPayforMerchant, usePayforEmulator } from './helpers.ts';

warnIfNoChromium('test/payfor/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const payfor = usePayforEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let browser: Browser;
let reference = 9100;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function start(model: '3d' | '3d_pay') {
  const m = (merchants[model] ??= await seedPayforMerchant(t, payfor.emulator, { model }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number: PAYFOR_CARDS.approved }, transaction: { channel_reference: `PFB-${reference++}`, callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;

const walk = (redirectUrl: string, button: '#approve' | '#decline') => walkAcs(browser, redirectUrl, `${shop.url}/payment-return`, button);

describe.skipIf(!haveChromium)('3-D Secure through PayFor in Chromium', { timeout: 120_000 }, () => {
  it.each(['3d', '3d_pay'] as const)('model %s: redirect_url -> bank form -> gate -> ACS Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async (model) => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const before = shop.requests.length;
    const urls = await walk(redirectUrl, '#approve');

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, payfor.emulator.gateUrl, `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`]));
    expect(urls.some((u) => u.startsWith(`${payfor.emulator.url}/_emulator/acs/`))).toBe(true);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect((await payforOrder(payfor.emulator, orderId))!.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 10_000 })]);
    expect(payforCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(model === '3d' ? 1 : 0);
    expect(t.logLines.join('\n')).not.toContain(PAYFOR_CARDS.approved);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d');
    await walk(redirectUrl, '#decline');
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await payforOrder(payfor.emulator, orderId)).toBeUndefined();
  });
});
