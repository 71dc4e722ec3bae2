// The payment page's table of provider calls in Chromium: each call with its operation, account,
// start, duration, outcome and codes (the provider's own and the gateway's error_code), in English
// on a desktop (a card the iyzico emulator declines, with iyzico's own code) and in Turkish at
// phone width, where each call is a card. Operations and outcomes are badges in the reader's words.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { paymentBody } from '../helpers/payments.ts';
import { IYZICO_CARDS, seedIyzicoMerchant, useIyzicoEmulator } from '../helpers/iyzico.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('provider-attempts.browser.test.ts');

const { t, merchant: m, open, pay } = useDashboard();
const iyzico = useIyzicoEmulator();
const db = () => t.gateway.services.db;
const cells = (page: Awaited<ReturnType<typeof open>>['page'], operation: string) =>
  page.locator(`tr[data-operation="${operation}"] td`).allTextContents();

describe.skipIf(!haveChromium)('provider calls on the payment page in Chromium', { timeout: 120_000 }, () => {
  it("a declined payment: the charge, declined, with the provider's code and the gateway's error_code (desktop, English)", async () => {
    const im = await seedIyzicoMerchant(t, iyzico.emulator);
    const res = await im.call('regular-payment', paymentBody(im, { transaction: { channel_reference: 'DASH-ATT-1' }, card: { number: IYZICO_CARDS.insufficientFunds } }));
    const token = res.body.transaction.token as string;
    const payment = await db().payment.findUniqueOrThrow({ where: { id: token } });
    await t.gateway.services.attempts.drain();

    expect(payment.providerErrorCode).toBeTruthy();
    const account = await db().paymentAccount.findUniqueOrThrow({ where: { id: im.accountToken } });
    const dashboard = await createAccessToken(db(), im.team, 'browser test');
    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: `payments/${token}`, token: dashboard });
    await expect.poll(() => page.locator('[data-field="status"]').textContent()).toBe('Failed');

    expect(await page.getByRole('heading', { name: 'Provider calls' }).count()).toBe(1);
    expect(await page.getByRole('table', { name: 'Provider calls' }).locator('th').allTextContents()).toEqual(['Operation', 'Account', 'Started', 'Duration', 'Outcome', 'Codes']);
    const [operation, accountName, started, duration, outcome] = await cells(page, 'charge');
    expect([operation, accountName, duration, outcome]).toEqual(['Charge', account.name, '0 ms', 'Declined']);
    // In the workspace's zone (Istanbul, UTC+3), said on the page.
    expect(started).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/);
    expect(await page.locator('.zone-note').first().textContent()).toBe('Times in Europe/Istanbul.');
    const charge = page.locator('tr[data-operation="charge"]');
    expect(await charge.locator('[data-field="codes"]').textContent()).toBe(`${payment.providerErrorCode} · insufficient_funds`);
    expect(await charge.locator('[data-field="providerMessage"]').textContent()).toBe(payment.providerErrorMessage);
    await shot(page, 'dashboard-provider-attempts-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a refunded payment: its charge and its refund (phone, Turkish)', async () => {
    const token = await pay('DASH-ATT-2');
    t.clock.advance(1_000);
    expect((await m.call('refund-payment', { transaction: { token }, amount: '10.00' })).body.result.successful).toBe(true);
    await t.gateway.services.attempts.drain();

    const { page, problems } = await open(390, 844, { path: `payments/${token}` });
    await expect.poll(() => page.locator('[data-field="paymentStatus"]').textContent()).toBe('Kısmen iade edildi');

    const table = page.getByRole('table', { name: 'Sağlayıcı çağrıları' });
    expect(await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-operation')))).toEqual(['charge', 'refund']);
    expect(await table.locator('th').allTextContents()).toEqual(['İşlem', 'Hesap', 'Başlangıç', 'Süre', 'Sonuç', 'Kodlar']);
    expect((await cells(page, 'refund'))[4]).toBe('Başarılı');
    expect((await cells(page, 'refund'))[0]).toBe('İade');
    // A card per call on a phone, each value under its column's name.
    expect(await table.locator('tr[data-operation="refund"] td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-label')))).toEqual(['İşlem', 'Hesap', 'Başlangıç', 'Süre', 'Sonuç', 'Kodlar']);
    expect(await table.locator('tr[data-operation="refund"]').evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    expect((await cells(page, 'refund'))[5]).toBe('—');
    await fitsWidth(page, 390);
    await shot(page, 'dashboard-provider-attempts-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
