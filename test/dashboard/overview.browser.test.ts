// The overview landing page in Chromium: headline figures and the daily table formatted through
// Intl in the reader's language (tr-TR, en-GB), the chart drawn, decline reasons, the 7/30-day
// switch and the currency filter, the loading, empty and error states (with a retry); desktop and phone width (nothing scrolls
// sideways); the figures following payments made through the REST API live, a burst of them
// being at most two refetches. And the payments list's "Export CSV" link: its address carries the filters shown, and
// a click downloads that CSV (the token sent as a header, never in an address). Screenshots in
// test-artifacts/.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { insertPayments } from '../helpers/seed-payments.ts';
import pg from 'pg';
import { paymentBody } from '../helpers/payments.ts';
import { REFRESH_MS } from '../../dashboard/src/overview/live.ts';

warnIfNoChromium('overview.browser.test.ts');

// 15:00 in Istanbul on 10 March 2026: the 7-day period is 4-10 March.
const { t, merchant: m, merchants, open, seed } = useDashboard({ merchants: { quiet: {} }, now: '2026-03-10T12:00:00Z' });

beforeAll(async () => {
  await insertPayments(t.databaseUrl, m.workspaceId, [
    { createdAt: '2026-03-04T09:00:00Z', amount: 123450n, refunds: [{ amount: 1000n, at: '2026-03-09T09:00:00Z' }] },
    { createdAt: '2026-03-03T09:00:00Z', amount: 10000n }, // 3 March: only in the 30-day period
    { createdAt: '2026-03-05T09:00:00Z', amount: 5000n, status: 'failed', errorCode: 'insufficient_funds' },
    { createdAt: '2026-03-06T09:00:00Z', amount: 5000n, status: 'failed', errorCode: 'insufficient_funds' },
    { createdAt: '2026-03-06T10:00:00Z', amount: 2000n, currency: 'USD', channelReference: 'EXPORT-ME' },
  ]);
});

/** The text of figure `name` in the block of `currency`. */
const figure = (page: Page, currency: string, name: string) => page.locator(`[data-currency="${currency}"] [data-figure="${name}"]`).textContent();
/** What the page's own Intl makes of an amount, for the reader's locale. */
const intlMoney = (page: Page, locale: string, amount: number, currency: string) =>
  page.evaluate(([l, a, c]) => new Intl.NumberFormat(l as string, { style: 'currency', currency: c as string }).format(a as number), [locale, amount, currency] as const);

