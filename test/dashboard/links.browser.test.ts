// The payment links screens in Chromium: a link of each amount type created in the dashboard is
// found by the REST retrieve-payment-links operation; the fixed one is paid on its hosted page and
// the payment shows on its detail page, which offers the page's address to copy and as a QR code;
// closing it there closes it for the API. Bad input shows each error under its field, once, in the
// reader's words. Statuses are badges, amounts and dates Intl-formatted in the chosen language; a
// viewer sees no write control, an operator does. Screenshots at both widths.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { answerAcs, GOOD_CARD } from '../helpers/checkout.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('links.browser.test.ts');

const { t, merchant: m, open } = useDashboard();
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };
/** Intl puts no-break spaces in money ("TRY 340.00"); tests compare with plain ones. */
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

async function linkByReference(reference: string) {
  const res = await m.call('retrieve-payment-links', { reference }, ts);
  expect(res.status).toBe(200);
  return res.body.payment_links as Array<Record<string, unknown>>;
}

async function createLink(reference: string, items: Array<{ name: string; unit_amount: string }>) {
  const res = await m.call('create-payment-link', { payment_link: { currency: 'TRY', reference, items } }, ts);
  expect(res.status).toBe(200);
  return res.body.payment_link.token as string;
}

/** Submits the new-link form and waits for the new link's page; its token. */
async function submitLink(page: Page, create: string): Promise<string> {
  await page.getByRole('button', { name: create, exact: true }).click();
  await page.waitForURL(/\/dashboard\/links\/[0-9a-f-]{36}$/);
  return page.url().split('/').at(-1)!;
}

/** The error shown under the field labelled `label` ('' when none). */
async function fieldError(page: Page, label: string): Promise<string> {
  const field = page.locator('.field').filter({ has: page.getByLabel(label, { exact: true }) });
  const error = field.locator('.field-error');
  return (await error.count()) ? ((await error.textContent()) ?? '') : '';
}

