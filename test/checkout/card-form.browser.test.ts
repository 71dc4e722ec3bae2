// The hosted card form checks the card in the browser as the gateway does (a name, a number of
// 12-19 digits passing the Luhn check, an expiry that has not passed, a 3-4 digit security code),
// in the shopper's words, without sending the card; each error goes as the shopper corrects that
// field, the server's errors too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { CARDS } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';

warnIfNoChromium('card-form.browser.test.ts');

let t: TestGateway;
let m: Merchant;
let browser: Browser;
beforeAll(async () => {
  if (!haveChromium) return;
  t = await startTestGateway();
  m = await seedWorkspace(t);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const errorOf = (id: string) => `#${id}-error`;

describe.skipIf(!haveChromium)('the hosted card form in Chromium', { timeout: 120_000 }, () => {
  it('says what is missing in shopper words, sends nothing, and clears each error as its field is corrected', async () => {
    const res = await m.call('order-payment', orderBody(m));
    expect(res.status).toBe(200);
    const w = await openWatchedPage(browser, { width: 390, height: 844 }, true, 'en-GB');
    const posts: string[] = [];
    w.page.on('request', (r) => {
      if (r.method() === 'POST') posts.push(r.url());
    });
    await w.page.goto(res.body.order.checkout_url);
    await w.page.click('#pay-button');
    const texts = async () => Object.fromEntries(await Promise.all(['holder_name', 'number', 'expiry', 'security_code'].map(async (k) => [k, (await w.page.locator(errorOf(k)).count()) ? await w.page.locator(errorOf(k)).innerText() : null])));
    expect(await texts()).toEqual({
      holder_name: 'Enter the name on the card.',
      number: 'Enter your card number.',
      expiry: 'Choose the expiry month and year.',
      security_code: 'Enter the 3 or 4 digit security code from the card.',
    });
    expect(await w.page.getAttribute('#number', 'aria-invalid')).toBe('true');
    expect(await w.page.evaluate(() => document.activeElement?.id)).toBe('holder_name');
    await shot(w.page, 'card-form-errors-phone.png');

    await w.page.fill('#holder_name', 'AYSE YILMAZ');
    expect(await w.page.locator(errorOf('holder_name')).count()).toBe(0);
    await w.page.locator('#number').pressSequentially('4111111111111112', { delay: 5 });
    expect(await w.page.locator(errorOf('number')).count()).toBe(0);
    await w.page.click('#pay-button');
    expect(await w.page.locator(errorOf('number')).innerText()).toBe('This card number looks mistyped; please check it.');
    await w.page.fill('#number', '');
    await w.page.locator('#number').pressSequentially(CARDS.approved, { delay: 5 });
    expect(await w.page.locator(errorOf('number')).count()).toBe(0);
    expect(await w.page.getAttribute('#number', 'aria-invalid')).toBeNull();

    const now = new Date();
    if (now.getMonth() > 0) {
      await w.page.selectOption('#expiry_year', String(now.getFullYear()));
      await w.page.selectOption('#expiry_month', String(now.getMonth()).padStart(2, '0'));
      await w.page.click('#pay-button');
      expect(await w.page.locator(errorOf('expiry')).innerText()).toBe('This expiry date has passed; choose the date on the card.');
    }
    await w.page.selectOption('#expiry_year', String(now.getFullYear() + 3));
    expect(await w.page.locator(errorOf('expiry')).count()).toBe(0);
    await w.page.fill('#security_code', '12');
    expect(await w.page.locator(errorOf('security_code')).count()).toBe(0);
    await w.page.click('#pay-button');
    expect(await w.page.locator(errorOf('security_code')).innerText()).toBe('Enter the 3 or 4 digit security code from the card.');
    expect(posts).toEqual([]);

    // Corrected, the card goes to the gateway: on to 3-D Secure.
    await w.page.fill('#security_code', '123');
    await w.page.click('#pay-button');
    await expect.poll(() => posts.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(posts[0]).toBe(res.body.order.checkout_url);
    expect(w.problems).toEqual([]);
    await w.close();
  });
});
