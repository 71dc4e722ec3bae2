// The orders, subscriptions and customers screens in Chromium, at desktop width in English and at
// phone width in Turkish: statuses as badges in the reader's words, amounts with separators, times
// in the workspace's zone (Europe/Istanbul, three hours ahead of UTC) and said so; a skeleton while
// a record loads, a sentence for a record that is not there, an error with a retry; and write
// buttons only for roles that may use them (viewer: none; operator: cancel, make default, delete,
// which do what they say).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { orderBody } from '../helpers/orders.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from '../subscriptions/support.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('records-kit.browser.test.ts');

const { t, merchant: m, open } = useDashboard({ now: '2026-03-10T09:00:00.000Z' });
const db = () => t.gateway.services.db;
const CUSTOMER = { channel_reference: 'KIT-CUST-1', firstname: 'Deniz', lastname: 'Aydın', email: 'deniz@example.org', phone: '+905550003344' };
const seeded = { order: '', subscription: '', customer: '', viewer: '', operator: '' };
/** Intl puts a no-break space between "TRY" and the digits in English. */
const plain = (texts: (string | null)[]) => texts.map((s) => s?.replace(/\u00a0/g, ' '));
const cells = (page: Page, row: string) => page.locator(`${row} td`).allTextContents().then(plain);
/** The gateway's GraphQL endpoint, whatever the query string. */
const GRAPHQL = /\/graphql(\?|$)/;
/** Whether a request to /graphql runs the named operation (queries travel as GET, mutations as POST). */
const runs = (request: Request, operation: string) =>
  new RegExp(`(query|mutation) ${operation}\\(`).test(`${decodeURIComponent(request.url().replace(/\+/g, ' '))} ${request.postData() ?? ''}`);

beforeAll(async () => {
  const order = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'KIT-ORD-1' }, items: [{ channel_reference: 'ITEM-9', name: 'Semaver', quantity: 2, unit_amount: '617.28', tax_rate: 10 }] }));
  expect(order.status).toBe(200);
  seeded.order = order.body.order.token;
  await saveProducts(m, [recurringProduct(m, 'KIT-PLAN', { amount: '1500.00' })]);
  const sub = await openSubscription(m, { subscription: { channel_reference: 'KIT-SUB-1', items: [{ channel_reference: 'KIT-PLAN' }] }, customer: CUSTOMER });
  await payPeriod(t, sub.token);
  seeded.subscription = sub.token;
  for (const [reference, number] of [['KIT-PAY-1', CARDS.approved], ['KIT-PAY-2', CARDS.mastercard]] as const) {
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference, amount: '2500.00' }, customer: CUSTOMER, card: { number, should_save: true } }));
    expect(res.body.result.successful).toBe(true);
  }
  seeded.customer = (await db().customer.findFirstOrThrow({ where: { workspaceId: m.workspaceId, channelReference: CUSTOMER.channel_reference } })).id;
  seeded.viewer = await createAccessToken(db(), m.team, 'kit viewer', { role: 'viewer' });
  seeded.operator = await createAccessToken(db(), m.team, 'kit operator', { role: 'operator' });
});

const cardsOf = () => db().savedCard.findMany({ where: { customerId: seeded.customer }, orderBy: [{ isDefault: 'desc' }, { createdAt: 'asc' }] });