describe.skipIf(!haveChromium)('payment links screens in Chromium', { timeout: 180_000 }, () => {
  it('a fixed link created in the dashboard is found by retrieve-payment-links, paid on its page, shared by copy and QR, and closed', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('link', { name: 'New payment link' }).click();
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/links/new`);
    await page.getByLabel('Item name 1').fill('Seramik kupa');
    await page.getByLabel('Quantity 1').fill('2');
    await page.getByLabel('Unit price (VAT included) 1').fill('150.00');
    await page.getByLabel('VAT rate (%) 1').fill('20');
    await page.getByRole('button', { name: 'Add an item' }).click();
    await page.getByLabel('Item name 2').fill('Kargo');
    await page.getByLabel('Unit price (VAT included) 2').fill('1040.00');
    await page.getByLabel('Reference').fill('DASH-LINK-1');
    await page.getByLabel('Description').fill('Dashboard link');
    const token = await submitLink(page, 'Create');
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Open');
    expect(await page.locator('[data-field="linkState"] .badge').getAttribute('data-tone')).toBe('success');
    expect(plain(await page.locator('[data-field="linkAmount"]').textContent())).toBe('TRY 1,340.00 (Subtotal TRY 1,290.00, VAT TRY 50.00)');
    expect(await page.locator('tr[data-item="0"]').evaluate((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent!.replace(/[\u00a0\u202f]/g, ' ')))).toEqual(['Seramik kupa', '2', 'TRY 150.00', '20%']);
    expect(await page.locator('main').textContent()).toMatch(/Times in [A-Za-z_/]+\./);

    const [found] = await linkByReference('DASH-LINK-1');
    expect(found).toMatchObject({ token, amount_type: 'fixed', amount: '1340.00', currency: 'TRY', description: 'Dashboard link', is_active: true });
    expect((found!.items as unknown[]).length).toBe(2);
    const checkoutUrl = found!.checkout_url as string;
    expect(await page.locator('[data-field="checkoutUrl"]').textContent()).toBe(checkoutUrl);
    // The address to share: copied to the clipboard, and drawn as a QR code of the same address.
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.copy [role="status"]').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(checkoutUrl);
    expect(await page.getByRole('img', { name: `QR code: ${checkoutUrl}` }).evaluate((svg) => svg.tagName)).toBe('svg');
    expect(await page.getByText('No payments through this link yet.').count()).toBe(1);

    // Paid on its hosted page (with 3D), as a payer's browser without JavaScript does.
    const body = new URLSearchParams({ ...GOOD_CARD, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' }).toString();
    const started = await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
    expect(started.status).toBe(303);
    await answerAcs(t.gateway.baseUrl, started.headers.get('location')!, 'approve');
    const [paid] = await linkByReference('DASH-LINK-1');
    expect(paid).toMatchObject({ transactions_count: 1 });
    expect((paid!.transactions as Array<Record<string, unknown>>)[0]).toMatchObject({ status: 'successful', amount: '1340.00' });

    await page.reload();
    await expect.poll(() => page.locator('[data-link-payment]').count()).toBe(1);
    const cells = await page.locator('[data-link-payment] td').allTextContents();
    expect(cells.slice(0, 4).map(plain)).toEqual([expect.stringMatching(/^LINKPAY\d+$/), 'Paid', 'TRY 1,340.00', 'Ayşe Yılmaz']);
    expect(cells[4]).toMatch(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
    await shot(page, 'dashboard-link-desktop.png');

    await page.getByRole('button', { name: 'Close the link' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Close the link?');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Closed');
    expect(await page.getByRole('status').filter({ hasText: 'Done.' }).count()).toBe(1);
    expect(await page.getByText('The link is closed; its payment page takes no payments.').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    const [closed] = await linkByReference('DASH-LINK-1');
    expect(closed).toMatchObject({ is_active: false, checkout_url: null });

    await page.getByRole('link', { name: 'Payment links' }).click();
    const row = page.locator(`tr[data-token="${token}"]`);
    await expect.poll(() => row.locator('[data-field="linkState"]').textContent()).toBe('Closed');
    expect(plain(await row.textContent())).toContain('Fixed (sum of the items)TRY 1,340.00');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('bad input: each error under its own field in the reader\'s words, once, never an internal path; nothing created', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'links/new' });
    await page.getByLabel('Item name 1').fill('Kupa');
    await page.getByLabel('Quantity 1').fill('2.5');
    await page.getByLabel('Reference').fill('DASH-BAD-1');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    // A quantity that is not a whole number cannot be sent (the API's quantity is an integer): said at the field.
    await expect.poll(() => fieldError(page, 'Quantity 1')).toBe('The quantity must be a whole number of 1 or more.');
    expect(await page.getByLabel('Quantity 1').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.form-errors').textContent()).toBe('The form was not sent');

    // The API's own rules, each under its field.
    await page.getByLabel('Item name 1').fill('');
    await page.getByLabel('Quantity 1').fill('1');
    await page.getByLabel('Unit price (VAT included) 1').fill('12,50');
    await page.getByLabel('VAT rate (%) 1').fill('150');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => fieldError(page, 'Item name 1')).toBe('This field is required.');
    expect(await fieldError(page, 'Quantity 1')).toBe('');
    expect(await fieldError(page, 'Unit price (VAT included) 1')).toBe('The amount must be in the form 100 or 100.10.');
    expect(await fieldError(page, 'VAT rate (%) 1')).toBe('The rate must be between 0 and 100 with at most two decimals.');
    const form = (await page.locator('main form').textContent())!;
    expect(form).not.toContain('paymentLink');
    expect(form).not.toMatch(/items\.\d/);
    expect(form.split('This field is required.')).toHaveLength(2);
    await shot(page, 'dashboard-new-link-errors-desktop.png');

    // The next round: a zero price and a past day.
    await page.getByLabel('Item name 1').fill('Kupa');
    await page.getByLabel('Unit price (VAT included) 1').fill('0');
    await page.getByLabel('VAT rate (%) 1').fill('');
    await page.getByLabel('Last valid day').fill('2020-01-01');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => fieldError(page, 'Last valid day')).toBe('The last valid day cannot be a past day.');
    expect(await fieldError(page, 'Unit price (VAT included) 1')).toBe('The amount must be greater than zero.');
    expect(await fieldError(page, 'Item name 1')).toBe('');
    expect((await page.locator('main form').textContent())!.split('The last valid day cannot be a past day.')).toHaveLength(2);
    expect(await linkByReference('DASH-BAD-1')).toEqual([]);
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/links/new`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('custom, predefined and predefined-or-custom links at phone width (Turkish); a broken rule is shown at its field', async () => {
    const { page, problems } = await open(390, 844, { path: 'links/new' });
    const type = page.getByLabel('Tutar türü');

    await type.selectOption('custom');
    await page.getByLabel('Ürün adı').fill('Bağış');
    await page.getByLabel('KDV oranı (%)').fill('20');
    await page.getByLabel('KDV uygulaması').selectOption('exclusive');
    await page.getByLabel('Referans').fill('DASH-CUSTOM-1');
    await page.getByRole('checkbox', { name: 'USD' }).check();
    await submitLink(page, 'Oluştur');
    expect((await linkByReference('DASH-CUSTOM-1'))[0]).toMatchObject({
      amount_type: 'custom', item_name: 'Bağış', tax_rate: '20.00', tax_mode: 'exclusive', amount: null, currency_type: 'selectable', currencies: ['TRY', 'USD'],
    });
    await expect.poll(() => page.locator('main').textContent()).toContain('%20 (Tutara eklenir)');

    await page.goto(`${t.gateway.baseUrl}/dashboard/links/new`);
    await type.selectOption('predefined');
    await page.getByLabel('Ürün adı').fill('Hediye çeki');
    await page.getByLabel('Referans').fill('DASH-PRE-1');
    // No amount offered: the domain's rule under the amounts box, and nothing created.
    await page.getByRole('button', { name: 'Oluştur', exact: true }).click();
    await expect.poll(() => fieldError(page, 'Sunulan tutarlar')).toBe('En az bir hazır tutar girilmelidir.');
    expect(await page.getByRole('textbox', { name: 'Sunulan tutarlar' }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('main').textContent()).not.toContain('predefinedAmounts');
    expect(await linkByReference('DASH-PRE-1')).toEqual([]);
    // An amount's own error names which amount, at the same box.
    await page.getByRole('textbox', { name: 'Sunulan tutarlar' }).fill('100.00\n0');
    await page.getByRole('button', { name: 'Oluştur', exact: true }).click();
    await expect.poll(() => fieldError(page, 'Sunulan tutarlar')).toBe('2. tutar: Tutar sıfırdan büyük olmalıdır.');
    expect((await page.locator('main form').textContent())!.split('Tutar sıfırdan büyük olmalıdır.')).toHaveLength(2);
    await page.getByRole('textbox', { name: 'Sunulan tutarlar' }).fill('100.00\n1250.00');
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-new-link-phone.png');
    await submitLink(page, 'Oluştur');
    expect((await linkByReference('DASH-PRE-1'))[0]).toMatchObject({ amount_type: 'predefined', predefined_amounts: ['100.00', '1250.00'] });
    await expect.poll(() => page.locator('[data-field="predefinedAmounts"]').textContent()).toBe('₺100,00 · ₺1.250,00');

    await page.goto(`${t.gateway.baseUrl}/dashboard/links/new`);
    await type.selectOption('predefined_and_custom');
    await page.getByLabel('Ürün adı').fill('Üyelik');
    await page.getByRole('textbox', { name: 'Sunulan tutarlar' }).fill('50.00');
    await page.getByLabel('Referans').fill('DASH-PRECUSTOM-1');
    await submitLink(page, 'Oluştur');
    expect((await linkByReference('DASH-PRECUSTOM-1'))[0]).toMatchObject({ amount_type: 'predefined_and_custom', predefined_amounts: ['50.00'], is_active: true });
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Açık');
    // The address to share stays within the phone's width, its QR code too.
    expect(await page.getByRole('button', { name: 'Kopyala' }).isVisible()).toBe(true);
    const qr = (await page.locator('svg.qr').boundingBox())!;
    expect(qr.x + qr.width).toBeLessThanOrEqual(390);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-link-phone.png');

    // The list as cards: each cell labelled by its column, the status a badge.
    await page.goto(`${t.gateway.baseUrl}/dashboard/links`);
    const row = page.locator('tbody tr').filter({ hasText: 'DASH-PRECUSTOM-1' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    expect(await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')))).toEqual(['Referans', 'Tutar türü', 'Tutar', 'Durum', 'Ödemeler', 'Oluşturulma']);
    expect(await row.locator('[data-field="linkState"] .badge').textContent()).toBe('Açık');
    await fitsWidth(page, 390);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a viewer sees no way to create or close a link; an operator does (Turkish, phone width)', async () => {
    const token = await createLink('DASH-ROLES-1', [{ name: 'Kupa', unit_amount: '1234.56' }]);
    const viewer = await createAccessToken(t.gateway.services.db, m.team, 'links viewer', { role: 'viewer' });
    const v = await open(390, 844, { token: viewer, path: `links/${token}` });
    await expect.poll(() => v.page.locator('[data-field="linkState"]').textContent()).toBe('Açık');
    expect(v.page.url()).toBe(`${t.gateway.baseUrl}/dashboard/links/${token}`);
    expect(await v.page.locator('[data-field="linkAmount"]').textContent()).toBe('₺1.234,56 (Ara toplam ₺1.234,56, KDV ₺0,00)');
    expect(await v.page.getByRole('button', { name: 'Linki kapat' }).count()).toBe(0);
    // Copying the address is reading, not changing: a viewer has it.
    expect(await v.page.getByRole('button', { name: 'Kopyala' }).count()).toBe(1);
    await v.page.goto(`${t.gateway.baseUrl}/dashboard/links`);
    await expect.poll(() => v.page.locator(`tr[data-token="${token}"]`).count()).toBe(1);
    expect(await v.page.getByRole('link', { name: 'Yeni ödeme linki' }).count()).toBe(0);
    await v.page.goto(`${t.gateway.baseUrl}/dashboard/links/new`);
    await expect.poll(() => v.page.locator('main').textContent()).toContain('Rolünüz ödeme linki oluşturmaya izin vermiyor.');
    expect(await v.page.getByRole('button', { name: 'Oluştur' }).count()).toBe(0);
    await v.page.context().close();

    const operator = await createAccessToken(t.gateway.services.db, m.team, 'links operator', { role: 'operator' });
    const o = await open(390, 844, { token: operator, path: `links/${token}` });
    await expect.poll(() => o.page.getByRole('button', { name: 'Linki kapat' }).count()).toBe(1);
    await o.page.goto(`${t.gateway.baseUrl}/dashboard/links`);
    await expect.poll(() => o.page.getByRole('link', { name: 'Yeni ödeme linki' }).count()).toBe(1);
    expect(v.problems).toEqual([]);
    expect(o.problems).toEqual([]);
    await o.page.context().close();
  });

  it('a link that does not exist says so; a failed load offers a retry; a dropped write says so in words; the list says when it is empty after a filter', async () => {
    const { page, problems } = await open(1280, 800, { locale: 'en-GB', path: 'links/00000000-0000-4000-8000-000000000000' });
    await expect.poll(() => page.locator('main .empty').textContent()).toBe('This payment link was not found.');

    // The network drops the link's query once: the error and a retry, which then shows the link.
    const token = await createLink('DASH-RETRY-1', [{ name: 'Kupa', unit_amount: '10.00' }]);
    let dropped = 0;
    const graphqlUrl = (url: URL) => url.pathname === '/graphql';
    await page.route(graphqlUrl, async (route) => {
      // urql sends short queries as GET: the document is in the address.
      const sent = (new URL(route.request().url()).searchParams.get('query') ?? '') + (route.request().postData() ?? '');
      if (!dropped && sent.includes('query PaymentLink(')) {
        dropped++;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.goto(`${t.gateway.baseUrl}/dashboard/links/${token}`);
    await expect.poll(() => page.locator('.error-state strong').textContent()).toBe('Could not load this');
    expect(dropped).toBe(1);
    expect(await page.locator('.error-state p').textContent()).toBe('The server could not be reached. Check your connection and try again.');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Open');
    expect(await page.locator('.error-state').count()).toBe(0);

    // A write the network drops says so in words, once, never urql's "[Network] …"; the link stays open.
    await page.route(graphqlUrl, (route) => ((route.request().postData() ?? '').includes('mutation ClosePaymentLink(') ? route.abort('connectionreset') : route.continue()));
    await page.getByRole('button', { name: 'Close the link' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    const said = page.getByRole('status').filter({ hasText: 'The server could not be reached. Check your connection and try again.' });
    await expect.poll(() => said.count()).toBe(1);
    expect(await page.locator('main').textContent()).not.toContain('[Network]');
    expect(await page.locator('[data-field="linkState"]').textContent()).toBe('Open');
    await page.unroute(graphqlUrl);

    await page.goto(`${t.gateway.baseUrl}/dashboard/links`);
    await page.getByLabel('Reference').fill('NO-SUCH-LINK');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('.empty').textContent()).toBe('Nothing matches this filter; change it and try again.');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
