// The webhooks screen in Chromium: an address added in the dashboard with an event selection, a
// real receiver on 127.0.0.1 answering 500 until the notification's attempts end, the failed
// notification shown with its badge, HTTP code and attempts, the receiver fixed, a resend from the
// dashboard shown delivered; the add form's errors under the URL and the events; disabling and
// deleting an address; a viewer sees no write control, a developer does. Screenshots at both widths.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { attemptsRecorded, notificationsOf, eventually } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('webhooks.browser.test.ts');

const { t, merchant: m, receiver: r, open, pay } = useDashboard({ receiver: true });
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('webhooks screen in Chromium', { timeout: 120_000 }, () => {
  it('a failing address: its failed notification is shown, resent from the dashboard after the fix, and shown delivered', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/webhooks`);
    await expect.poll(() => page.locator('.card .empty').first().textContent()).toBe('No webhook addresses yet.');

    const url = `${r.url}/hooks/dashboard`;
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('transaction.successful').check();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.locator(`tr[data-address="${url}"]`).count()).toBe(1);
    expect(await page.locator(`tr[data-address="${url}"]`).textContent()).toContain('transaction.successful');
    expect(await page.locator(`tr[data-address="${url}"] .badge`).textContent()).toBe('Enabled');
    expect(await page.getByLabel('URL').inputValue()).toBe('');
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

    // The status filter offers readable statuses; the failed one is found by it.
    await page.locator('select[name="notificationStatus"]').selectOption({ label: 'Failed (attempts ended)' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator(`li[data-notification="${n!.id}"]`);
    await expect.poll(() => row.locator('[data-field="notificationStatus"]').textContent()).toBe('Failed (attempts ended)');
    expect(await row.locator('[data-field="notificationStatus"] .badge').getAttribute('data-tone')).toBe('danger');
    expect(await row.locator('[data-field="httpStatus"]').textContent()).toBe('HTTP 500');
    expect(await row.textContent()).toContain('Attempts: 5');
    expect(await row.locator('.muted').textContent()).toMatch(/\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d$/);
    expect(await page.locator('.zone-note').textContent()).toMatch(/^Times in [A-Za-z_/]+\.$/);
    await row.getByText('Attempts', { exact: true }).click();
    expect(await row.locator('ol li').count()).toBe(5);
    expect(await row.locator('ol li').first().textContent()).toContain('HTTP 500 · ok');
    await shot(page, 'dashboard-webhooks-failed-desktop.png');

    // Fixed: the resend goes at once, with the same body, and the row shows it delivered.
    r.respondWith(200);
    await page.locator('select[name="notificationStatus"]').selectOption('');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => row.locator('[data-field="notificationStatus"]').textContent()).toBe('Delivered');
    expect(await page.getByRole('status').filter({ hasText: 'Done.' }).count()).toBe(1);
    expect(await row.locator('[data-field="httpStatus"]').textContent()).toBe('HTTP 200');
    expect(await row.textContent()).toContain('Attempts: 6');
    expect(r.requests).toHaveLength(6);
    expect(r.requests[5]!.body).toBe(r.requests[0]!.body);
    expect(await db().notification.findUniqueOrThrow({ where: { id: n!.id } })).toMatchObject({ status: 'delivered', attemptCount: 6 });

    // The payment's own page lists the same notification, delivered.
    await page.goto(`${t.gateway.baseUrl}/dashboard/payments/${paid}`);
    await expect.poll(() => page.locator(`li[data-notification="${n!.id}"] [data-field="notificationStatus"]`).textContent()).toBe('Delivered');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the add form says what is wrong under the URL and the events (Turkish, phone); disables and deletes an address after a confirmation', async () => {
    const url = `${r.url}/hooks/phone`;
    const { page, problems } = await open(390, 844, { path: 'webhooks' });
    // A non-https address and neither an event nor "all": both said at their fields, once, nothing written.
    await page.getByLabel('URL').fill('ftp://example.com/hooks');
    await page.getByRole('button', { name: 'Ekle', exact: true }).click();
    const urlError = page.locator('.field[data-field-name="url"] .field-error');
    await expect.poll(() => urlError.textContent()).toBe('Adres https ile başlayan herkese açık bir adres olmalıdır.');
    expect(await page.getByLabel('URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('fieldset[data-field-name="events"] .field-error').textContent()).toBe('En az bir olay seçilmelidir.');
    const form = (await page.locator('form.add-address').textContent())!;
    expect(form.split('En az bir olay seçilmelidir.')).toHaveLength(2);
    expect(form).not.toMatch(/\burl\b|events/);
    expect(await db().webhookAddress.count({ where: { url: 'ftp://example.com/hooks' } })).toBe(0);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-webhooks-errors-phone.png');

    await page.getByLabel('URL').fill(url);
    await page.getByLabel('Tüm olaylar').check();
    await page.getByRole('button', { name: 'Ekle', exact: true }).click();
    const row = page.locator(`tr[data-address="${url}"]`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.locator('.field-error').count()).toBe(0);
    expect(await row.textContent()).toContain('Tüm olaylar');
    // A card on the phone, each cell labelled by its column.
    expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    expect(await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')))).toEqual(['Adres (URL)', 'Olaylar', 'Durum', 'İşlemler']);
    expect(await row.locator('.badge').textContent()).toBe('Etkin');

    await row.getByRole('button', { name: `Devre dışı bırak ${url}` }).click();
    // The row's button turns into "Etkinleştir" once the change is saved (its old label already read "Devre dışı …").
    await expect.poll(() => row.getByRole('button', { name: `Etkinleştir ${url}` }).count()).toBe(1);
    expect(await row.locator('.badge').textContent()).toBe('Devre dışı');
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

  it('a viewer sees addresses and notifications but no way to change them; a developer may add, disable and resend', async () => {
    const s = t.gateway.services;
    const workspace = await s.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    const url = `${r.url}/hooks/roles`;
    await addWebhookAddress(s, workspace, { url, events: ['transaction.successful'] });
    r.respondWith(200);
    const paid = await pay('DASH-HOOK-2');
    const notifications = await eventually(async () => {
      const list = await notificationsOf(t, { recordToken: paid });
      return list.length ? list : undefined;
    }, 'the notifications of the payment');
    t.clock.advance(30_000);
    for (const n of notifications) await attemptsRecorded(t, n.id, 1);

    const viewer = await createAccessToken(s.db, m.team, 'hooks viewer', { role: 'viewer' });
    const v = await open(1280, 900, { token: viewer, locale: 'en-GB', path: 'webhooks' });
    await expect.poll(() => v.page.locator(`tr[data-address="${url}"]`).count()).toBe(1);
    await expect.poll(() => v.page.locator('[data-notification]').count()).toBeGreaterThan(0);
    expect(await v.page.locator(`tr[data-address="${url}"] .badge`).textContent()).toBe('Enabled');
    expect(await v.page.locator('thead th').allTextContents()).toEqual(['Address (URL)', 'Events', 'Status']);
    expect(await v.page.getByRole('button', { name: /^(Disable|Enable|Delete)\b/ }).count()).toBe(0);
    expect(await v.page.getByRole('button', { name: 'Add', exact: true }).count()).toBe(0);
    expect(await v.page.getByRole('button', { name: 'Resend' }).count()).toBe(0);
    await v.page.context().close();

    const developer = await createAccessToken(s.db, m.team, 'hooks developer', { role: 'developer' });
    const d = await open(390, 844, { token: developer, path: 'webhooks' });
    await expect.poll(() => d.page.locator(`tr[data-address="${url}"]`).count()).toBe(1);
    await expect.poll(() => d.page.getByRole('button', { name: 'Yeniden gönder' }).count()).toBeGreaterThan(0);
    expect(await d.page.getByRole('button', { name: `Devre dışı bırak ${url}` }).count()).toBe(1);
    expect(await d.page.getByRole('button', { name: 'Ekle', exact: true }).count()).toBe(1);
    await fitsWidth(d.page, 390);
    expect(v.problems).toEqual([]);
    expect(d.problems).toEqual([]);
    await d.page.context().close();
  });
});
