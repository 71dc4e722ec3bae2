// The products screen in Chromium: a product saved from the dashboard is in the catalog the API
// uses and listed with its price in the reader's money format and an on-sale badge; a broken rule
// is shown under its field, once, and nothing is saved; a viewer sees no form, an operator does;
// on a phone the list is cards. Screenshots at both widths.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('products.browser.test.ts');

const { t, merchant: m, open } = useDashboard();
const db = () => t.gateway.services.db;
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');

async function fieldError(page: Page, name: string): Promise<string> {
  const error = page.locator(`.field[data-field-name="${name}"] .field-error`);
  return (await error.count()) ? ((await error.textContent()) ?? '') : '';
}

describe.skipIf(!haveChromium)('products screen in Chromium', { timeout: 120_000 }, () => {
  it('saves a recurring product from the dashboard into the catalog; a broken rule is shown at its field and nothing saved', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await page.getByRole('link', { name: 'Products' }).click();
    await expect.poll(() => page.locator('.empty').textContent()).toBe('No products yet.');
    await page.getByLabel('Product code').fill('SKU-DASH-1');
    await page.getByLabel('Name', { exact: true }).fill('Çay demliği');
    await page.getByLabel(/^Type/).selectOption('recurring');
    await page.getByLabel('Period').selectOption('yearly');
    await page.getByLabel('Unit price (VAT included)').fill('1450.00');
    await page.getByLabel('VAT rate (%)').fill('10');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Done.');
    const row = page.locator('tr[data-reference="SKU-DASH-1"]');
    await expect.poll(() => row.locator('[data-field="productAmount"]').textContent().then(plain)).toBe('TRY 1,450.00');
    expect(await row.textContent()).toContain('Recurring (yearly)');
    expect(await row.textContent()).toContain('10%');
    expect(await row.locator('.badge').textContent()).toBe('On sale');
    expect(await page.locator('.zone-note').textContent()).toMatch(/^Times in [A-Za-z_/]+\.$/);
    const product = await db().product.findFirstOrThrow({ where: { workspaceId: m.workspaceId, channelReference: 'SKU-DASH-1' } });
    expect(product).toMatchObject({ name: 'Çay demliği', type: 'recurring', period: 'yearly', amount: 145000n, taxRate: 1000, isActive: true });

    // Rules broken (no price, a rate over 100): the domain's messages at their fields, nothing changed.
    await page.getByLabel('Product code').fill('SKU-DASH-2');
    await page.getByLabel('Unit price (VAT included)').fill('');
    await page.getByLabel('VAT rate (%)').fill('101');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => fieldError(page, 'amount')).toBe('The amount must be in the form 100 or 100.10.');
    expect(await fieldError(page, 'taxRate')).toBe('The rate must be between 0 and 100 with at most two decimals.');
    expect(await page.getByLabel('Unit price (VAT included)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('status').filter({ hasText: 'Done.' }).count()).toBe(0);
    const form = (await page.locator('main form.card').textContent())!;
    expect(form).not.toContain('product.');
    expect(form.split('The amount must be in the form 100 or 100.10.')).toHaveLength(2);
    expect(await db().product.count({ where: { channelReference: 'SKU-DASH-2' } })).toBe(0);
    await shot(page, 'dashboard-products-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a viewer sees the catalog but no form; an operator sees the form; on a phone the list is cards (Turkish)', async () => {
    const save = await m.call('save-product', { product: { channel_token: m.channelToken, channel_reference: 'SKU-PHONE-1', name: 'Kupa', type: 'simple', amount: '1234.56', tax_rate: '20' } });
    expect(save.status).toBe(200);
    const viewer = await createAccessToken(db(), m.team, 'products viewer', { role: 'viewer' });
    const { page, problems } = await open(390, 844, { token: viewer, path: 'products' });
    const row = page.locator('tr[data-reference="SKU-PHONE-1"]');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('[data-field="productAmount"]').textContent()).toBe('₺1.234,56');
    expect(await row.locator('.badge').textContent()).toBe('Satışta');
    expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    expect(await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')))).toEqual(['Referans', 'Ad', 'Tür', 'Tutar', 'KDV oranı (%)', 'Durum', 'Güncellenme']);
    expect(await page.getByRole('heading', { name: 'Ürün kaydet' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Kaydet' }).count()).toBe(0);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-products-phone.png');
    await page.context().close();

    const operator = await createAccessToken(db(), m.team, 'products operator', { role: 'operator' });
    const o = await open(390, 844, { token: operator, path: 'products' });
    await expect.poll(() => o.page.getByRole('heading', { name: 'Ürün kaydet' }).count()).toBe(1);
    await fitsWidth(o.page, 390);
    expect(problems).toEqual([]);
    expect(o.problems).toEqual([]);
    await o.page.context().close();
  });
});
