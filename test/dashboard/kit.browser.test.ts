// The dashboard's shell and kit in Chromium: why a token was refused (unknown, or revoked while
// in use), a sign-in link pasted into an open tab, the phone menu, a ListTable as cards on a phone
// and as a table on a desktop, and the kit's gallery (badges, fields with their own errors, copy,
// QR) under the dashboard's Content-Security-Policy. Also reads a real createPaymentLink answer
// to check which form field its error paths name.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { revokeAccessToken } from '../../src/domain/access-tokens.ts';
import { hashToken } from '../../src/domain/secrets.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { paymentBody } from '../helpers/payments.ts';
import { splitErrors } from '../../dashboard/src/kit/field-errors.ts';

warnIfNoChromium('kit.browser.test.ts');

const { t, merchant: m, state, open } = useDashboard();
const db = () => t.gateway.services.db;
const signInField = 'Panel erişim anahtarı';

async function addCustomer(reference: string) {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `PAY-${reference}` }, customer: { channel_reference: reference, firstname: 'Zeynep', lastname: 'Kaya', email: 'zeynep.kaya.with.a.long.address@example.org' } }));
  expect(res.body.result.successful).toBe(true);
}

describe('a mutation error names the form field after its input object', () => {
  it('createPaymentLink answers paymentLink.items.0.name, which a form field "items.0.name" takes', async () => {
    const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await createAccessToken(db(), m.team, 'kit paths')}` },
      body: JSON.stringify({
        query: 'mutation($input: CreatePaymentLinkInput!) { createPaymentLink(input: $input) { result { successful message } errors { path message } } }',
        variables: { input: { paymentLink: { currency: 'TRY', amountType: 'fixed', items: [{ name: '', quantity: 1, unitAmount: '10.00' }] } } },
      }),
    });
    const body = (await res.json()) as { data: { createPaymentLink: { result: { successful: boolean }; errors: { path: string[]; message: string }[] } } };
    const answer = body.data.createPaymentLink;
    expect(answer.result.successful).toBe(false);
    expect(answer.errors.map((e) => e.path.join('.'))).toContain('paymentLink.items.0.name');
    const split = splitErrors(answer, new Set(['items.0.name']));
    expect(split.byField.get('items.0.name')).toHaveLength(1);
    expect(split.general.join(' ')).not.toContain('paymentLink.');
  });
});

describe.skipIf(!haveChromium)('dashboard shell and kit in Chromium', { timeout: 120_000 }, () => {
  it('an unknown token: the sign-in page says it was not recognised', async () => {
    const { page, problems } = await open(1280, 800, { token: 'dash_' + '0'.repeat(64) });
    await expect.poll(() => page.getByLabel(signInField).isVisible()).toBe(true);
    expect(await page.getByRole('alert').textContent()).toContain('Bu erişim anahtarı tanınmadı');
    expect(await page.getByRole('alert').getAttribute('data-refusal')).toBe('invalid');
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBeNull();
    expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    await page.context().close();
  });

  it('a token revoked while in use: the next answer signs out and says the session ended (English)', async () => {
    const token = await createAccessToken(db(), m.team, 'kit revoke');
    const { page } = await open(1280, 800, { token, locale: 'en-GB', path: 'customers' });
    await expect.poll(() => page.getByRole('heading', { name: 'Customers' }).isVisible()).toBe(true);
    // The list's own query answered too: revoking earlier would refuse it, not the next one.
    await expect.poll(() => page.locator('.table-wrap .empty, tbody tr').count()).toBeGreaterThan(0);
    const row = await db().accessToken.findFirstOrThrow({ where: { tokenHash: hashToken(token) } });
    await revokeAccessToken(db(), row.id, { clock: t.clock });
    await page.getByRole('link', { name: 'Orders' }).click();
    await expect.poll(() => page.getByLabel('Dashboard access token').isVisible()).toBe(true);
    expect(await page.getByRole('alert').textContent()).toContain('the access token has expired or was revoked');
    await page.context().close();
  });

  it('a sign-in link pasted into an open tab signs in with its token and leaves the address bar clean', async () => {
    const second = await createAccessToken(db(), m.team, 'kit pasted');
    const { page, requests } = await open(1280, 800, { path: 'customers' });
    await expect.poll(() => page.getByRole('heading', { name: 'Müşteriler' }).isVisible()).toBe(true);
    const before = requests.length;
    await page.evaluate((tok) => (location.hash = `#token=${encodeURIComponent(tok)}`), second);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBe(second);
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/customers`);
    await expect.poll(() => requests.slice(before).some((r) => r.authorization === `Bearer ${second}`)).toBe(true);
    expect(requests.slice(before).filter((r) => r.url.endsWith('/graphql')).every((r) => r.authorization === `Bearer ${second}`)).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'Müşteriler' }).isVisible()).toBe(true);

    // Also from the sign-in page, after signing out.
    await page.getByRole('button', { name: 'Çıkış yap' }).click();
    await expect.poll(() => page.getByLabel(signInField).isVisible()).toBe(true);
    await page.evaluate((tok) => (location.hash = `#token=${encodeURIComponent(tok)}`), state.token);
    await expect.poll(() => page.getByRole('button', { name: 'Çıkış yap' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.getItem('dashboard.token'))).toBe(state.token);
    expect(new URL(page.url()).hash).toBe('');
    await page.context().close();
  });

  it('on a phone the navigation sits behind a menu button that closes on navigation and on Escape', async () => {
    const { page, problems } = await open(390, 844, { path: 'customers' });
    const menu = page.getByRole('button', { name: 'Menü' });
    const nav = page.locator('#shell-nav');
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Çıkış yap' }).isVisible()).toBe(false);
    // The header stays short and the search box stays at hand.
    expect((await page.locator('header').boundingBox())!.height).toBeLessThan(120);
    expect(await page.locator('input[name="q"]').isVisible()).toBe(true);
    await fitsWidth(page, 390);

    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await nav.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Çıkış yap' }).isVisible()).toBe(true);
    await fitsWidth(page, 390);
    await shot(page, 'kit-phone-menu.png');
    await nav.getByRole('link', { name: 'Siparişler' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Siparişler', level: 1 }).isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);

    await menu.click();
    expect(await nav.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await nav.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('menu-button');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a ListTable is a table on a desktop and labelled cards on a phone; nothing scrolls sideways', async () => {
    await addCustomer('KIT-CUST-1');
    const desktop = await open(1280, 800, { path: 'customers' });
    const row = (p: typeof desktop.page) => p.locator('tbody tr').filter({ hasText: 'KIT-CUST-1' });
    await expect.poll(() => row(desktop.page).count()).toBe(1);
    expect(await desktop.page.locator('thead').isVisible()).toBe(true);
    expect(await row(desktop.page).evaluate((tr) => getComputedStyle(tr).display)).toBe('table-row');
    await fitsWidth(desktop.page, 1280);
    expect(await desktop.page.locator('.zone-note').textContent()).toMatch(/^Saatler \S+ saat diliminde\.$/);
    await desktop.page.context().close();

    const { page, problems } = await open(390, 844, { path: 'customers' });
    await expect.poll(() => row(page).count()).toBe(1);
    expect(await row(page).evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    const cells = row(page).locator('td');
    expect(await cells.evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')))).toEqual(['Ad', 'E-posta', 'Referans', 'Ödeme sayısı', 'Oluşturulma']);
    // The label is drawn before the value, on the cell's own line.
    expect(await cells.nth(1).evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"E-posta"');
    const [a, b] = [await cells.nth(0).boundingBox(), await cells.nth(1).boundingBox()];
    expect(b!.y).toBeGreaterThan(a!.y);
    await fitsWidth(page, 390);
    await shot(page, 'kit-customers-cards-phone.png');

    // An empty filtered list says so in a sentence.
    await page.getByLabel('Referans').fill('NO-SUCH-CUSTOMER');
    await page.getByRole('button', { name: 'Filtrele' }).click();
    await expect.poll(() => page.locator('.empty').textContent()).toBe('Bu filtreye uyan kayıt yok; filtreyi değiştirip yeniden deneyin.');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the kit gallery: badges say their status, fields show their own errors once, copy and QR work under the CSP', async () => {
    const { page, problems } = await open(1280, 800, { path: 'kit', locale: 'en-GB' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await expect.poll(() => page.getByRole('heading', { name: 'Kit' }).isVisible()).toBe(true);
    const badge = page.locator('[data-kind="payment"] [data-status="unresolved"]');
    expect(await badge.textContent()).toBe('Unresolved (no answer)');
    expect(await badge.getAttribute('data-tone')).toBe('warning');
    expect(await page.locator('[data-kind="capability"] .badge').count()).toBe(8);
    expect((await page.locator('[data-sample="money"]').textContent())!.replace(/\s/g, ' ')).toBe('TRY 12,345,678,901,234.56');
    expect(await page.locator('[data-sample="dateTime"]').textContent()).toBe('05/03/2026, 00:30:00');
    expect(await page.locator('.loading').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.loading .sr-only').textContent()).toBe('Loading…');

    await page.getByRole('button', { name: 'Try again' }).click();
    expect(await page.locator('.error-state p').textContent()).toBe('sample (1)');

    await page.getByRole('button', { name: 'Save' }).click();
    const name = page.getByLabel('Item name');
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    const described = (await name.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('sample: name is required');
    const rate = page.getByLabel('VAT rate (%)');
    expect(await rate.getAttribute('aria-invalid')).toBe('true');
    expect((await rate.getAttribute('aria-describedby'))!.split(' ')).toHaveLength(2);
    expect(await page.getByLabel('Reference').getAttribute('aria-invalid')).toBeNull();
    // A fieldset's error sits under its legend and describes the group.
    const group = page.locator('fieldset[data-field-name="currencies"]');
    expect(await group.locator('.field-error').textContent()).toBe('sample: choose another currency');
    expect(await page.locator(`[id="${await group.getAttribute('aria-describedby')}"]`).textContent()).toBe('sample: choose another currency');
    const form = await page.locator('form.card').textContent();
    // Each message once, the general one at the top, never an internal path.
    expect(form!.split('sample: name is required')).toHaveLength(2);
    expect(await page.locator('.form-errors li').allTextContents()).toEqual(['sample: the workspace plan has no payment links']);
    expect(form).not.toContain('paymentLink');

    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.copy [role="status"]').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('https://example.com/pay/sample');
    const qr = page.getByRole('img', { name: 'QR code: https://example.com/pay/sample' });
    expect(await qr.evaluate((svg) => svg.tagName)).toBe('svg');
    expect((await qr.locator('path').getAttribute('d'))!.length).toBeGreaterThan(500);
    await shot(page, 'kit-gallery-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
