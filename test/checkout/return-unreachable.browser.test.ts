// After the 3D step the shopper goes back to the merchant's callback_url. In Chromium: when that
// address is down (a port nothing listens on), the shopper lands on the gateway's result page,
// which says the payment's result and offers the way back; when it answers, the return POST
// reaches it with transaction_token as before.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import getPort from 'get-port';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';

warnIfNoChromium('return-unreachable.browser.test.ts');

let t: TestGateway;
let m: Merchant;
let browser: Browser;
let shop: http.Server;
let shopUrl: string;
const returns: string[] = [];

beforeAll(async () => {
  if (!haveChromium) return;
  t = await startTestGateway();
  m = await seedWorkspace(t);
  shop = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'POST') returns.push(body);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>Shop</title><h1 id="shop">Thank you</h1></html>');
    });
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await t?.stop();
});

async function payThroughThreeDs(callbackUrl: string) {
  const started = await m.call('secure-payment', paymentBody(m, { transaction: { callback_url: callbackUrl, channel_reference: `RET-${Math.random().toString().slice(2, 8)}` } }));
  expect(started.body.result.successful).toBe(true);
  const w = await openWatchedPage(browser, { width: 390, height: 844 }, true, 'en-GB');
  await w.page.goto(started.body.result.redirect_url);
  await w.page.click('button[value="approve"]');
  return { w, token: started.body.transaction.token as string };
}

describe.skipIf(!haveChromium)('the way back after the 3D step, in Chromium', { timeout: 120_000 }, () => {
  it('lands on the gateway page that says the result and offers the way back when the merchant address is down', async () => {
    const down = `http://127.0.0.1:${await getPort({ host: '127.0.0.1' })}/back`;
    const { w, token } = await payThroughThreeDs(down);
    await w.page.waitForURL(`${t.gateway.baseUrl}/checkout/3ds/result/${token}`, { timeout: 30_000 });
    expect(await w.page.locator('#result').innerText()).toBe('Payment approved');
    expect(await w.page.locator('#unreachable').innerText()).toContain(`${new URL(down).host} did not answer`);
    expect(await w.page.locator('#unreachable').innerText()).toContain(token);
    // The way back: the same return POST, by the shopper's hand.
    expect(await w.page.getAttribute('form#return', 'action')).toBe(down);
    expect(await w.page.inputValue('form#return input[name="transaction_token"]')).toBe(token);
    expect(await w.page.locator('form#return button').innerText()).toBe(`Return to ${new URL(down).host}`);
    expect(await axeViolations(w.page)).toEqual([]);
    await shot(w.page, 'return-unreachable-phone.png');
    expect(w.problems).toEqual([]);
    // The result is the payment's: retrieve-payment agrees.
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    await w.close();
  });

  it('posts transaction_token to the merchant address when it answers', async () => {
    returns.length = 0;
    const { w, token } = await payThroughThreeDs(`${shopUrl}/back`);
    await w.page.waitForURL(`${shopUrl}/back`, { timeout: 30_000 });
    expect(await w.page.locator('#shop').innerText()).toBe('Thank you');
    expect(returns).toEqual([`transaction_token=${token}`]);
    await w.close();
  });

  it('has no result page for a payment that has not been through the 3D step', async () => {
    const regular = await m.call('regular-payment', paymentBody(m));
    const res = await fetch(`${t.gateway.baseUrl}/checkout/3ds/result/${regular.body.transaction.token}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
