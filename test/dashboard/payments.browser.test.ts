// The payments list and the payment page in Chromium, as the reader sees them: money through Intl
// in English and Turkish, statuses as words on badges, times in the workspace's zone (Istanbul,
// while the browser runs in UTC) and said so, filters with readable labels whose days are the
// workspace's days, the loading skeleton (a page's height, so nothing shifts when the rows arrive),
// the error with a working retry, the empty sentences, rows
// as cards on a phone, and the refund and cancel controls shown only to roles that may use them.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { insertPayments } from '../helpers/seed-payments.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from '../subscriptions/support.ts';

warnIfNoChromium('payments.browser.test.ts');

// 15:00 in Istanbul on 10 March 2026.
const { t, merchant: m, merchants, open, seed } = useDashboard({ merchants: { quiet: {} }, now: '2026-03-10T12:00:00Z' });
const seeded = { a: '', b: '', c: '' };

beforeAll(async () => {
  [seeded.a, seeded.b, seeded.c] = await insertPayments(t.databaseUrl, m.workspaceId, [
    { createdAt: '2026-03-10T10:00:00Z', amount: 123456n, channelReference: 'PAY-A' },
    // 01:30 on 10 March in Istanbul, still the 9th in UTC.
    { createdAt: '2026-03-09T22:30:00Z', amount: 5000n, status: 'failed', errorCode: 'insufficient_funds', channelReference: 'PAY-B' },
    { createdAt: '2026-03-08T09:00:00Z', amount: 2000n, currency: 'USD', channelReference: 'PAY-C' },
  ]);
});

const row = (page: Page, token: string) => page.locator(`tr[data-token="${token}"]`);
const rowTokens = (page: Page) => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-token')));
const options = (page: Page, name: string) => page.locator(`select[name="${name}"] option`).allTextContents();