describe.skipIf(!haveChromium)('overview in Chromium', { timeout: 120_000 }, () => {
  it('is the landing page: figures per currency, a chart, the daily table and decline reasons (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await expect.poll(() => page.getByRole('heading', { name: 'Overview', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => figure(page, 'TRY', 'volume')).toBe(await intlMoney(page, 'en-GB', 1234.5, 'TRY'));
    expect(await figure(page, 'TRY', 'volume')).toContain('1,234.50');
    expect(await figure(page, 'TRY', 'count')).toBe('1');
    expect(await figure(page, 'TRY', 'successRate')).toBe('33.3%');
    expect(await figure(page, 'TRY', 'refunds')).toBe(`${await intlMoney(page, 'en-GB', 10, 'TRY')} (1)`);
    expect(await figure(page, 'USD', 'volume')).toBe(await intlMoney(page, 'en-GB', 20, 'USD'));
    // Never one total across currencies.
    expect(await page.locator('[data-currency]').count()).toBe(2);
    // The chart is drawn, and hidden from screen readers; the table carries the same figures.
    await expect.poll(() => page.locator('[data-chart="TRY"] canvas').count()).toBe(1);
    expect(await page.locator('[data-chart="TRY"]').getAttribute('aria-hidden')).toBe('true');
    const rows = page.locator('[data-currency="TRY"] tbody tr');
    expect(await rows.count()).toBe(7);
    const row = page.locator('[data-currency="TRY"] tr[data-date="2026-03-04"]');
    expect(await row.locator('th').textContent()).toBe('4 Mar');
    expect(await row.locator('td').first().textContent()).toContain('1,234.50');
    // Decline reasons in the reader's words, with their codes.
    expect(await page.locator('table.declines tr[data-code="insufficient_funds"] td').allTextContents()).toEqual(['Insufficient funds', 'insufficient_funds', '2']);
    await shot(page, 'dashboard-overview-desktop.png');

    // 30 days reach 3 March.
    await page.getByLabel('Last 30 days').check();
    await expect.poll(() => figure(page, 'TRY', 'volume')).toContain('1,334.50');
    expect(await page.locator('[data-currency="TRY"] tbody tr').count()).toBe(30);
    // One currency.
    await page.getByLabel('Currency').selectOption('USD');
    await expect.poll(() => page.locator('[data-currency]').count()).toBe(1);
    expect(await page.locator('[data-currency]').getAttribute('data-currency')).toBe('USD');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('formats in Turkish and fits a phone screen', async () => {
    const { page, problems } = await open(390, 844, { locale: 'tr-TR' });
    await expect.poll(() => page.getByRole('heading', { name: 'Genel bakış', level: 1 }).isVisible()).toBe(true);
    await expect.poll(() => figure(page, 'TRY', 'volume')).toBe(await intlMoney(page, 'tr-TR', 1234.5, 'TRY'));
    expect(await figure(page, 'TRY', 'volume')).toContain('1.234,50');
    expect(await figure(page, 'TRY', 'successRate')).toMatch(/^%33,3$/);
    expect(await page.locator('table.declines tr[data-code="insufficient_funds"] td').first().textContent()).toBe('Yetersiz bakiye');
    expect(await page.locator('[data-currency="TRY"] tr[data-date="2026-03-04"] th').textContent()).toBe('4 Mar');
    await expect.poll(() => page.locator('[data-chart="TRY"] canvas').count()).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-overview-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says so when the period has no payments', async () => {
    const token = await createAccessToken(t.gateway.services.db, merchants.quiet.team, 'quiet');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB' });
    await expect.poll(() => page.getByText('No payments in this period.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.locator('[data-currency]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows an error with a retry, not empty figures, when they cannot be read; the retry reads them', async () => {
    // A real failure of the overview's refunds statement: its table is briefly not there.
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    await admin.query('ALTER TABLE "Refund" RENAME TO "RefundAway"');
    let page: Page | undefined;
    try {
      page = (await open(1280, 900, { locale: 'en-GB' })).page;
      await expect.poll(() => page!.locator('.error-state').isVisible(), { timeout: 10_000 }).toBe(true);
      expect(await page.locator('.error-state strong').textContent()).toBe('Could not load this');
      expect(await page.locator('[data-currency]').count()).toBe(0);
      expect(await page.getByText('No payments in this period.').count()).toBe(0);
    } finally {
      await admin.query('ALTER TABLE "RefundAway" RENAME TO "Refund"');
      await admin.end();
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('[data-currency]').count()).toBe(2);
    expect(await page.locator('.error-state').count()).toBe(0);
    await page.context().close();
  });

  it('shows skeleton rows, not a lone ellipsis, while the figures load', async () => {
    const { page } = await open(1280, 900, { locale: 'en-GB', path: 'payments' });
    await expect.poll(() => page.getByRole('heading', { name: 'Payments', level: 1 }).isVisible()).toBe(true);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/graphql\?/, async (route) => {
      if (/query Overview\b/.test(new URL(route.request().url()).searchParams.get('query') ?? '')) await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect.poll(() => page.locator('section .loading[aria-busy="true"] .skeleton').count()).toBeGreaterThan(0);
    expect(await page.locator('section .loading').textContent()).toBe('Loading…');
    release();
    await expect.poll(() => page.locator('[data-currency]').count()).toBe(2);
    expect(await page.locator('.loading').count()).toBe(0);
    await page.context().close();
  });

  it('follows payments live: the figures change without a reload, and a burst of payments is at most two refetches', async () => {
    const live = await seed();
    const token = await createAccessToken(t.gateway.services.db, live.team, 'live overview');
    const pay = async (reference: string) => {
      const res = await live.call('regular-payment', paymentBody(live, { transaction: { channel_reference: reference, amount: '10.00' } }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB' });
    const refetches: number[] = [];
    page.on('request', (r) => {
      // urql sends a query as GET while it fits an address.
      if (new URL(r.url()).pathname === '/graphql' && /query Overview\b/.test(new URL(r.url()).searchParams.get('query') ?? r.postData() ?? '')) refetches.push(Date.now());
    });
    let subscribed = false;
    page.on('websocket', (ws) => ws.on('framesent', (f) => (subscribed ||= String(f.payload).includes('OverviewEvents'))));
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    await expect.poll(() => page.getByText('No payments in this period.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => subscribed).toBe(true);

    await pay('LIVE-1');
    await expect.poll(() => figure(page, 'TRY', 'count'), { timeout: 10_000 }).toBe('1');
    expect(await figure(page, 'TRY', 'volume')).toBe(await intlMoney(page, 'en-GB', 10, 'TRY'));

    // Three payments at once, after the throttle's wait: one refetch for the first event, at most one more for the rest.
    await new Promise((resolve) => setTimeout(resolve, REFRESH_MS));
    const before = refetches.length;
    await Promise.all(['LIVE-2', 'LIVE-3', 'LIVE-4'].map(pay));
    await expect.poll(() => figure(page, 'TRY', 'count'), { timeout: 10_000 }).toBe('4');
    await new Promise((resolve) => setTimeout(resolve, REFRESH_MS + 500));
    expect(refetches.length - before).toBeGreaterThanOrEqual(1);
    expect(refetches.length - before).toBeLessThanOrEqual(2);
    expect(await figure(page, 'TRY', 'volume')).toBe(await intlMoney(page, 'en-GB', 40, 'TRY'));
    expect(navigations).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the payments list exports what its filters show as CSV (phone width)', async () => {
    const { page, problems, requests } = await open(390, 844, { locale: 'en-GB', path: 'payments' });
    const link = page.getByRole('link', { name: 'Export CSV' });
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/payments.csv');
    await page.getByLabel('Reference').fill('EXPORT-ME');
    await page.locator('select[name="status"]').selectOption('successful');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/payments.csv?status=successful&channelReference=EXPORT-ME');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe(`payments-${m.team}-2026-03-10.csv`);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',20.00,0.00,USD,');
    expect(lines[1]).toContain('EXPORT-ME');
    const fetched = requests.find((r) => r.url.includes('/dashboard/export/'));
    expect(fetched?.authorization).toMatch(/^Bearer /);
    for (const r of requests) expect(r.url).not.toContain(fetched!.authorization!.slice(7));
    await fitsWidth(page, 390);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the orders, subscriptions, payment links, customers, products and notifications lists' export links carry their filters", async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'orders' });
    const link = page.getByRole('link', { name: 'Export CSV' });
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/orders.csv');
    await page.locator('select[name="status"]').selectOption('paid');
    await page.getByLabel('Reference').fill('ORD-7');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/orders.csv?status=paid&channelReference=ORD-7');
    // The subscriptions list the same way.
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.locator('select[name="status"]').selectOption('past_due');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/subscriptions.csv?status=past_due');
    // Payment links: open or closed, and the reference.
    await page.getByRole('link', { name: 'Payment links' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/links.csv');
    await page.locator('select[name="linkState"]').selectOption('closed');
    await page.getByLabel('Reference').fill('LINK-7');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/links.csv?isActive=false&reference=LINK-7');
    // Customers: the reference.
    await page.getByRole('link', { name: 'Customers' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/customers.csv');
    await page.getByLabel('Reference').fill('CUST-7');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/customers.csv?channelReference=CUST-7');
    // Products: on sale or not, and the reference.
    await page.getByRole('link', { name: 'Products' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/products.csv');
    await page.locator('select[name="onSale"]').selectOption('off');
    await page.getByLabel('Reference').fill('SKU-7');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/products.csv?isActive=false&channelReference=SKU-7');
    // Webhook notifications: the status and the record, as the list below shows them.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/notifications.csv');
    await page.locator('select[name="notificationStatus"]').selectOption('failed');
    await expect.poll(() => link.getAttribute('href')).toBe('/dashboard/export/notifications.csv?status=failed');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
