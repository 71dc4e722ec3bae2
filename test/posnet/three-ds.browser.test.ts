// A 3-D payment through Yapı Kredi PosNet in a real browser (Debian's Chromium through
// playwright-core): the gateway's redirect address answers the bank form, which posts the sealed
// data to the emulator's 3-D service; the shopper clicks Approve (or Decline) on its ACS, which
// posts the sealed packets to the gateway; the gateway has the bank open them, charges, and posts
// transaction_token to the merchant's callback_url. Every request stays on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startPosnetEmulator, type PosnetEmulator } from '../../emulators/posnet/server.ts';
import { haveChromium, launchChromium, warnIfNoChromium, walkAcs } from '../helpers/browser.ts';
import { seedBankMerchant } from '../helpers/bank.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { POSNET_CARDS, posnetAccount } from './fixtures.ts';

warnIfNoChromium('test/posnet/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
let emulator: PosnetEmulator;
let browser: Browser;
let m: Merchant;
let reference = 9300;

beforeAll(async () => {
  emulator = await startPosnetEmulator({ port: 0 });
  if (haveChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await emulator?.stop();
});

async function start() {
  m ??= await seedBankMerchant(t, posnetAccount(emulator));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number: POSNET_CARDS.approved }, transaction: { channel_reference: `PNB-${reference++}`, callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string };
}

const walk = (redirectUrl: string, button: '#approve' | '#decline', screenshot?: string) => walkAcs(browser, redirectUrl, `${shop.url}/payment-return`, button, { screenshot });

const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;

describe.skipIf(!haveChromium)('3-D Secure through PosNet in Chromium', { timeout: 120_000 }, () => {
  it('redirect_url -> bank form -> 3-D service -> ACS Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async () => {
    const { token, redirectUrl } = await start();
    const before = shop.requests.length;
    const urls = await walk(redirectUrl, '#approve', 'posnet-acs.png');
    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, emulator.gateUrl, `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`]));
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);
    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the payment failed 3ds_failed', async () => {
    const { token, redirectUrl } = await start();
    await walk(redirectUrl, '#decline');
    expect(await retrieve(token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
  });
});
