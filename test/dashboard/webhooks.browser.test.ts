// The webhooks screen in Chromium: an address added in the dashboard with an event selection, a
// real receiver on 127.0.0.1 answering 500 until the notification's attempts end, the failed
// notification shown with its HTTP code and attempts, the receiver fixed, a resend from the
// dashboard shown delivered; disabling and deleting an address. Screenshots at both widths.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { attemptsRecorded, notificationsOf, eventually } from '../helpers/webhooks.ts';

warnIfNoChromium('webhooks.browser.test.ts');

const { t, merchant: m, receiver: r, open, pay } = useDashboard({ receiver: true });
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('webhooks screen in Chromium', { timeout: 120_000 }, () => {
  it('a failing address: its failed notification is shown, resent from the dashboard after the fix, and shown delivered', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/webhooks`);

    const url = `${r.url}/hooks/dashboard`;
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('transaction.successful').check();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.locator(`tr[data-address="${url}"]`).count()).toBe(1);
    expect(await page.locator(`tr[data-address="${url}"]`).textContent()).toContain('transaction.successful');
    const address = await db().webhookAddress.findFirstOrThrow({ where: { workspaceId: m.workspaceId, url } });
    expect(address).toMatchObject({ events: ['transaction.successful'], allEvents: false, enabled: true });

    // The receiver answers 500 to all five attempts (the contract's waits, moved by the manual clock).
    r.respondWith(500);
    const paid = await pay('DASH-HOOK-1');
    const [n] = await eventually(async () => {
      const list = await notificationsOf(t, { recordToken: paid });
      return list.length ? list : undefined;
    }, 'the notification of the payment');
    t.clock.advance(30_000);
    for (const [i, wait] of [60_000, 300_000, 900_000, 1_800_000].entries()) {
      await attemptsRecorded(t, n!.id, i + 1);
      t.clock.advance(wait);
    }
    expect((await attemptsRecorded(t, n!.id, 5)).status).toBe('failed');

    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator(`li[data-notification="${n!.id}"]`);
    await expect.poll(() => row.locator('[data-field="notificationStatus"]').textContent()).toBe('failed');
    expect(await row.locator('[data-field="httpStatus"]').textContent()).toBe('HTTP 500');
    expect(await row.textContent()).toContain('Attempts: 5');
    await row.getByText('Attempts', { exact: true }).click();
    expect(await row.locator('ol li').count()).toBe(5);
    expect(await row.locator('ol li').first().textContent()).toContain('HTTP 500 · ok');
    await shot(page, 'dashboard-webhooks-failed-desktop.png');

    // Fixed: the resend goes at once, with the same body, and the row shows it delivered.
    r.respondWith(200);
    await row.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => row.locator('[data-field="notificationStatus"]').textContent()).toBe('delivered');
    expect(await row.locator('[data-field="httpStatus"]').textContent()).toBe('HTTP 200');
    expect(await row.textContent()).toContain('Attempts: 6');
    expect(r.requests).toHaveLength(6);
    expect(r.requests[5]!.body).toBe(r.requests[0]!.body);
    expect(await db().notification.findUniqueOrThrow({ where: { id: n!.id } })).toMatchObject({ status: 'delivered', attemptCount: 6 });

    // The payment's own page lists the same notification, delivered.
    await page.goto(`${t.gateway.baseUrl}/dashboard/payments/${paid}`);
    await expect.poll(() => page.locator(`li[data-notification="${n!.id}"] [data-field="notificationStatus"]`).textContent()).toBe('delivered');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('disables and deletes an address at phone width (Turkish), after a confirmation', async () => {
    const url = `${r.url}/hooks/phone`;
    const { page, problems } = await open(390, 844, { path: 'webhooks' });
    await page.getByLabel('URL').fill(url);
    // Neither an event nor "all": the domain's error, nothing written.
    await page.getByRole('button', { name: 'Ekle', exact: true }).click();
    await expect.poll(() => page.locator('form[aria-labelledby="add-address-title"] [role="status"]').getAttribute('class')).toBe('error');
    expect(await db().webhookAddress.count({ where: { url } })).toBe(0);

    await page.getByLabel('Tüm olaylar').check();
    await page.getByRole('button', { name: 'Ekle', exact: true }).click();
    const row = page.locator(`tr[data-address="${url}"]`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('Tüm olaylar');

    await row.getByRole('button', { name: `Devre dışı bırak ${url}` }).click();
    // The row's button turns into "Etkinleştir" once the change is saved (its old label already read "Devre dışı …").
    await expect.poll(() => row.getByRole('button', { name: `Etkinleştir ${url}` }).count()).toBe(1);
    expect(await row.textContent()).toContain('Devre dışı');
    expect((await db().webhookAddress.findFirstOrThrow({ where: { url } })).enabled).toBe(false);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-webhooks-phone.png');

    await row.getByRole('button', { name: `Sil ${url}` }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain(`${url} silinsin mi?`);
    expect(await db().webhookAddress.count({ where: { url } })).toBe(1);
    await page.getByRole('button', { name: 'Onayla' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await db().webhookAddress.count({ where: { url } })).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
