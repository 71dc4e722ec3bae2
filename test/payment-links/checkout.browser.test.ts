// The link checkout page (payment_link.checkout_url) over HTTP and in a real browser (Debian's
// Chromium through playwright-core): every amount type and a selectable currency paid with 3D,
// inclusive and exclusive VAT, a typed amount out of range refused with nothing charged, a closed
// link's page refusing payment, and the page the 3D step returns the payer to. Screenshots at
// phone and desktop sizes go to test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot } from '../helpers/browser.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { CARDS } from '../helpers/payments.ts';
import { answerAcs, GOOD_CARD } from '../helpers/checkout.ts';


type Body = Record<string, unknown>;

let t: TestGateway;
let m: Merchant;
let browser: Browser | undefined;
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { name: 'Çiçek Atölyesi' } });
  await t.gateway.admission.synced();
  if (!haveChromium) return;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

async function createLink(link: Body): Promise<{ token: string; checkoutUrl: string }> {
  const res = await m.call('create-payment-link', { payment_link: { currency: 'TRY', ...link } }, ts);
  if (res.status !== 200) throw new Error(`create-payment-link answered ${res.status}: ${res.text}`);
  return { token: res.body.payment_link.token, checkoutUrl: res.body.payment_link.checkout_url };
}

const linkPayments = (linkId: string) => t.gateway.services.db.linkPayment.findMany({ where: { linkId }, include: { payment: true }, orderBy: { createdAt: 'asc' } });

async function post(checkoutUrl: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams({ ...GOOD_CARD, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...fields }).toString();
  const res = await fetch(checkoutUrl, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

describe('the link checkout page over HTTP', () => {
  it('a custom link with exclusive VAT charges the typed amount plus VAT; the payer returns to a receipt page', async () => {
    const { token, checkoutUrl } = await createLink({ amount_type: 'custom', item_name: 'Atölye katılımı', tax_rate: 20, tax_mode: 'exclusive' });
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('Atölye katılımı');
    expect(page).toContain('Tutara %20 KDV eklenir.');
    for (const field of ['holder_name', 'number', 'expiry_month', 'expiry_year', 'security_code', 'firstname', 'lastname', 'email', 'amount']) expect(page).toContain(`name="${field}"`);

    const started = await post(checkoutUrl, { amount: '150,00' });
    expect(started.status).toBe(303);
    const acs = await answerAcs(t.gateway.baseUrl, started.location!, 'approve');
    const [lp] = await linkPayments(token);
    expect(lp).toMatchObject({ status: 'paid', amount: 18000n, subtotal: 15000n, taxAmount: 3000n, currency: 'TRY', payerEmail: 'ayse@example.com' });
    expect(lp!.reference).toMatch(/^LINKPAY\d+$/);
    expect(lp!.payment).toMatchObject({ status: 'successful', amount: 18000n, securityType: 'secure' });
    expect(acs.location).toBe(`/checkout/link/payment/${lp!.payment!.id}`);
    const receipt = await (await fetch(`${t.gateway.baseUrl}${acs.location}`)).text();
    expect(receipt).toContain(`${lp!.reference} numaralı ödemeniz alındı: 180,00 TRY.`);
    const events = await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token } });
    expect(events.map((e) => [e.kind, e.linkPaymentToken, e.transactionToken])).toEqual([['payment_link.paid', lp!.id, lp!.payment!.id]]);
  });

  it('a typed amount above 10,000,000.00 or of letters is refused beside the field, in English too, and charges nothing', async () => {
    const { token, checkoutUrl } = await createLink({ amount_type: 'custom', item_name: 'Bağış' });
    const tooMuch = await post(checkoutUrl, { amount: '10000000.01' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.html).toContain('id="amount-error"');
    const letters = await post(checkoutUrl, { amount: 'yüz' }, { 'Accept-Language': 'en' });
    expect(letters.status).toBe(422);
    expect(letters.html).toContain('id="amount-error"');
    expect(letters.html).toContain('value="yüz"');
    expect(letters.html).not.toContain(CARDS.approved);
    const missingName = await post(checkoutUrl, { amount: '10', firstname: '' });
    expect(missingName.status).toBe(422);
    expect(missingName.html).toContain('id="firstname-error"');
    expect(await linkPayments(token)).toEqual([]);
  });

  it('a predefined link takes only an offered amount', async () => {
    const { token, checkoutUrl } = await createLink({ amount_type: 'predefined', item_name: 'Hediye çeki', predefined_amounts: ['100.00', '250.00'] });
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('value="100.00" checked');
    expect(page).not.toContain('name="amount"');
    const refused = await post(checkoutUrl, { amount_choice: '99.00' });
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('Lütfen sunulan tutarlardan birini seçin.');
    const started = await post(checkoutUrl, { amount_choice: '250.00' });
    await answerAcs(t.gateway.baseUrl, started.location!, 'approve');
    expect((await linkPayments(token)).map((lp) => [lp.status, lp.amount])).toEqual([['paid', 25000n]]);
  });

  it('a closed link’s page says so and takes no payment; a declined card returns to a page with the reason and a way back', async () => {
    const closed = await createLink({ amount_type: 'custom', item_name: 'Kapalı', is_active: false });
    // A closed link answers checkout_url null; its address still shows why it takes nothing.
    expect(closed.checkoutUrl).toBeNull();
    const closedPage = `${t.gateway.baseUrl}/checkout/link/${closed.token}`;
    const page = await fetch(closedPage);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('Bu ödeme linki artık ödeme almıyor.');
    const posted = await post(closedPage, { amount: '10' });
    expect(posted.status).toBe(410);
    expect(await linkPayments(closed.token)).toEqual([]);

    const open = await createLink({ items: [{ name: 'Buket', quantity: 1, unit_amount: '300.00', tax_rate: 10 }] });
    const started = await post(open.checkoutUrl, { number: CARDS.insufficientFunds });
    const acs = await answerAcs(t.gateway.baseUrl, started.location!, 'approve');
    const back = await (await fetch(`${t.gateway.baseUrl}${acs.location}`)).text();
    expect(back).toContain('Ödeme alınamadı:');
    expect(back).toContain(`href="/checkout/link/${open.token}"`);
    expect((await linkPayments(open.token)).map((lp) => lp.status)).toEqual(['failed']);
  });
});

