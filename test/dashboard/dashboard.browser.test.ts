// The merchant dashboard in a real browser (Debian's Chromium through playwright-core): sign-in
// from the link with the token in the fragment (gone from the address bar at once), a payment made
// through REST appearing in the open list without a reload (graphql-ws), the reference and card
// last-four filters, a partial refund from the detail page, sign-out, the support view;
// screenshots at phone and desktop width in test-artifacts/.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
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
    // Signed out of a token: the token form is open under the e-mail and password one.
    await expect.poll(() => page.getByLabel('Panel erişim anahtarı').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBeNull();
    // Signing in again from the form.
    await page.getByLabel('Panel erişim anahtarı').fill(state.token);
    await page.getByLabel('Panel erişim anahtarı').press('Enter'); // the token form, under the e-mail one
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
    // Money through Intl in English, statuses as words.
    expect(await row.locator('[data-field="amount"]').textContent()).toBe('TRY\u00a0250.00');
    expect(await row.locator('.badge').allTextContents()).toEqual(['Successful', 'Paid']);
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

  it('refunds part of a payment from its detail page at phone width, after a confirmation; the box then offers exactly the remainder', async () => {
    const paid = await pay('DASH-REFUND-1', '100.00');
    const { page, problems } = await open(390, 844);
    await page.locator(`tr[data-token="${paid}"] a[href="/dashboard/payments/${paid}"]`).click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('Başarılı');
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/payments/${paid}`);
    expect(await page.locator('[data-field="card"]').textContent()).toBe('Visa 41111111•••• 1111 AYSE YILMAZ');
    const amount = page.getByLabel('İade tutarı (TRY)');
    const box = page.locator('.refund-box');
    // The whole payment is left: the box starts there and says so.
    expect(await amount.inputValue()).toBe('100.00');
    expect(await box.textContent()).toContain('En fazla ₺100,00 iade edilebilir.');

    await amount.fill('30.00');
    await page.getByRole('button', { name: 'İade et', exact: true }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('₺30,00 iade edilsin mi?');
    // Nothing is refunded before the confirmation.
    expect(await t.gateway.services.db.refund.count({ where: { paymentId: paid } })).toBe(0);
    await page.getByRole('button', { name: 'Onayla' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('İşlem başarılı.');
    await expect.poll(() => page.locator('[data-field="paymentStatus"]').textContent()).toBe('Kısmen iade edildi');
    expect(await page.locator('[data-field="refundedAmount"]').textContent()).toBe('₺30,00');
    const refunds = await t.gateway.services.db.refund.findMany({ where: { paymentId: paid } });
    expect(refunds.map((r) => [r.amount, r.status])).toEqual([[3000n, 'succeeded']]);
    // After a partial refund the box offers exactly what is left.
    await expect.poll(() => amount.inputValue()).toBe('70.00');
    expect(await box.textContent()).toContain('En fazla ₺70,00 iade edilebilir.');
    expect(await page.locator('[data-field="refundableAmount"]').textContent()).toBe('₺70,00');
    expect(await page.getByRole('button', { name: 'Kalanın tamamını iade et (₺70,00)' }).count()).toBe(1);
    // A refunded payment cannot be cancelled: no cancel button any more.
    expect(await page.getByRole('button', { name: 'İptal et' }).count()).toBe(0);

    // More than what is left: the contract's message next to the amount, once, no internal path; nothing written.
    await amount.fill('80.00');
    await page.getByRole('button', { name: 'İade et', exact: true }).click();
    await page.getByRole('button', { name: 'Onayla' }).click();
    const fieldError = page.locator('[data-field-name="amount"] .field-error');
    await expect.poll(() => fieldError.textContent()).toBe('İade tutarı iade edilebilir tutarı aşamaz.');
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('İade tutarı iade edilebilir tutarı aşamaz.').count()).toBe(1);
    expect(await box.textContent()).not.toMatch(/amount:/);
    expect(await t.gateway.services.db.refund.count({ where: { paymentId: paid } })).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-payment-phone.png');

    // The rest in one click (and the confirmation).
    await page.getByRole('button', { name: 'Kalanın tamamını iade et (₺70,00)' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('₺70,00 iade edilsin mi?');
    await page.getByRole('button', { name: 'Onayla' }).click();
    await expect.poll(() => page.locator('[data-field="paymentStatus"]').textContent()).toBe('İade edildi');
    expect((await t.gateway.services.db.refund.findMany({ where: { paymentId: paid }, orderBy: { createdAt: 'asc' } })).map((r) => r.amount)).toEqual([3000n, 7000n]);
    // Nothing left: no refund form.
    await expect.poll(() => page.locator('.refund-box').count()).toBe(0);
    expect(await page.locator('[data-field="refundableAmount"]').textContent()).toBe('₺0,00');
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
    await page.locator(`tr[data-token="${paid}"] a[href="/dashboard/payments/${paid}"]`).click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('Başarılı');
    expect(await page.getByRole('button', { name: 'İade et' }).count()).toBe(0);
    expect(await page.locator('.refund-box').count()).toBe(0);
    await page.context().close();
  });
});
