// The order checkout page in a real browser (Debian's Chromium through playwright-core): the
// customer types a simulator card, sees the installment options, approves 3D, and the merchant's
// success_url server receives transaction_token. Also a declined card and a retry, markup in item
// names shown as text, and screenshots at phone and desktop sizes in test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot, warnIfNoChromium, type WatchedPage } from '../helpers/browser.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { CARDS } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';

warnIfNoChromium('checkout.browser.test.ts');

let t: TestGateway;
let m: Merchant;
let shop: Receiver;
let browser: Browser;

beforeAll(async () => {
  if (!haveChromium) return;
  t = await startTestGateway();
  m = await seedWorkspace(t);
  await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { name: 'Kahve Dünyası Mağazası' } });
  await t.gateway.admission.synced();
  shop = await startReceiver();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await t?.stop();
});

async function openOrder(over: Parameters<typeof orderBody>[1] = {}): Promise<{ token: string; checkoutUrl: string }> {
  const res = await m.call('order-payment', orderBody(m, { ...over, order: { success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart`, ...over.order } }));
  if (res.status !== 200) throw new Error(`order-payment answered ${res.status}: ${res.text}`);
  return { token: res.body.order.token, checkoutUrl: res.body.order.checkout_url };
}

interface Watched extends WatchedPage {
  dialogs: string[];
  urls: string[];
}

async function newPage(viewport: { width: number; height: number }, mobile: boolean): Promise<Watched> {
  const watched: Watched = { ...(await openWatchedPage(browser, viewport, mobile)), dialogs: [], urls: [] };
  watched.page.on('dialog', (d) => {
    watched.dialogs.push(d.message());
    void d.dismiss();
  });
  watched.page.on('request', (r) => watched.urls.push(r.url()));
  return watched;
}

async function fillCard(page: Page, number: string, installment?: string): Promise<void> {
  await page.fill('#holder_name', 'AYSE YILMAZ');
  await page.locator('#number').pressSequentially(number, { delay: 5 });
  await page.selectOption('#expiry_month', '12');
  await page.selectOption('#expiry_year', '2030');
  await page.fill('#security_code', '123');
  if (installment) await page.selectOption('#installment_number', installment);
}

async function payAndApprove(page: Page): Promise<void> {
  await Promise.all([page.waitForURL(/\/simulator\/acs\//), page.click('#pay-button')]);
  await page.click('button[name="outcome"][value="approve"]');
}

// Many pages and a real browser per test: a loaded CI machine needs more than the default 30 s.
describe.skipIf(!haveChromium)('order checkout in Chromium', { timeout: 120_000 }, () => {
  it('phone: types a simulator card, sees installments, approves 3D; success_url receives transaction_token; the order is paid with order.paid', async () => {
    const { token, checkoutUrl } = await openOrder({
      order: { description: 'Sipariş #1001 — hafta sonu teslimat' },
      items: [
        { channel_reference: 'KHV-1', name: 'Türk Kahvesi 250 g', quantity: 2, unit_amount: '185.00', tax_rate: 1 },
        { channel_reference: 'FNC-2', name: 'Bakır Cezve', quantity: 1, unit_amount: '630.00', tax_rate: 20 },
      ],
    });
    const w = await newPage({ width: 390, height: 844 }, true);
    const { page } = w;
    const before = shop.requests.length;

    await page.goto(checkoutUrl);
    await expect.poll(() => page.locator('#order-total').textContent()).toBe('1.000,00 TRY');
    await shot(page, 'order-checkout-phone.png');
    // Nothing overflows sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await fillCard(page, CARDS.approved);
    expect(await page.inputValue('#number')).toBe('4111 1111 1111 1111');
    await expect.poll(() => page.locator('#installment_number option').count()).toBe(12);
    expect(await page.locator('#card-brand').textContent()).toContain('visa');
    await page.selectOption('#installment_number', '3');
    expect(await page.locator('#pay-amount').textContent()).toBe('1.030,00 TRY');
    await shot(page, 'order-checkout-phone-filled.png');

    await Promise.all([page.waitForURL(/\/simulator\/acs\//), page.click('#pay-button')]);
    expect(await page.textContent('body')).toContain('Tutar: 1.030,00 TRY');
    await shot(page, 'order-checkout-phone-3ds.png');
    // The return page auto-submits to success_url: wait until the browser has landed there.
    await Promise.all([page.waitForURL(/\/success$/), page.click('button[name="outcome"][value="approve"]')]);

    // The page first asks whether success_url answers (a HEAD without a body), then posts.
    const [probe, received] = (await shop.waitFor(before + 2)).slice(before);
    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    const payment = order.payments[0]!;
    expect(probe).toMatchObject({ method: 'HEAD', path: '/success', body: '' });
    expect(received).toMatchObject({ method: 'POST', path: '/success', body: `transaction_token=${payment.id}` });
    expect(order.status).toBe('paid');
    expect(payment).toMatchObject({ status: 'successful', installmentNumber: 3, amount: 103000n, baseAmount: 100000n });
    const events = await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token } });
    expect(events.map((e) => [e.kind, e.transactionToken])).toEqual([['order.paid', payment.id]]);

    // Only the BIN ever left the page in a URL; no CSP violation, no script error.
    expect(w.urls.filter((u) => u.includes('/installments?'))).not.toHaveLength(0);
    for (const u of w.urls) {
      expect(u).not.toContain(CARDS.approved);
      expect(u).not.toMatch(/bin=\d{9,}/);
    }
    expect(w.problems).toEqual([]);

    // The page of a paid order says so.
    await page.goto(checkoutUrl);
    expect(await page.textContent('body')).toContain('Bu sipariş ödendi');
    await shot(page, 'order-checkout-phone-paid.png');
    await w.context.close();
  });

  it('desktop: a declined card shows the reason, a retry with another card pays', async () => {
    const { token, checkoutUrl } = await openOrder({ items: [{ channel_reference: 'MK-1', name: 'Espresso Makinesi', unit_amount: '12500.00', tax_rate: 20 }] });
    const w = await newPage({ width: 1280, height: 900 }, false);
    const { page } = w;
    const before = shop.requests.length;

    await page.goto(checkoutUrl);
    await shot(page, 'order-checkout-desktop.png');
    await fillCard(page, CARDS.insufficientFunds);
    await expect.poll(() => page.locator('#installment_number option').count()).toBe(12);
    await payAndApprove(page);

    await page.waitForURL(new RegExp(`/checkout/order/${token}\\?attempt=`));
    expect(await page.locator('#notice').textContent()).toBe('Ödeme alınamadı: Kart kabul edilmedi. Bilgileri kontrol edin ya da başka bir kart deneyin; ayrıntıyı bankanız söyleyebilir.');
    await shot(page, 'order-checkout-desktop-declined.png');
    expect(shop.requests.length).toBe(before);

    await fillCard(page, CARDS.mastercard);
    await payAndApprove(page);
    const [, received] = (await shop.waitFor(before + 2)).slice(before);
    const order = await t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { payments: true } });
    const paid = order.payments.find((p) => p.status === 'successful')!;
    expect(order.status).toBe('paid');
    expect(order.payments.map((p) => p.status).sort()).toEqual(['failed', 'successful']);
    expect(received!.body).toBe(`transaction_token=${paid.id}`);
    expect(await t.gateway.services.db.outboxEvent.count({ where: { recordToken: token, kind: 'order.paid' } })).toBe(1);
    expect(w.problems).toEqual([]);
    await w.context.close();
  });

  it('an XSS string in an item name and the description is shown as text and never runs', async () => {
    const names = [`<img src=x onerror="window.__xss=1;alert(1)">`, `<script>window.__xss=2</script>Kupa`];
    const { checkoutUrl } = await openOrder({
      order: { description: `</p><script>window.__xss=3</script>` },
      items: names.map((name, i) => ({ channel_reference: `X-${i}`, name, unit_amount: '10.00' })),
    });
    const w = await newPage({ width: 390, height: 844 }, true);
    const { page } = w;

    await page.goto(checkoutUrl);
    const shown = await page.locator('.items .name').allTextContents();
    expect(shown).toEqual(names);
    expect(await page.locator('.desc').textContent()).toBe(`</p><script>window.__xss=3</script>`);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('.items img').count()).toBe(0);
    expect(w.dialogs).toEqual([]);
    await shot(page, 'order-checkout-xss.png');
    await w.context.close();
  });
});
