// The search box, the customer page and the payment timeline in Chromium, at desktop width in
// English and at phone width in Turkish: results grouped by kind with links to their records, a
// customer's contact data, payments and masked saved card, and a refunded 3D payment's history with
// its webhook delivery, in the workspace's time zone (Europe/Istanbul, three hours ahead of UTC).
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { paymentBody, postCallback, visitAcs } from '../helpers/payments.ts';
import { attemptsRecorded, notificationsOf } from '../helpers/webhooks.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';

warnIfNoChromium('search-customers.browser.test.ts');

const { t, merchant: m, receiver, open } = useDashboard({ receiver: true, now: '2026-03-10T09:00:00.000Z' });
const CUSTOMER = { channel_reference: 'BRW-CUST-1', firstname: 'Zeynep', lastname: 'Kaya', email: 'zeynep@example.org', phone: '+905550001122' };
let paymentToken = '';
let customerToken = '';

beforeAll(async () => {
  const db = t.gateway.services.db;
  const workspace = await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  await addWebhookAddress(t.gateway.services, workspace, { url: `${receiver.url}/hooks`, events: ['transaction.successful'] });
  const started = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: 'BRW-PAY-1', amount: '250.00' }, customer: CUSTOMER }));
  paymentToken = started.body.transaction.token;
  t.clock.advance(1_000);
  const visit = await visitAcs(started.body.result.redirect_url, 'approve');
  t.clock.advance(1_000);
  await postCallback(visit.callbackUrl!, visit.fields!);
  const [notification] = await notificationsOf(t, { recordToken: paymentToken });
  t.clock.advance(30_000);
  await receiver.waitFor(1);
  await attemptsRecorded(t, notification!.id, 1);
  t.clock.advance(8_000);
  expect((await m.call('refund-payment', { transaction: { token: paymentToken }, amount: '10.00' })).body.result.successful).toBe(true);
  await t.gateway.services.attempts.drain();
  // A second payment saves the customer's card (on the 3D payment it would add a storeCard call).
  const saved = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'BRW-PAY-2', amount: '75.00' }, customer: CUSTOMER, card: { should_save: true } }));
  expect(saved.body.result.successful).toBe(true);
  customerToken = (await db.customer.findFirstOrThrow({ where: { workspaceId: m.workspaceId, channelReference: 'BRW-CUST-1' } })).id;
});

const KINDS = ['created', 'provider_call', 'three_ds_opened', 'three_ds_answered', 'provider_call', 'settled', 'event', 'webhook_attempt', 'refund', 'provider_call', 'event'];

