// The merchant dashboard in a real browser (Debian's Chromium through playwright-core): sign-in
// from the link with the token in the fragment (gone from the address bar at once), a payment made
// through REST appearing in the open list without a reload (graphql-ws), the reference and card
// last-four filters, a partial refund from the detail page, sign-out, the support view;
// screenshots at phone and desktop width in test-artifacts/.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { createAccessToken } from '../../src/domain/workspaces.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';

warnIfNoChromium('dashboard.browser.test.ts');

const { t, merchant: m, state, open: openAt, pay } = useDashboard();
// The payments list (the landing page is the overview).
const open = (width: number, height: number, token?: string, locale?: string) => openAt(width, height, { token, locale, path: 'payments' });

describe.skipIf(!haveChromium)('merchant dashboard in Chromium', { timeout: 120_000 }, () => {
  it('signs in from the link, drops the token from the URL, and sends it only as a bearer header', async () => {
    const { page, problems, requests } = await open(1280, 800);
    await expect.poll(() => page.locator('header strong').textContent()).toMatch(/^ws\w+ \(test\)$|^\S+ \((test|live)\)$/);
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/payments`);
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBe(state.token);
    for (const r of requests) expect(r.url).not.toContain(state.token);
    const graphql = requests.filter((r) => r.url.startsWith(`${t.gateway.baseUrl}/graphql`));
    expect(graphql.length).toBeGreaterThan(0);
    for (const r of graphql) expect(r.authorization).toBe(`Bearer ${state.token}`);
    expect(await page.getAttribute('html', 'lang')).toBe('tr');
    expect(problems).toEqual([]);

    await page.getByRole('button', { name: 'Çıkış yap' }).click();
    await expect.poll(() => page.getByLabel('Panel erişim anahtarı').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBeNull();
    // Signing in again from the form.
    await page.getByLabel('Panel erişim anahtarı').fill(state.token);
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Ödemeler' }).isVisible()).toBe(true);
    await page.context().close();
  });

  it('a bad token goes back to the sign-in form', async () => {
    const { page } = await open(1280, 800, 'dash_' + '0'.repeat(64));
    await expect.poll(() => page.getByLabel('Panel erişim anahtarı').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBeNull();
    await page.context().close();
  });

  it('a payment made through REST appears in the open list without a reload (desktop, English)', async () => {
    const first = await pay('DASH-LIVE-1');
    const { page, problems } = await open(1280, 800, undefined, 'en-GB');
    expect(await page.getByLabel('Language').inputValue()).toBe('en');
    await expect.poll(() => page.locator(`tr[data-token="${first}"]`).count()).toBe(1);
    let navigations = 0;
    page.on('framenavigated', () => navigations++);

    // A second later: with the test's manual clock, "newest first" needs distinct creation times.
    t.clock.advance(1_000);
    const second = await pay('DASH-LIVE-2', '250.00');
    await expect.poll(() => page.locator(`tr[data-token="${second}"]`).count(), { timeout: 10_000 }).toBe(1);
    const row = page.locator(`tr[data-token="${second}"]`);
    expect(await row.textContent()).toContain('250.00 TRY');
    expect(await row.textContent()).toMatch(/4111\d{2,4}•••• 1111/);
    expect(await row.textContent()).toContain('DASH-LIVE-2');
    // Newest first, and no reload happened.
    expect(await page.locator('tbody tr').first().getAttribute('data-token')).toBe(second);
    expect(navigations).toBe(0);
    await shot(page, 'dashboard-payments-desktop.png');

    // Filter by reference.
    await page.getByLabel('Reference').fill('DASH-LIVE-1');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().getAttribute('data-token'), await page.locator('tbody').textContent() + ' ' + first + ' ' + second).toBe(first);

    // Filter by the card's last four digits: a mastercard payment alone.
    t.clock.advance(1_000);
    const mc = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'DASH-LAST4' }, card: { number: CARDS.mastercard } }));
    expect(mc.body.result.successful).toBe(true);
    await page.getByLabel('Reference').fill('');
    await page.getByLabel('Card last four').fill('4444');
    await page.getByRole('button', { name: 'Filter' }).click();
    // The reference filter's list also had one row: wait for the new list, not for a count.
    await expect.poll(() => page.locator('tbody tr').first().getAttribute('data-token')).toBe(mc.body.transaction.token);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Card last four').fill('1111');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator(`tr[data-token="${mc.body.transaction.token}"]`).count()).toBe(0);
    expect(await page.locator(`tr[data-token="${first}"]`).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('refunds part of a payment from its detail page at phone width, after a confirmation', async () => {
    const paid = await pay('DASH-REFUND-1', '100.00');
    const { page, problems } = await open(390, 844);
    await page.locator(`tr[data-token="${paid}"] a`).click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('successful');
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/payments/${paid}`);

    await page.getByLabel('İade tutarı (TRY)').fill('30.00');
    await page.getByRole('button', { name: 'İade et' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('30.00 TRY iade edilsin mi?');
    // Nothing is refunded before the confirmation.
    expect(await t.gateway.services.db.refund.count({ where: { paymentId: paid } })).toBe(0);
    await page.getByRole('button', { name: 'Onayla' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('İşlem başarılı.');
    await expect.poll(() => page.locator('[data-field="paymentStatus"]').textContent()).toBe('partially_refunded');
    expect(await page.locator('[data-field="refundedAmount"]').textContent()).toBe('30.00 TRY');
    const refunds = await t.gateway.services.db.refund.findMany({ where: { paymentId: paid } });
    expect(refunds.map((r) => [r.amount, r.status])).toEqual([[3000n, 'succeeded']]);

    // More than what is left: the contract's error, nothing written.
    await page.getByLabel('İade tutarı (TRY)').fill('80.00');
    await page.getByRole('button', { name: 'İade et' }).click();
    await page.getByRole('button', { name: 'Onayla' }).click();
    await expect.poll(() => page.getByRole('status').getAttribute('class')).toBe('error');
    expect(await t.gateway.services.db.refund.count({ where: { paymentId: paid } })).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-payment-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a support token sees the read-only support view without refund buttons', async () => {
    const paid = await pay('DASH-SUPPORT-1');
    const support = await createAccessToken(t.gateway.services.db, null, 'support test', { clock: t.clock });
    const { page } = await open(1280, 800, support);
    await expect.poll(() => page.locator('header strong').textContent()).toBe('Destek görünümü (salt okunur)');
    await page.getByLabel('Çalışma alanı').selectOption(m.team);
    await expect.poll(() => page.locator(`tr[data-token="${paid}"]`).count()).toBe(1);
    await page.locator(`tr[data-token="${paid}"] a`).click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('successful');
    expect(await page.getByRole('button', { name: 'İade et' }).count()).toBe(0);
    await page.context().close();
  });
});
