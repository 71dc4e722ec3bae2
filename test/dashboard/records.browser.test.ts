// Orders and subscriptions screens in Chromium (products: products.browser.test.ts): an order
// opened through REST is listed and shown with its items and payment page; a paid subscription is
// cancelled from its page after a confirmation. Roles, states and formats of the orders,
// subscriptions and customers screens: records-kit.browser.test.ts.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { orderBody } from '../helpers/orders.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from '../subscriptions/support.ts';

warnIfNoChromium('records.browser.test.ts');

const { t, merchant: m, open } = useDashboard();
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('orders and subscriptions screens in Chromium', { timeout: 120_000 }, () => {
  it('lists an order opened through REST and shows its items and payment page (phone, Turkish)', async () => {
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-DASH-1' } }));
    expect(res.status).toBe(200);
    const token = res.body.order.token as string;
    const { page, problems } = await open(390, 844, { path: 'orders' });
    await page.locator(`tr[data-token="${token}"] a`).click();
    await expect.poll(() => page.locator('[data-field="orderStatus"]').textContent()).toBe('Açık');
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/orders/${token}`);
    expect(await page.locator('[data-list="items"] tr[data-item="ITEM-1"] td').evaluateAll((tds) => tds.map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`)))
      .toEqual(['Ürün: Kitap', 'Referans: ITEM-1', 'Adet: 2', 'Birim fiyat (KDV dahil): ₺50,00', 'KDV: %10']);
    expect(await page.getByRole('link', { name: res.body.order.checkout_url }).count()).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-order-phone.png');

    await page.getByRole('link', { name: 'Geri' }).click();
    await page.getByLabel('Durum').selectOption({ label: 'Ödendi' });
    await page.getByRole('button', { name: 'Filtrele' }).click();
    await expect.poll(() => page.locator(`tr[data-token="${token}"]`).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('cancels a paid subscription from its page after a confirmation; the paid period runs on', async () => {
    await saveProducts(m, [recurringProduct(m, 'PLAN-BASIC')]);
    const { token } = await openSubscription(m, { subscription: { channel_reference: 'SUB-DASH-1' } });
    await payPeriod(t, token);
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await page.getByRole('link', { name: 'Subscriptions' }).click();
    await page.locator(`tr[data-token="${token}"] a`).click();
    await expect.poll(() => page.locator('[data-field="subscriptionStatus"]').textContent()).toBe('Active');
    expect(await page.locator('[data-payment]').count()).toBe(1);

    await page.getByRole('button', { name: 'Cancel the subscription' }).click();
    expect(await db().subscription.findUniqueOrThrow({ where: { id: token } })).toMatchObject({ cancelledAt: null });
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Done.');
    await expect.poll(() => page.locator('[data-field="cancelledAt"]').count()).toBe(1);
    const after = await db().subscription.findUniqueOrThrow({ where: { id: token } });
    expect(after.cancelledAt).not.toBeNull();
    expect(await page.getByRole('button', { name: 'Cancel the subscription' }).count()).toBe(0);
    await shot(page, 'dashboard-subscription-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
