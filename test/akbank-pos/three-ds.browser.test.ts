// The full 3-D Secure round trip through Akbank's virtual POS in a real browser (Debian's Chromium
// through playwright-core), in the three models the gateway offers: the gateway's redirect address
// answers the bank form, which posts itself to the emulator's gate (in the 3D Host model the
// shopper types the card on the bank's own page); the shopper clicks Approve (or Decline) on the
// emulator's ACS, which posts Akbank's signed callback to the gateway; the gateway verifies it,
// (model '3d') makes the sale with the secure data, and posts transaction_token to the merchant's
// callback_url. Every request stays on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium, warnIfNoChromium, walkAcs } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { AKBANK_CARDS, akbankCalls, seedAkbankMerchant, txnsAt, useAkbankEmulator, type AkbankModel } from './helpers.ts';

warnIfNoChromium('test/akbank-pos/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const akbank = useAkbankEmulator();
const merchants: Partial<Record<AkbankModel, Merchant>> = {};
let browser: Browser;
let reference = 9600;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function start(model: AkbankModel) {
  const m = (merchants[model] ??= await seedAkbankMerchant(t, akbank.emulator, { model }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number: AKBANK_CARDS.approved }, transaction: { channel_reference: `AKB-${reference++}`, callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;

/** The bank's own card page of the 3D Host model, typed as a shopper types it. */
async function typeCard(page: Page): Promise<void> {
  await page.waitForSelector('#akbank-card');
  await page.fill('input[name="creditCard"]', AKBANK_CARDS.approved);
  await page.fill('input[name="expiredDate"]', '1230');
  await page.fill('input[name="cvv"]', '123');
  await page.click('#pay');
}

const walk = (redirectUrl: string, button: '#approve' | '#decline', hosted: boolean) =>
  walkAcs(browser, redirectUrl, `${shop.url}/payment-return`, button, hosted ? { before: typeCard } : {});

describe.skipIf(!haveChromium)('3-D Secure through Akbank in Chromium', { timeout: 120_000 }, () => {
  it.each(['3d', '3d_pay', '3d_host'] as const)('model %s: redirect_url -> bank form -> gate -> ACS Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async (model) => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const before = shop.requests.length;
    const urls = await walk(redirectUrl, '#approve', model === '3d_host');

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    const gate = model === '3d_host' ? akbank.emulator.hostGateUrl : akbank.emulator.gateUrl;
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, gate, `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`]));
    expect(urls.some((u) => u.startsWith(`${akbank.emulator.url}/_emulator/acs/`))).toBe(true);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await txnsAt(akbank.emulator, orderId)).toEqual(['1000:VPS-0000:10000']);
    expect(akbankCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(model === '3d' ? 1 : 0);
    expect(t.logLines.join('\n')).not.toContain(AKBANK_CARDS.approved);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d');
    await walk(redirectUrl, '#decline', false);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await txnsAt(akbank.emulator, orderId)).toEqual([]);
  });
});