describe.skipIf(!haveChromium)('search, customers and the payment timeline in Chromium', { timeout: 120_000 }, () => {
  it('the timeline of a refunded 3D payment, in order, in Istanbul time (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: `payments/${paymentToken}` });
    const items = page.getByRole('list', { name: 'Timeline' }).locator('li');
    await expect.poll(() => items.count()).toBe(KINDS.length);
    expect(await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')))).toEqual(KINDS);
    expect(await page.locator('[data-field="timeZone"]').textContent()).toBe('Times in Europe/Istanbul');
    expect(await items.nth(0).locator('time').textContent()).toBe('10/03/2026, 12:00:00');
    expect(await items.nth(0).locator('[data-field="what"]').textContent()).toBe('Payment created API: 3-D Secure');
    expect(await items.nth(2).locator('[data-field="what"]').textContent()).toBe('3D page opened');
    expect(await items.nth(7).locator('time').textContent()).toBe('10/03/2026, 12:00:32');
    expect(await items.nth(7).locator('[data-field="what"]').textContent()).toBe('Webhook attempt transaction.successful → 200');
    expect(await items.nth(7).locator('[data-field="detail"]').textContent()).toBe(`${receiver.url}/hooks`);
    expect(await items.nth(8).locator('[data-field="what"]').textContent()).toBe('Refund TRY\u00a010.00: Succeeded');
    await shot(page, 'dashboard-timeline-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the timeline at phone width in Turkish: named in Turkish, nothing scrolls sideways', async () => {
    const { page, problems } = await open(390, 844, { path: `payments/${paymentToken}` });
    const items = page.getByRole('list', { name: 'Zaman çizelgesi' }).locator('li');
    await expect.poll(() => items.count()).toBe(KINDS.length);
    expect(await items.nth(3).locator('[data-field="what"]').textContent()).toBe('3D sayfası yanıtlandı');
    expect(await items.nth(8).locator('[data-field="what"]').textContent()).toBe('İade ₺10,00: Başarılı');
    expect(await items.nth(0).locator('time').textContent()).toBe('10.03.2026 12:00:00');
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-timeline-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the header search finds the payment by reference and the customer by e-mail, each a link to its page (desktop, English)', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    const box = page.getByRole('search').filter({ has: page.locator('input[name="q"]') }).locator('input[name="q"]');
    await box.fill('BRW-PAY-1');
    await box.press('Enter');
    const payments = page.locator('[data-kind="payments"]');
    await expect.poll(() => payments.getByRole('heading').textContent()).toBe('Payments (1)');
    expect(await page.locator('[data-kind="customers"]').count()).toBe(0);
    expect(await payments.locator('li').textContent()).toContain('•••• 1111');
    // Statuses as badges in the reader's words, the time in the workspace's zone and said so.
    expect(await payments.locator('li .badge').allTextContents()).toEqual(['Successful', 'Partially refunded']);
    expect(await payments.locator('li').textContent()).toContain('10/03/2026, 12:00:00');
    expect(await page.locator('.zone-note').textContent()).toBe('Times in Europe/Istanbul.');
    await payments.getByRole('link', { name: 'TRY 250.00' }).click();
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('Successful');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/payments/${paymentToken}`);

    await box.fill('zeynep@example');
    await box.press('Enter');
    const customers = page.locator('[data-kind="customers"]');
    await expect.poll(() => customers.locator('li').count()).toBe(1);
    expect(await page.locator('[data-kind="payments"] li').count()).toBe(2);
    await customers.getByRole('link', { name: 'Zeynep Kaya' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Zeynep Kaya');
    await shot(page, 'dashboard-search-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the search box at phone width in Turkish: no results said plainly, nothing scrolls sideways', async () => {
    const { page, problems } = await open(390, 844);
    const box = page.locator('input[name="q"]');
    await box.fill('nothing-like-this');
    await box.press('Enter');
    await expect.poll(() => page.locator('[data-field="noResults"]').textContent()).toBe('Sonuç yok.');
    await box.fill('4111 1111 1111 1111');
    await box.press('Enter');
    await expect.poll(() => page.locator('[data-kind="payments"] h2').textContent()).toBe('Ödemeler (2)');
    expect(await page.locator(`[data-kind="payments"] li[data-token="${paymentToken}"] .badge`).allTextContents()).toEqual(['Başarılı', 'Kısmen iade edildi']);
    expect(await page.locator(`[data-kind="payments"] li[data-token="${paymentToken}"] a`).textContent()).toBe('₺250,00');
    expect(new URL(page.url()).pathname).toBe('/dashboard/search/1111');
    expect(await box.inputValue()).toBe('1111');
    await box.fill('kaya');
    await box.press('Enter');
    await expect.poll(() => page.locator('[data-kind="customers"] h2').textContent()).toBe('Müşteriler (1)');
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-search-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('customers list and customer page: contact data, payments, the saved card masked (desktop, English; phone, Turkish)', async () => {
    const desktop = await open(1280, 900, { locale: 'en-GB', path: 'customers' });
    const row = desktop.page.locator(`tr[data-token="${customerToken}"]`);
    await expect.poll(() => row.locator('td').allTextContents()).toEqual(['Zeynep Kaya', 'zeynep@example.org', 'BRW-CUST-1', '2', expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/)]);
    await row.getByRole('link').click();
    await expect.poll(() => desktop.page.locator('[data-field="email"]').textContent()).toBe('zeynep@example.org');
    expect(await desktop.page.getByRole('heading', { name: 'Payments (2)' }).count()).toBe(1);
    expect(await desktop.page.locator('[data-field="savedCards"] [data-field="card"]').textContent()).toBe('Visa 41111111•••• 1111 · Expiry 12/2030 · AYSE YILMAZ');
    expect(await desktop.page.locator('[data-field="savedCards"] .badge').textContent()).toBe('Default');
    expect(await desktop.page.content()).not.toContain('4111111111111111');
    const paid = desktop.page.locator(`[data-list="customer-payments"] tr[data-token="${paymentToken}"] td`);
    expect(await paid.allTextContents()).toEqual(['TRY\u00a0250.00', 'Successful', 'Partially refunded', 'BRW-PAY-1', '•••• 1111', '10/03/2026, 12:00:00']);
    await shot(desktop.page, 'dashboard-customer-desktop.png');
    expect(desktop.problems).toEqual([]);
    await desktop.page.context().close();

    const phone = await open(390, 844, { path: `customers/${customerToken}` });
    await expect.poll(() => phone.page.locator('[data-field="channelReference"]').textContent()).toBe('BRW-CUST-1');
    expect(await phone.page.getByRole('heading', { name: 'Ödemeler (2)' }).count()).toBe(1);
    // A card per payment: each value under its column's name.
    const cells = phone.page.locator(`[data-list="customer-payments"] tr[data-token="${paymentToken}"] td`);
    expect(await cells.evaluateAll((tds) => tds.map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`))).toEqual(['Tutar: ₺250,00', 'Durum: Başarılı', 'Para durumu: Kısmen iade edildi', 'Referans: BRW-PAY-1', 'Kart: •••• 1111', 'Oluşturulma: 10.03.2026 12:00:00']);
    expect(await phone.page.locator('[data-field="savedCards"] .badge').textContent()).toBe('Varsayılan');
    await fitsWidth(phone.page, 390);
    await shot(phone.page, 'dashboard-customer-phone.png');
    expect(phone.problems).toEqual([]);
    await phone.page.context().close();
  });

  it('the search page quoting a long e-mail or a token fits a 390 px phone (Turkish)', async () => {
    const { page, problems } = await open(390, 844);
    const box = page.locator('input[name="q"]');
    const email = 'zeynep.kaya.muhasebe.departmani@cok-uzun-bir-sirket-adi.example.org';
    await box.fill(email);
    await box.press('Enter');
    await expect.poll(() => page.locator('[data-field="noResults"]').textContent()).toBe('Sonuç yok.');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`"${email}" için sonuçlar`);
    await fitsWidth(page, 390);
    await box.fill(paymentToken);
    await box.press('Enter');
    await expect.poll(() => page.locator('[data-kind="payments"] h2').textContent()).toBe('Ödemeler (1)');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`"${paymentToken}" için sonuçlar`);
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-search-token-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the payment page names its customer with the e-mail and links the customer's page (desktop, English)", async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: `payments/${paymentToken}` });
    const customer = page.locator('[data-field="customer"]');
    await expect.poll(() => customer.getByRole('link').textContent()).toBe('Zeynep Kaya');
    expect(await customer.locator('[data-field="customerEmail"]').textContent()).toBe('zeynep@example.org');
    expect(await customer.textContent()).toContain('BRW-CUST-1');
    expect(await customer.getByRole('link').getAttribute('href')).toBe(`/dashboard/customers/${customerToken}`);
    await customer.getByRole('link').click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Zeynep Kaya');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/customers/${customerToken}`);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("the payments list shows each payment's card brand and customer, linked (desktop, English; phone, Turkish)", async () => {
    const desktop = await open(1280, 900, { locale: 'en-GB', path: 'payments' });
    const row = desktop.page.locator(`tr[data-token="${paymentToken}"]`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await desktop.page.locator('thead th').allTextContents()).toEqual(['Created', 'Amount', 'Status', 'Money status', 'Card', 'Customer', 'Reference']);
    expect(await row.locator('[data-field="card"]').textContent()).toBe('Visa 41111111•••• 1111');
    expect(await row.locator('[data-field="customer"]').textContent()).toBe('Zeynep Kaya');
    await row.locator('[data-field="customer"]').getByRole('link').click();
    await expect.poll(() => desktop.page.getByRole('heading', { level: 1 }).textContent()).toBe('Zeynep Kaya');
    expect(new URL(desktop.page.url()).pathname).toBe(`/dashboard/customers/${customerToken}`);
    expect(desktop.problems).toEqual([]);
    await desktop.page.context().close();

    const phone = await open(390, 844, { path: 'payments' });
    const card = phone.page.locator(`tr[data-token="${paymentToken}"]`);
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('[data-field="card"], [data-field="customer"]').evaluateAll((tds) => tds.map((td) => `${td.getAttribute('data-label')}: ${td.textContent}`))).toEqual(['Kart: Visa 41111111•••• 1111', 'Müşteri: Zeynep Kaya']);
    await fitsWidth(phone.page, 390);
    await shot(phone.page, 'dashboard-payments-customers-phone.png');
    expect(phone.problems).toEqual([]);
    await phone.page.context().close();
  });
});