describe.skipIf(!haveChromium)('orders, subscriptions and customers through the kit in Chromium', { timeout: 120_000 }, () => {
  it('orders list and order page (desktop, English): badge, amount with separators, times in Istanbul said so, a status filter in words', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'orders' });
    const row = `tr[data-token="${seeded.order}"]`;
    await expect.poll(() => cells(page, row)).toEqual(['KIT-ORD-1 · Sipariş 1001', 'TRY 1,234.56', 'Open', 'CUST-1', '10/03/2026, 12:00:00']);
    expect(await page.locator(`${row} .badge`).getAttribute('data-tone')).toBe('info');
    expect(await page.locator('.zone-note').textContent()).toBe('Times in Europe/Istanbul.');
    expect(await page.locator('select[name="status"] option').allTextContents()).toEqual(['Any', 'Open', 'Paid']);

    await page.locator(`${row} a`).click();
    await expect.poll(() => page.locator('[data-field="orderStatus"]').textContent()).toBe('Open');
    expect(plain([await page.locator('[data-field="amount"]').textContent()])).toEqual(['TRY 1,234.56']);
    expect(await cells(page, '[data-list="items"] tr[data-item="ITEM-9"]')).toEqual(['Semaver', 'ITEM-9', '2', 'TRY 617.28', '10%']);
    expect(await page.locator('main').textContent()).toContain('10/03/2026, 12:00:00');
    expect(await page.locator('main .zone-note').textContent()).toBe('Times in Europe/Istanbul.');
    await shot(page, 'dashboard-order-detail-desktop.png');

    // Filtered to paid orders: none, and the sentence says the filter is why.
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByLabel('Status').selectOption({ label: 'Paid' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('.empty').textContent()).toBe('Nothing matches this filter; change it and try again.');
    expect(await page.locator(row).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the order page at phone width in Turkish: a skeleton while it loads (no lone "…"), then a stacked page that fits', async () => {
    const { page, problems } = await open(390, 844, { path: 'orders' });
    await expect.poll(() => page.locator(`tr[data-token="${seeded.order}"]`).count()).toBe(1);
    // The order's answer held back until the skeleton has been seen: the real request, only later.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(GRAPHQL, async (route) => {
      if (runs(route.request(), 'Order')) await held;
      await route.continue();
    });
    await page.locator(`tr[data-token="${seeded.order}"] a`).click();
    await expect.poll(() => page.locator('main [aria-busy="true"] .skeleton').count()).toBeGreaterThan(0);
    expect(await page.locator('main h1').textContent()).toBe('Sipariş');
    expect(await page.locator('main').textContent()).not.toMatch(/^…$|>…</);
    release();
    await expect.poll(() => page.locator('[data-field="orderStatus"]').textContent()).toBe('Açık');
    // The order's own parts (its payments, its notifications) load after it: every one ends.
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    expect(await page.locator('[data-field="amount"]').textContent()).toBe('₺1.234,56');
    expect(await page.locator('main .zone-note').textContent()).toBe('Saatler Europe/Istanbul saat diliminde.');
    // Stacked: each value sits under its name, not beside it.
    const [dt, dd] = [await page.locator('main dl dt').first().boundingBox(), await page.locator('main dl dd').first().boundingBox()];
    expect(dd!.y).toBeGreaterThan(dt!.y);
    expect(dd!.x).toBe(dt!.x);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-order-detail-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a record that is not there says so; a failed load shows the error and a retry that loads it (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'subscriptions/00000000-0000-4000-8000-000000000000' });
    await expect.poll(() => page.locator('main .empty').textContent()).toBe('This record was not found; check the link or pick it from the list.');
    expect(await page.locator('main h1').textContent()).toBe('Subscription');

    // The customer's first answer never arrives (the connection drops); the retry asks again.
    let dropped = 0;
    await page.route(GRAPHQL, async (route) => {
      if (runs(route.request(), 'Customer') && dropped++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    await page.goto(`${t.gateway.baseUrl}/dashboard/customers/${seeded.customer}`);
    const alert = page.locator('main .error-state');
    await expect.poll(() => alert.locator('strong').textContent()).toBe('Could not load this');
    expect(await page.locator('[data-field="email"]').count()).toBe(0);
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('[data-field="email"]').textContent()).toBe('deniz@example.org');
    expect(await page.locator('main .error-state').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('search results at phone width in Turkish: a skeleton while waiting, a failed search with a retry, then results grouped with badges', async () => {
    const { page, problems } = await open(390, 844, { path: 'customers' });
    // The customers list as cards: each value under its column's name.
    const row = page.locator(`tr[data-token="${seeded.customer}"] td`);
    await expect.poll(() => row.evaluateAll((tds) => tds.slice(0, 4).map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`)))
      .toEqual(['Ad: Deniz Aydın', 'E-posta: deniz@example.org', 'Referans: KIT-CUST-1', 'Ödeme sayısı: 3']);
    await fitsWidth(page, 390);

    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let searches = 0;
    await page.route(GRAPHQL, async (route) => {
      if (!runs(route.request(), 'Search')) return route.continue();
      if (searches++ === 0) return route.abort('connectionreset');
      await held;
      return route.continue();
    });
    const box = page.locator('input[name="q"]');
    await box.fill('KIT-ORD-1');
    await box.press('Enter');
    const failed = page.locator('main .error-state');
    await expect.poll(() => failed.locator('strong').textContent()).toBe('Bilgiler alınamadı');
    await failed.getByRole('button', { name: 'Yeniden dene' }).click();
    await expect.poll(() => page.locator('main [aria-busy="true"] .skeleton').count()).toBeGreaterThan(0);
    release();
    const orders = page.locator('[data-kind="orders"]');
    await expect.poll(() => orders.locator('h2').textContent()).toBe('Siparişler (1)');
    expect(await orders.locator('li .badge').allTextContents()).toEqual(['Açık']);
    expect(await orders.locator('li').textContent()).toContain('₺1.234,56');
    expect(await page.locator('main .zone-note').textContent()).toBe('Saatler Europe/Istanbul saat diliminde.');
    expect(await page.locator('main .error-state').count()).toBe(0);
    await box.fill('KIT-SUB-1');
    await box.press('Enter');
    await expect.poll(() => page.locator('[data-kind="subscriptions"] li .badge').allTextContents()).toEqual(['Etkin']);
    expect(await page.locator('[data-kind="subscriptions"] li').textContent()).toContain('₺1.500,00 / aylık');
    await fitsWidth(page, 390);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a viewer reads a subscription and a customer without any write button (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', token: seeded.viewer, path: `subscriptions/${seeded.subscription}` });
    await expect.poll(() => page.locator('[data-field="subscriptionStatus"]').textContent()).toBe('Active');
    expect(await page.locator('[data-field="subscriptionStatus"] .badge').getAttribute('data-tone')).toBe('success');
    expect(plain([await page.locator('[data-field="amount"]').textContent()])).toEqual(['TRY 1,500.00 / monthly']);
    // No cancel, nor any other write (a record's notifications have their own resend rules).
    expect(await page.locator('main button').filter({ hasNotText: /^(Previous|Next)$/ }).count()).toBe(0);

    await page.goto(`${t.gateway.baseUrl}/dashboard/customers/${seeded.customer}`);
    const cards = page.locator('[data-field="savedCards"] li');
    await expect.poll(() => cards.count()).toBe((await cardsOf()).length);
    expect(await page.locator('[data-field="savedCards"] .badge').allTextContents()).toEqual(['Default']);
    expect(await page.locator('main button').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('an operator may cancel the subscription, makes another card the default and deletes a card (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', token: seeded.operator, path: `subscriptions/${seeded.subscription}` });
    await expect.poll(() => page.locator('[data-field="subscriptionStatus"]').textContent()).toBe('Active');
    expect(await page.getByRole('button', { name: 'Cancel the subscription' }).count()).toBe(1);
    const period = await cells(page, 'tr[data-period="1"]');
    expect(period.slice(0, 3)).toEqual(['1', 'TRY 1,500.00', 'Paid']);
    // The period's payment at the workspace's time (12:00 in Istanbul), not the browser's.
    expect(await page.locator('[data-payment] a').textContent()).toBe('10/03/2026, 12:00:00');

    await page.goto(`${t.gateway.baseUrl}/dashboard/customers/${seeded.customer}`);
    const before = await cardsOf();
    expect(before.length).toBeGreaterThanOrEqual(2);
    const [wasDefault, other] = [before[0]!, before[before.length - 1]!];
    const li = (id: string) => page.locator(`[data-field="savedCards"] li[data-card="${id}"]`);
    await expect.poll(() => li(other.id).count()).toBe(1);
    expect(await li(wasDefault.id).getByRole('button', { name: 'Make default' }).count()).toBe(0);
    await li(other.id).getByRole('button', { name: 'Make default' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain(`Make the card •••• ${other.lastFourDigits} the default?`);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Done.');
    await expect.poll(() => li(other.id).locator('.badge').textContent()).toBe('Default');
    expect(await li(wasDefault.id).locator('.badge').count()).toBe(0);
    expect((await db().savedCard.findUniqueOrThrow({ where: { id: other.id } })).isDefault).toBe(true);

    await li(wasDefault.id).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => li(wasDefault.id).count()).toBe(0);
    expect(await db().savedCard.findUnique({ where: { id: wasDefault.id } })).toBeNull();
    await shot(page, 'dashboard-customer-cards-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the subscription and customer pages at phone width in Turkish: periods and payments as cards, badges in Turkish, nothing scrolls sideways', async () => {
    const { page, problems } = await open(390, 844, { token: seeded.operator, path: 'subscriptions' });
    const row = `tr[data-token="${seeded.subscription}"]`;
    await expect.poll(() => page.locator(`${row} td`).evaluateAll((tds) => tds.map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`)))
      .toEqual(['Referans: KIT-SUB-1', 'Tutar: ₺1.500,00', 'Dönem: aylık', 'Durum: Etkin', 'Müşteri: KIT-CUST-1', expect.stringMatching(/^Dönem sonu: 10\.04\.2026 \d{2}:\d{2}:\d{2}$/)]);
    expect(await page.locator('select[name="status"] option').allTextContents()).toEqual(['Hepsi', 'Bekliyor', 'Etkin', 'Ödemesi gecikti', 'İptal edildi', 'Tamamlandı']);
    await fitsWidth(page, 390);

    await page.locator(`${row} a`).click();
    await expect.poll(() => page.locator('[data-field="subscriptionStatus"]').textContent()).toBe('Etkin');
    expect(await page.locator('tr[data-period="1"] td').evaluateAll((tds) => tds.slice(0, 3).map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`))).toEqual(['No: 1', 'Tutar: ₺1.500,00', 'Durum: Ödendi']);
    expect(await page.getByRole('button', { name: 'Aboneliği iptal et' }).count()).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-subscription-detail-phone.png');

    await page.goto(`${t.gateway.baseUrl}/dashboard/customers/${seeded.customer}`);
    await expect.poll(() => page.locator('[data-field="phone"]').textContent()).toBe('+905550003344');
    const sub = page.locator(`[data-list="customer-subscriptions"] tr[data-token="${seeded.subscription}"] td`);
    expect(await sub.evaluateAll((tds) => tds.slice(0, 3).map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`))).toEqual(['Referans: KIT-SUB-1', 'Tutar: ₺1.500,00 / aylık', 'Durum: Etkin']);
    expect(await page.locator('[data-list="customer-payments"] tbody tr').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('[data-list="customer-payments"] td[data-label="Tutar"]').allTextContents()).toContain('₺2.500,00');
    expect(await page.getByRole('button', { name: 'Sil' }).count()).toBe((await cardsOf()).length);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-customer-detail-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