const newPage = (viewport: { width: number; height: number }, mobile: boolean, locale?: string) => openWatchedPage(browser!, viewport, mobile, locale);

async function fillPayerAndCard(page: Page, number: string = CARDS.approved): Promise<void> {
  await page.fill('#firstname', 'Ayşe');
  await page.fill('#lastname', 'Yılmaz');
  await page.fill('#email', 'ayse@example.com');
  await page.fill('#holder_name', 'AYSE YILMAZ');
  await page.locator('#number').pressSequentially(number, { delay: 5 });
  await page.selectOption('#expiry_month', '12');
  await page.selectOption('#expiry_year', '2030');
  await page.fill('#security_code', '123');
}

async function payWithBrowser(page: Page): Promise<void> {
  await Promise.all([page.waitForURL(/\/simulator\/acs\//), page.click('#pay-button')]);
  await Promise.all([page.waitForURL(/\/checkout\/link\/payment\//), page.click('button[name="outcome"][value="approve"]')]);
}

// Many pages and a real browser per test: a loaded CI machine needs more than the default 30 s.
describe.skipIf(!haveChromium)('the link checkout page in Chromium', { timeout: 120_000 }, () => {
  it('phone: a fixed link shows its items and total and is paid', async () => {
    const { token, checkoutUrl } = await createLink({
      description: 'Anneler günü siparişi',
      items: [
        { name: 'Gül buketi', quantity: 2, unit_amount: '450.00', tax_rate: 10 },
        { name: 'Kart', quantity: 1, unit_amount: '25.00', tax_rate: 20 },
      ],
    });
    const w = await newPage({ width: 390, height: 844 }, true);
    await w.page.goto(checkoutUrl);
    expect(await w.page.locator('#link-total').textContent()).toBe('925,00 TRY');
    expect(await w.page.locator('#pay-amount').textContent()).toBe('925,00 TRY');
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(w.page, 'link-checkout-phone-fixed.png');
    await fillPayerAndCard(w.page);
    await payWithBrowser(w.page);
    expect(await w.page.locator('#link-paid').textContent()).toContain('925,00 TRY');
    await shot(w.page, 'link-checkout-phone-paid.png');
    expect((await linkPayments(token)).map((lp) => [lp.status, lp.amount])).toEqual([['paid', 92500n]]);
    expect(w.problems).toEqual([]);
    await w.close();
  });

  it('desktop: a custom link with inclusive VAT takes a typed amount with a decimal comma', async () => {
    const { token, checkoutUrl } = await createLink({ amount_type: 'custom', item_name: 'Bağış', tax_rate: 18, tax_mode: 'inclusive' });
    const w = await newPage({ width: 1280, height: 900 }, false);
    await w.page.goto(checkoutUrl);
    expect(await w.page.textContent('#link-vat')).toBe('Tutara %18 KDV dahildir.');
    await fillPayerAndCard(w.page);
    await w.page.fill('#amount', '118,00');
    await shot(w.page, 'link-checkout-desktop-custom.png');
    await payWithBrowser(w.page);
    const [lp] = await linkPayments(token);
    expect(lp).toMatchObject({ status: 'paid', amount: 11800n, subtotal: 10000n, taxAmount: 1800n });
    expect(w.problems).toEqual([]);
    await w.close();
  });

  it('predefined amounts: the payer picks one', async () => {
    const { token, checkoutUrl } = await createLink({ amount_type: 'predefined', item_name: 'Hediye çeki', predefined_amounts: ['100.00', '250.00', '500.00'] });
    const w = await newPage({ width: 390, height: 844 }, true);
    await w.page.goto(checkoutUrl);
    await fillPayerAndCard(w.page);
    await w.page.check('input[name="amount_choice"][value="500.00"]');
    await payWithBrowser(w.page);
    expect((await linkPayments(token)).map((lp) => [lp.status, lp.amount])).toEqual([['paid', 50000n]]);
    await w.close();
  });

  it('predefined and custom with a selectable currency, in English: another amount typed, paid in EUR with the same number', async () => {
    const { token, checkoutUrl } = await createLink({
      amount_type: 'predefined_and_custom',
      item_name: 'Donation',
      predefined_amounts: ['50.00', '100.00'],
      currency_type: 'selectable',
      currencies: ['TRY', 'EUR'],
    });
    const w = await newPage({ width: 1280, height: 900 }, false, 'en-GB');
    await w.page.goto(checkoutUrl);
    await fillPayerAndCard(w.page);
    await w.page.check('input[name="amount_choice"][value="other"]');
    await w.page.fill('#amount', '75.50');
    await w.page.selectOption('#currency', 'EUR');
    await shot(w.page, 'link-checkout-desktop-selectable.png');
    await payWithBrowser(w.page);
    expect(await w.page.locator('#link-paid').textContent()).toContain('75.50 EUR');
    const [lp] = await linkPayments(token);
    expect(lp).toMatchObject({ status: 'paid', amount: 7550n, currency: 'EUR' });
    expect(lp!.payment).toMatchObject({ amount: 7550n, currency: 'EUR' });
    expect(w.problems).toEqual([]);
    await w.close();
  });
});
