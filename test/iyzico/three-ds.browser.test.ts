// The full 3-D Secure round trip through iyzico in a real browser (Debian's Chromium through
// playwright-core): the gateway's redirect address serves iyzico's page, whose form posts on to
// the emulator's ACS; the shopper clicks Approve there, the ACS posts iyzico's signed callback to
// the gateway, which completes the payment with iyzico and posts transaction_token to the
// merchant's callback_url (a receiver on 127.0.0.1). Every request the browser makes stays on
// this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { emulatorState, IYZICO_CARDS, iyzicoCalls, seedIyzicoMerchant, useIyzicoEmulator } from '../helpers/iyzico.ts';

warnIfNoChromium('test/iyzico/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const iyzico = useIyzicoEmulator();
let m: Merchant;
let browser: Browser;
let reference = 9100;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launchChromium();
  m = await seedIyzicoMerchant(t, iyzico.emulator);
});
afterAll(() => browser?.close());

async function start() {
  const res = await m.call(
    'secure-payment',
    paymentBody(m, { card: { number: IYZICO_CARDS.approved }, transaction: { channel_reference: `IYZB-${reference++}`, callback_url: `${shop.url}/payment-return` } }),
  );
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
  return { token, redirectUrl: res.body.result.redirect_url as string, iyzicoPaymentId: row.providerReference! };
}

const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;

describe.skipIf(!haveChromium)('3-D Secure through iyzico in Chromium', { timeout: 120_000 }, () => {
  it('redirect_url -> iyzico\u2019s page -> the emulator\u2019s ACS -> Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async () => {
    const { token, redirectUrl, iyzicoPaymentId } = await start();
    const w = await openWatchedPage(browser, { width: 390, height: 844 }, true);
    const urls: string[] = [];
    w.page.on('request', (r) => urls.push(r.url()));
    const before = shop.requests.length;
    try {
      await Promise.all([w.page.waitForURL(`${iyzico.emulator.url}/_emulator/acs/${iyzicoPaymentId}`), w.page.goto(redirectUrl)]);
      await shot(w.page, 'iyzico-acs.png');
      await Promise.all([w.page.waitForURL(`${shop.url}/payment-return`), w.page.click('#approve')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }

    // Chromium also asks the merchant's server for /favicon.ico.
    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/payment-return' });
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    // The browser went from the gateway to the emulator's ACS, back to the gateway's callback, then to the merchant.
    const callback = `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`;
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, `${iyzico.emulator.url}/_emulator/acs/${iyzicoPaymentId}`, callback, `${shop.url}/payment-return`]));
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(token)).toEqual({ successful: true, message: null });
    expect((await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === iyzicoPaymentId)?.status).toBe('SUCCESS');
    expect(iyzicoCalls(t, 'complete3D').filter((c) => c.request.paymentId === iyzicoPaymentId)).toHaveLength(1);
    // Once, also after the jobs had time to run.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed', async () => {
    const { token, redirectUrl, iyzicoPaymentId } = await start();
    const w = await openWatchedPage(browser, { width: 1280, height: 800 }, false, 'en-US');
    try {
      await Promise.all([w.page.waitForURL(`${iyzico.emulator.url}/_emulator/acs/${iyzicoPaymentId}`), w.page.goto(redirectUrl)]);
      await Promise.all([w.page.waitForURL(`${shop.url}/payment-return`), w.page.click('#decline')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }

    expect(await retrieve(token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(iyzicoCalls(t, 'complete3D').filter((c) => c.request.paymentId === iyzicoPaymentId)).toEqual([]);
  });
});
