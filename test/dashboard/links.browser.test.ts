// The payment links screens in Chromium: a link of each amount type created in the dashboard is
// found by the REST retrieve-payment-links operation; the fixed one is paid on its hosted page and
// the payment shows on its detail page; closing it there closes it for the API. Screenshots at both
// widths.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { answerAcs, GOOD_CARD } from '../helpers/checkout.ts';

warnIfNoChromium('links.browser.test.ts');

const { t, merchant: m, open } = useDashboard();
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };

async function linkByReference(reference: string) {
  const res = await m.call('retrieve-payment-links', { reference }, ts);
  expect(res.status).toBe(200);
  return res.body.payment_links as Array<Record<string, unknown>>;
}

/** Submits the new-link form and waits for the new link's page; its token. */
async function submitLink(page: Page, create: string): Promise<string> {
  await page.getByRole('button', { name: create, exact: true }).click();
  await page.waitForURL(/\/dashboard\/links\/[0-9a-f-]{36}$/);
  return page.url().split('/').at(-1)!;
}

describe.skipIf(!haveChromium)('payment links screens in Chromium', { timeout: 120_000 }, () => {
  it('a fixed link created in the dashboard is found by retrieve-payment-links, paid on its page, and closed', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await page.getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('link', { name: 'New payment link' }).click();
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/links/new`);
    await page.getByLabel('Item name 1').fill('Seramik kupa');
    await page.getByLabel('Quantity 1').fill('2');
    await page.getByLabel('Unit price (VAT included) 1').fill('150.00');
    await page.getByLabel('VAT rate (%) 1').fill('20');
    await page.getByRole('button', { name: 'Add an item' }).click();
    await page.getByLabel('Item name 2').fill('Kargo');
    await page.getByLabel('Unit price (VAT included) 2').fill('40.00');
    await page.getByLabel('Reference').fill('DASH-LINK-1');
    await page.getByLabel('Description').fill('Dashboard link');
    const token = await submitLink(page, 'Create');
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Open');

    const [found] = await linkByReference('DASH-LINK-1');
    expect(found).toMatchObject({ token, amount_type: 'fixed', amount: '340.00', currency: 'TRY', description: 'Dashboard link', is_active: true });
    expect((found!.items as unknown[]).length).toBe(2);
    const checkoutUrl = found!.checkout_url as string;
    expect(await page.locator('[data-field="checkoutUrl"]').textContent()).toBe(checkoutUrl);

    // Paid on its hosted page (with 3D), as a payer's browser without JavaScript does.
    const body = new URLSearchParams({ ...GOOD_CARD, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' }).toString();
    const started = await fetch(checkoutUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
    expect(started.status).toBe(303);
    await answerAcs(t.gateway.baseUrl, started.headers.get('location')!, 'approve');
    const [paid] = await linkByReference('DASH-LINK-1');
    expect(paid).toMatchObject({ transactions_count: 1 });
    expect((paid!.transactions as Array<Record<string, unknown>>)[0]).toMatchObject({ status: 'successful', amount: '340.00' });

    await page.reload();
    await expect.poll(() => page.locator('[data-link-payment]').count()).toBe(1);
    expect(await page.locator('[data-link-payment]').textContent()).toMatch(/LINKPAY\d+ · 340.00 TRY · paid · Ayşe Yılmaz/);
    await shot(page, 'dashboard-link-desktop.png');

    await page.getByRole('button', { name: 'Close the link' }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Close the link?');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Closed');
    const [closed] = await linkByReference('DASH-LINK-1');
    expect(closed).toMatchObject({ is_active: false, checkout_url: null });

    await page.getByRole('link', { name: 'Payment links' }).click();
    await expect.poll(() => page.locator(`tr[data-token="${token}"]`).textContent()).toContain('Closed');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('custom, predefined and predefined-or-custom links at phone width (Turkish); a rule broken is shown by field', async () => {
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

    await page.goto(`${t.gateway.baseUrl}/dashboard/links/new`);
    await type.selectOption('predefined');
    await page.getByLabel('Ürün adı').fill('Hediye çeki');
    await page.getByLabel('Referans').fill('DASH-PRE-1');
    // No amount offered: the domain's rule, by field, and nothing created.
    await page.getByRole('button', { name: 'Oluştur', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('predefinedAmounts');
    expect(await linkByReference('DASH-PRE-1')).toEqual([]);
    await page.getByRole('textbox', { name: 'Sunulan tutarlar' }).fill('100.00\n250.00');
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-new-link-phone.png');
    await submitLink(page, 'Oluştur');
    expect((await linkByReference('DASH-PRE-1'))[0]).toMatchObject({ amount_type: 'predefined', predefined_amounts: ['100.00', '250.00'] });

    await page.goto(`${t.gateway.baseUrl}/dashboard/links/new`);
    await type.selectOption('predefined_and_custom');
    await page.getByLabel('Ürün adı').fill('Üyelik');
    await page.getByRole('textbox', { name: 'Sunulan tutarlar' }).fill('50.00');
    await page.getByLabel('Referans').fill('DASH-PRECUSTOM-1');
    await submitLink(page, 'Oluştur');
    expect((await linkByReference('DASH-PRECUSTOM-1'))[0]).toMatchObject({ amount_type: 'predefined_and_custom', predefined_amounts: ['50.00'], is_active: true });
    await expect.poll(() => page.locator('[data-field="linkState"]').textContent()).toBe('Açık');
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-link-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