describe.skipIf(!haveChromium)('payments list and payment page in Chromium', { timeout: 120_000 }, () => {
  it('lists money, badges and times in the workspace zone, with readable filters whose days are the workspace days (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'payments' });
    await expect.poll(() => row(page, seeded.a).count()).toBe(1);
    expect(await row(page, seeded.a).locator('[data-field="amount"]').textContent()).toBe('TRY\u00a01,234.56');
    expect(await row(page, seeded.c).locator('[data-field="amount"]').textContent()).toBe('US$20.00');
    expect(await row(page, seeded.a).locator('.badge').allTextContents()).toEqual(['Successful', 'Paid']);
    expect(await row(page, seeded.b).locator('.badge').allTextContents()).toEqual(['Failed']);
    // 10:00 UTC is 13:00 in Istanbul, and the page says which zone.
    expect(await row(page, seeded.a).locator('a').textContent()).toBe('10/03/2026, 13:00:00');
    expect(await page.locator('.zone-note').textContent()).toBe('Times in Europe/Istanbul.');
    expect(await page.locator('main').textContent()).not.toMatch(/successful|partially_refunded/);

    expect(await options(page, 'status')).toEqual(['Any', 'Started (awaiting 3D)', 'Successful', 'Failed', 'Expired', 'Unresolved (no answer)']);
    expect(await options(page, 'paymentStatus')).toEqual(['Any', 'Paid', 'Partially refunded', 'Refunded', 'Cancelled']);
    await page.locator('select[name="status"]').selectOption({ label: 'Failed' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rowTokens(page)).toEqual([seeded.b]);

    // One day, 10 March, in Istanbul: the failed payment at 01:30 there belongs to it.
    await page.locator('select[name="status"]').selectOption('');
    await page.locator('input[name="from"]').fill('2026-03-10');
    await page.locator('input[name="to"]').fill('2026-03-10');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rowTokens(page)).toEqual([seeded.a, seeded.b]);
    await shot(page, 'dashboard-payments-list-desktop.png');

    await page.getByLabel('Reference').fill('NOTHING-LIKE-THIS');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('.empty').textContent()).toBe('Nothing matches this filter; change it and try again.');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows each payment as a card with its labels at phone width, in Turkish', async () => {
    const { page, problems } = await open(390, 844, { path: 'payments' });
    await expect.poll(() => row(page, seeded.a).count()).toBe(1);
    const cells = row(page, seeded.a).locator('td');
    expect(await cells.evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')))).toEqual(['Oluşturulma', 'Tutar', 'Durum', 'Para durumu', 'Kart', 'Müşteri', 'Referans']);
    expect(await row(page, seeded.a).evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    expect(await cells.nth(1).textContent()).toBe('₺1.234,56');
    expect(await row(page, seeded.a).locator('.badge').allTextContents()).toEqual(['Başarılı', 'Ödendi']);
    expect(await cells.nth(0).textContent()).toBe('10.03.2026 13:00:00');
    expect(await page.locator('.zone-note').textContent()).toBe('Saatler Europe/Istanbul saat diliminde.');
    expect(await options(page, 'paymentStatus')).toEqual(['Hepsi', 'Ödendi', 'Kısmen iade edildi', 'İade edildi', 'İptal edildi']);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-payments-list-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('reserves a page of skeleton rows while the list is read, and a failed read offers a retry that works', async () => {
    const { page } = await open(1280, 900, { locale: 'en-GB' });
    await expect.poll(() => page.getByRole('heading', { name: 'Overview', level: 1 }).isVisible()).toBe(true);
    // Hold the list's read until the skeleton is checked (the request itself goes to the gateway).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/graphql\?/, async (route) => {
      if (/query Payments\b/.test(new URL(route.request().url()).searchParams.get('query') ?? '')) await held;
      await route.continue();
    });
    await page.getByRole('link', { name: 'Payments' }).click();
    await expect.poll(() => page.locator('.table-wrap .loading[aria-busy="true"] .skeleton').count()).toBe(20);
    expect(await page.locator('.table-wrap .loading').textContent()).toBe('Loading…');
    release();
    await expect.poll(() => row(page, seeded.a).count()).toBe(1);
    expect(await page.locator('.loading').count()).toBe(0);
    await page.unroute(/\/graphql\?/);

    // A real failure of the list's statement: its table is briefly not there.
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    try {
      await admin.query('ALTER TABLE "Payment" RENAME TO "PaymentAway"');
      await page.reload();
      await expect.poll(() => page.locator('.error-state').isVisible()).toBe(true);
      expect(await page.locator('.error-state strong').textContent()).toBe('Could not load this');
      expect(await page.locator('.empty').count()).toBe(0);
    } finally {
      await admin.query('ALTER TABLE "PaymentAway" RENAME TO "Payment"');
      await admin.end();
    }
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => row(page, seeded.a).count()).toBe(1);
    expect(await page.locator('.error-state').count()).toBe(0);
    await page.context().close();
  });

  it.each([
    { width: 390, height: 844, most: 0.01 },
    { width: 1280, height: 900, most: 0.02 },
  ])('does not shift the page when a full page of rows replaces the skeleton ($width px)', async ({ width, height, most }) => {
    // Without the reserved height the pager jumped down: 0.057 at 390 px, 0.037 at 1280 px.
    const busy = await seed();
    await insertPayments(t.databaseUrl, busy.workspaceId, Array.from({ length: 25 }, (_, i) => ({ createdAt: new Date(Date.parse('2026-03-10T10:00:00Z') - i * 60_000), amount: 10000n + BigInt(i), channelReference: `BUSY-${i}` })));
    const token = await createAccessToken(t.gateway.services.db, busy.team, 'busy');
    const { page } = await open(width, height, { token, locale: 'en-GB', path: 'payments' });
    await expect.poll(() => page.locator('tbody tr').count()).toBe(20);
    await page.addInitScript(() => {
      const shifts: number[] = ((window as unknown as { shifts: number[] }).shifts = []);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) shifts.push(e.value);
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // The list's read answers 600 ms late, as on a slow connection: the skeleton paints first.
    await page.route(/\/graphql\?/, async (route) => {
      if (/query Payments\b/.test(new URL(route.request().url()).searchParams.get('query') ?? '')) await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.reload();
    await expect.poll(() => page.locator('tbody tr').count(), { timeout: 10_000 }).toBe(20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((a, b) => a + b, 0), JSON.stringify(shifts)).toBeLessThan(most);
    await page.context().close();
  });

  it('a workspace without payments says so, in words that help', async () => {
    const token = await createAccessToken(t.gateway.services.db, merchants.quiet.team, 'quiet');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'payments' });
    await expect.poll(() => page.locator('.empty').textContent()).toBe('No payments yet. Payments taken through the API, orders, subscriptions or links appear here.');
    expect(await page.locator('tbody tr').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the payment page: badges, money, times in the zone; a viewer sees no refund or cancel, an operator sees both (desktop, English)', async () => {
    const viewer = await createAccessToken(t.gateway.services.db, m.team, 'viewer', { role: 'viewer' });
    const { page, problems } = await open(1280, 900, { token: viewer, locale: 'en-GB', path: `payments/${seeded.a}` });
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('Successful');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('TRY\u00a01,234.56');
    expect(await page.locator('[data-field="paymentStatus"]').textContent()).toBe('Paid');
    expect(await page.locator('[data-field="refundableAmount"]').textContent()).toBe('TRY\u00a01,234.56');
    expect(await page.locator('[data-field="source"] .badge').allTextContents()).toEqual(['API', 'Without 3-D Secure']);
    expect(await page.locator('[data-field="createdAt"]').textContent()).toBe('10/03/2026, 13:00:00');
    expect(await page.locator('.zone-note').first().textContent()).toBe('Times in Europe/Istanbul.');
    expect(await page.locator('.refund-box').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Refund' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel payment' }).count()).toBe(0);
    await page.context().close();

    const operator = await createAccessToken(t.gateway.services.db, m.team, 'operator', { role: 'operator' });
    const second = await open(1280, 900, { token: operator, locale: 'en-GB', path: `payments/${seeded.a}` });
    await expect.poll(() => second.page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(1);
    expect(await second.page.getByLabel('Refund amount (TRY)').inputValue()).toBe('1234.56');
    expect(await second.page.locator('.refund-box').textContent()).toContain('Up to TRY\u00a01,234.56 can be refunded.');
    expect(await second.page.getByRole('button', { name: 'Refund all that is left (TRY\u00a01,234.56)' }).count()).toBe(1);
    expect(await second.page.getByRole('button', { name: 'Cancel payment' }).count()).toBe(1);
    // A failed payment has nothing to refund: no box, its reason in words.
    await second.page.goto(`${t.gateway.baseUrl}/dashboard/payments/${seeded.b}`);
    await expect.poll(() => second.page.locator('[data-field="status"]').textContent()).toBe('Failed');
    expect(await second.page.locator('[data-field="error"]').textContent()).toBe('Insufficient funds (insufficient_funds)');
    expect(await second.page.locator('.refund-box').count()).toBe(0);
    expect(problems.concat(second.problems)).toEqual([]);
    await second.page.context().close();
  });

  it('an operator cancels an untouched payment after a confirmation; a bank refusing a refund is said once, in words (desktop, English)', async () => {
    const operator = await createAccessToken(t.gateway.services.db, m.team, 'operator', { role: 'operator' });
    const pay = async (reference: string, card: string) => {
      const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference, amount: '100.00' }, card: { number: card } }));
      expect(res.body.result.successful, JSON.stringify(res.body)).toBe(true);
      return res.body.transaction.token as string;
    };
    const untouched = await pay('CANCEL-1', CARDS.approved);
    const { page, problems } = await open(1280, 900, { token: operator, locale: 'en-GB', path: `payments/${untouched}` });
    await page.getByRole('button', { name: 'Cancel payment' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Cancel the whole payment?');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field="paymentStatus"]').textContent()).toBe('Cancelled');
    expect(await page.locator('[data-refund] .badge').allTextContents()).toEqual(['Cancel', 'Succeeded']);
    expect(await page.locator('[data-field="refundableAmount"]').textContent()).toBe('TRY\u00a00.00');
    await expect.poll(() => page.locator('.refund-box').count()).toBe(0);

    // This card's bank rejects every refund: its reason once, above the form; nothing left refunded.
    const rejected = await pay('REFUSED-1', CARDS.refundRejected);
    await page.goto(`${t.gateway.baseUrl}/dashboard/payments/${rejected}`);
    await page.getByRole('button', { name: 'Refund all that is left (TRY\u00a0100.00)' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    const errors = page.locator('.form-errors');
    await expect.poll(() => errors.locator('li').allTextContents()).toEqual(['The bank rejected the refund or cancellation']);
    expect(await page.getByText('The bank rejected the refund or cancellation').count()).toBe(1);
    expect(await page.locator('[data-field-name="amount"] .field-error').count()).toBe(0);
    expect(await page.locator('[data-field="paymentStatus"]').textContent()).toBe('Paid');
    expect(await page.getByLabel('Refund amount (TRY)').inputValue()).toBe('100.00');
    await shot(page, 'dashboard-payment-refused-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("an order's or subscription's payment attempts: money, badges and the zone (desktop, English)", async () => {
    await saveProducts(m, [recurringProduct(m, 'PAY-PLAN')]);
    const { token } = await openSubscription(m, { subscription: { channel_reference: 'PAY-SUB-1', items: [{ channel_reference: 'PAY-PLAN' }] } });
    await payPeriod(t, token);
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: `subscriptions/${token}` });
    const attempt = page.locator('[data-payment]');
    await expect.poll(() => attempt.count()).toBe(1);
    expect(await attempt.locator('.badge').allTextContents()).toEqual(['Successful', 'Paid']);
    expect(await attempt.textContent()).toContain('TRY\u00a0100.00');
    expect(await attempt.locator('..').locator('..').locator('.zone-note').textContent()).toMatch(/^Times in \S+\.$/);
    await attempt.locator('a').click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('Successful');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a payment that does not exist says so instead of an empty page', async () => {
    const { page, problems } = await open(390, 844, { locale: 'en-GB', path: `payments/${randomUUID()}` });
    await expect.poll(() => page.locator('.empty').textContent()).toBe('This payment was not found. Check the address, or open it from the payments list.');
    await fitsWidth(page, 390);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
