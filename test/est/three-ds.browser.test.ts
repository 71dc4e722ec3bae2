// The full 3-D Secure round trip through an EST bank in a real browser (Debian's Chromium through
// playwright-core), in both EST models: the gateway's redirect address answers its auto-posting
// form "bank", which posts the card to the emulator's 3D gate; the gate redirects to its ACS; the
// shopper clicks Approve (or Decline) there; the ACS posts EST's signed callback to the gateway,
// which verifies it (and in model 3d authorises over the XML API) and posts transaction_token to
// the merchant's callback_url (a receiver on 127.0.0.1). Every request stays on this machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { useGateway } from '../helpers/fixture.ts';
import { returnPosts } from '../helpers/receiver.ts';
import { paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { EST_CARDS, estCalls, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';
import { orderOf } from '../helpers/bank-orders.ts';

warnIfNoChromium('test/est/three-ds.browser.test.ts');

const { t, receiver: shop } = useGateway({ receiver: true });
const est = useEstEmulator();
const merchants = {} as Record<'3d' | '3d_pay', Merchant>;
let browser: Browser;
let reference = 9100;

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launchChromium();
  merchants['3d'] = await seedEstMerchant(t, est.emulator, { model: '3d' });
  merchants['3d_pay'] = await seedEstMerchant(t, est.emulator, { model: '3d_pay' });
});
afterAll(() => browser?.close());

async function start(m: Merchant) {
  const res = await m.call(
    'secure-payment',
    paymentBody(m, { card: { number: EST_CARDS.approved, security_code: '913' }, transaction: { channel_reference: `ESTB-${reference++}`, callback_url: `${shop.url}/payment-return` } }),
  );
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  // The card is only in the sealed redirect address, never in the payment row.
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
  expect(JSON.stringify(row.threeDsRedirect)).not.toContain(EST_CARDS.approved);
  expect(JSON.stringify(row.threeDsRedirect)).not.toContain('"913"');
  return { token, redirectUrl: res.body.result.redirect_url as string };
}

const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const acsUrl = () => new RegExp(`^${est.emulator.url}/_emulator/acs/[0-9a-f]+$`);

describe.skipIf(!haveChromium)('3-D Secure through an EST bank in Chromium', { timeout: 120_000 }, () => {
  it.each(['3d', '3d_pay'] as const)('model %s: redirect_url -> the bank form -> the gate -> the ACS -> Approve -> the gateway -> the merchant\u2019s callback with transaction_token', async (model) => {
    const m = merchants[model];
    const { token, redirectUrl } = await start(m);
    const w = await openWatchedPage(browser, { width: 390, height: 844 }, true);
    const urls: string[] = [];
    w.page.on('request', (r) => urls.push(r.url()));
    const before = shop.requests.length;
    try {
      await Promise.all([w.page.waitForURL(acsUrl()), w.page.goto(redirectUrl)]);
      await shot(w.page, `est-${model}-acs.png`);
      await Promise.all([w.page.waitForURL(`${shop.url}/payment-return`), w.page.click('#approve')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }

    const received = returnPosts(shop, before);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', path: '/payment-return' });
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    // The browser went from the gateway to the bank's gate and ACS, back to the gateway's callback, then to the merchant.
    const callback = `${t.gateway.baseUrl}/checkout/3ds/callback/${token}`;
    expect(urls).toEqual(expect.arrayContaining([redirectUrl, est.emulator.gateUrl, callback, `${shop.url}/payment-return`]));
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);

    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(estOrderOf(est.emulator, token)!.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 10_000 })]);
    expect(estCalls(t, 'complete3D').filter((c) => c.request.OrderId === orderOf(token))).toHaveLength(model === '3d' ? 1 : 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('Decline on the ACS: the merchant\u2019s callback still gets transaction_token, the payment failed 3ds_failed', async () => {
    const m = merchants['3d'];
    const { token, redirectUrl } = await start(m);
    const w = await openWatchedPage(browser, { width: 1280, height: 800 }, false, 'en-US');
    const before = shop.requests.length;
    try {
      await Promise.all([w.page.waitForURL(acsUrl()), w.page.goto(redirectUrl)]);
      await Promise.all([w.page.waitForURL(`${shop.url}/payment-return`), w.page.click('#decline')]);
      expect(w.problems).toEqual([]);
    } finally {
      await w.close();
    }

    const received = returnPosts(shop, before);
    expect(Object.fromEntries(new URLSearchParams(received[0]!.body))).toEqual({ transaction_token: token });
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(estCalls(t, 'complete3D').filter((c) => c.request.OrderId === orderOf(token))).toEqual([]);
  });
});
