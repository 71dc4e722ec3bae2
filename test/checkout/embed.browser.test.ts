// The embedded checkout in Chromium: a merchant's page on another origin (a real HTTP server on
// 127.0.0.1, another port) includes /embed.js, opens an order's checkout in the overlay frame,
// pays through the simulator's 3D page inside that frame and hears the result by postMessage; its
// server then reads the final state. A page of an origin the workspace did not list (localhost on
// a third port) has the frame refused by the browser and hears nothing.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { CARDS } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';

warnIfNoChromium('embed.browser.test.ts');

let t: TestGateway;
let m: Merchant;
let browser: Browser;
let shop: http.Server;
let listedOrigin: string;
let unlistedOrigin: string;

/** The merchant's page, as the README shows it: embed.js, a button, the result kept for the test to read. */
const shopPage = (gateway: string, checkoutUrl: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><h1>Shop</h1><button id="buy">Pay</button>
<script src="${gateway}/embed.js"></script>
<script>
  window.results = []; window.messages = [];
  window.addEventListener('message', function (e) { window.messages.push({ origin: e.origin, data: e.data }); });
  document.getElementById('buy').addEventListener('click', function () {
    GatewayCheckout.open(${JSON.stringify(checkoutUrl)}, { onResult: function (result) { window.results.push(result); } });
  });
</script></body></html>`;

let checkoutUrl = '';

beforeAll(async () => {
  if (!haveChromium) return;
  t = await startTestGateway();
  m = await seedWorkspace(t);
  // One server plays the merchant's site; the test reaches it under two origins.
  shop = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(shopPage(t.gateway.baseUrl, checkoutUrl));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const port = (shop.address() as AddressInfo).port;
  listedOrigin = `http://127.0.0.1:${port}`;
  unlistedOrigin = `http://localhost:${port}`;
  await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { embedOrigins: [listedOrigin] } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await t?.stop();
});

async function newOrder(): Promise<{ id: string; url: string }> {
  const res = await m.call('order-payment', orderBody(m));
  expect(res.status).toBe(200);
  return { id: res.body.order.token, url: res.body.order.checkout_url };
}

/** The overlay's frame once it shows `path`. */
async function checkoutFrame(page: Page, path: RegExp): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => path.test(f.url())), { timeout: 30_000 }).toBe(true);
  return page.frames().find((f) => path.test(f.url()))!;
}

describe.skipIf(!haveChromium)('the embedded checkout in Chromium', { timeout: 180_000 }, () => {
  it('opens in an overlay on a listed origin, pays through the 3D step inside the frame and tells the page the result', async () => {
    const order = await newOrder();
    checkoutUrl = order.url;
    const w = await openWatchedPage(browser, { width: 1024, height: 900 }, false, 'en-GB');
    await w.page.goto(`${listedOrigin}/shop`);
    await w.page.click('#buy');
    const frame = await checkoutFrame(w.page, /\/checkout\/order\//);
    await frame.waitForSelector('#pay-button');
    // The merchant's overlay closes the checkout; the frame has no cancel link of its own.
    expect(await frame.locator('a.cancel').count()).toBe(0);
    await frame.fill('#holder_name', 'AYSE YILMAZ');
    await frame.locator('#number').pressSequentially(CARDS.approved, { delay: 5 });
    await frame.selectOption('#expiry_month', '12');
    await frame.selectOption('#expiry_year', String(new Date().getFullYear() + 3));
    await frame.fill('#security_code', '123');
    await frame.click('#pay-button');

    const acs = await checkoutFrame(w.page, /\/simulator\/acs\//);
    await acs.waitForSelector('button[value="approve"]');
    await shot(w.page, 'embed-3ds-in-frame.png');
    await acs.click('button[value="approve"]');

    await expect.poll(() => w.page.evaluate(() => (window as unknown as { results: unknown[] }).results), { timeout: 30_000 }).toHaveLength(1);
    const [result] = (await w.page.evaluate(() => (window as unknown as { results: Array<Record<string, unknown>> }).results)) as Array<{ successful: boolean; status: string; transaction_token: string }>;
    expect(result).toMatchObject({ successful: true, status: 'successful' });
    // Every message the page heard came from the gateway's origin, to this page's own.
    const messages = (await w.page.evaluate(() => (window as unknown as { messages: Array<{ origin: string }> }).messages)) as Array<{ origin: string }>;
    expect(messages.map((x) => x.origin)).toEqual([t.gateway.baseUrl]);
    const done = await checkoutFrame(w.page, /\/checkout\/3ds\/callback\//);
    expect(await done.locator('#result').innerText()).toBe('Payment approved');

    // The message is a hint: the merchant's server reads the final state itself.
    const state = await m.call('retrieve-payment', { transaction: { token: result.transaction_token } });
    expect(state.body.result).toEqual({ successful: true, message: null });
    expect(w.problems).toEqual([]);
    await w.close();
  });

  it('is refused by the browser on an origin the workspace did not list, which hears nothing', async () => {
    checkoutUrl = (await newOrder()).url;
    const w = await openWatchedPage(browser, { width: 1024, height: 900 }, false, 'en-GB');
    await w.page.goto(`${unlistedOrigin}/shop`);
    await w.page.click('#buy');
    await expect.poll(() => w.problems.some((p) => p.includes(`"frame-ancestors ${listedOrigin}"`) && /blocked/.test(p)), { timeout: 30_000 }).toBe(true);
    // The frame shows Chromium's error page, not the checkout.
    await expect.poll(() => w.page.frames().map((f) => f.url()), { timeout: 10_000 }).toEqual([`${unlistedOrigin}/shop`, 'chrome-error://chromewebdata/']);
    await w.page.waitForTimeout(1000);
    expect(await w.page.evaluate(() => (window as unknown as { messages: unknown[] }).messages)).toEqual([]);
    expect(await w.page.evaluate(() => (window as unknown as { results: unknown[] }).results)).toEqual([]);
    await w.close();
  });
});
