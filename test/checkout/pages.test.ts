// The hosted pages speak the shopper's language and keep the workspace's time: English with
// `Accept-Language: en`, Turkish otherwise (html lang, labels, amounts, the 3D and return pages),
// and local times (expiry years, the paid time) in the order's workspace time zone.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { updateWorkspace } from '../../src/domain/workspaces.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { payOnCheckout, submitCard } from '../helpers/checkout.ts';
import { orderBody } from '../helpers/orders.ts';
import { autoPostForm, postCallback, visitAcs } from '../helpers/payments.ts';

// 15:00 on 31 December 2030 in Istanbul, already 02:00 on 1 January 2031 in Kiritimati (UTC+14).
const NOW = '2030-12-31T12:00:00.000Z';
const EN = { 'Accept-Language': 'en-US,en;q=0.9' };
// An expiry that is in the future on both sides of that new year.
const CARD = { expiry_year: '2033' };

let t: TestGateway;
let istanbul: Merchant;
let kiritimati: Merchant;
let shop: Receiver;

beforeAll(async () => {
  t = await startTestGateway({ clock: new ManualClock(NOW) });
  istanbul = await seedWorkspace(t);
  kiritimati = await seedWorkspace(t);
  await updateWorkspace(t.gateway.services.db, kiritimati.team, { timeZone: 'Pacific/Kiritimati' });
  await t.gateway.admission.synced();
  shop = await startReceiver();
});
beforeEach(() => t.clock.set(NOW));
afterAll(async () => {
  await shop?.close();
  await t?.stop();
});

const ITEMS = [
  { channel_reference: 'I-1', name: 'Bot', quantity: 2, unit_amount: '1200.00', tax_rate: 20 },
  { channel_reference: 'I-2', name: 'Atkı', unit_amount: '118.00', tax_rate: '8.5' },
];

async function openOrder(m: Merchant = istanbul, items: unknown[] = ITEMS): Promise<{ token: string; checkoutUrl: string }> {
  const res = await m.call('order-payment', orderBody(m, { items: items as Record<string, unknown>[], order: { success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart` } }));
  if (res.status !== 200) throw new Error(`order-payment answered ${res.status}: ${res.text}`);
  return { token: res.body.order.token, checkoutUrl: res.body.order.checkout_url };
}

const get = async (url: string | URL, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
};
const post = async (url: string | URL, body: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
};
const expiryYears = (html: string) => [.../<select id="expiry_year"[^>]*>(.*?)<\/select>/s.exec(html)![1]!.matchAll(/<option value="(\d+)"/g)].map((m) => m[1]);

describe('the order page in English (Accept-Language: en)', () => {
  it('labels, amounts and VAT rates the English way, html lang="en", no Turkish text', async () => {
    const { checkoutUrl } = await openOrder();
    const { status, html } = await get(checkoutUrl, EN);

    expect(status).toBe(200);
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>[^<]+ — Payment<\/title>/);
    expect(html).toContain('<h1>Order summary</h1>');
    expect(html).toContain('2 × 1,200.00 TRY · VAT 20%');
    expect(html).toContain('2,400.00 TRY');
    expect(html).toContain('1 × 118.00 TRY · VAT 8.5%');
    // VAT contained in the prices: 2400 × 20/120 = 400.00, 118 × 8.5/108.5 = 9.24.
    expect(html).toContain('<dt>Subtotal (excl. VAT)</dt><dd>2,108.76 TRY</dd>');
    expect(html).toContain('<dt>VAT</dt><dd>409.24 TRY</dd>');
    expect(html).toContain('<dt class="grand">Total</dt><dd class="grand" id="order-total">2,518.00 TRY</dd>');
    expect(html).toContain('<h1>Pay by card</h1>');
    for (const label of ['Name on card', 'Card number', 'Month', 'Year', 'CVC', 'Installments']) expect(html).toMatch(new RegExp(`<label for="[a-z_]+">${label}</label>`));
    expect(html).toContain('<option value="">MM</option>');
    expect(html).toContain('>Single payment — 2,518.00 TRY</option>');
    expect(html).toContain('Installment options appear once you enter the card number.');
    expect(html).toContain('Pay <span id="pay-amount">2,518.00 TRY</span>');
    expect(html).toContain('Your bank verifies the payment with 3D Secure on its own page.');
    expect(html).toContain(`>Cancel and return to the store</a>`);
    // The script's hints too.
    expect(html).toContain('"You can choose one of the installment options."');
    expect(html).toContain('"This card has no installment options."');
    for (const turkish of ['Sipariş özeti', 'KDV', 'Kart', 'Öde', 'Taksit', 'Tek çekim', 'Vazgeç', 'Ay<', 'Yıl', 'AA<', 'seçenek']) expect(html).not.toContain(turkish);
  });

  it('installment options and a refused BIN in English', async () => {
    const { checkoutUrl } = await openOrder(istanbul, [{ channel_reference: 'I', name: 'Saat', unit_amount: '1000.00' }]);
    const body = await (await fetch(`${checkoutUrl}/installments?bin=41111111`, { headers: EN })).json();

    expect(body.installments[0]).toEqual({ number: 1, total: '1,000.00 TRY', label: 'Single payment — 1,000.00 TRY' });
    expect(body.installments[2]).toEqual({ number: 3, total: '1,030.00 TRY', label: '3 installments × 343.33 TRY (total 1,030.00 TRY)' });
    const refused = await fetch(`${checkoutUrl}/installments?bin=41111`, { headers: EN });
    expect(refused.status).toBe(422);
    expect((await refused.json()).message).toBe('The BIN must have at least 6 digits.');
  });

  it('field messages (what to do, in the words the page script uses) and the notice of a refused card form in English', async () => {
    const { checkoutUrl } = await openOrder();
    const res = await submitCard(checkoutUrl, { ...CARD, number: '41111111', security_code: '12' }, EN);

    expect(res.status).toBe(422);
    expect(res.html).toContain('<html lang="en">');
    expect(res.html).toContain('<p class="notice" role="alert" id="notice">Please check the card details.</p>');
    expect(res.html).toContain('You can check the details and try again, or use another card.');
    expect(res.html).toContain('<p class="field-error" id="number-error">This card number looks mistyped; please check it.</p>');
    expect(res.html).toContain('<p class="field-error" id="security_code-error">Enter the 3 or 4 digit security code from the card.</p>');
    expect(res.html).not.toContain('12 to 19 characters');
  });

  it('an empty card form is told what to enter', async () => {
    const { checkoutUrl } = await openOrder();
    const res = await submitCard(checkoutUrl, { holder_name: '', number: '', security_code: '', expiry_month: '', expiry_year: '' }, EN);
    expect(res.status).toBe(422);
    expect(res.html).toContain('<p class="field-error" id="holder_name-error">Enter the name on the card.</p>');
    expect(res.html).toContain('<p class="field-error" id="number-error">Enter your card number.</p>');
    expect(res.html).toContain('<p class="field-error" id="expiry-error">Choose the expiry month and year.</p>');
    expect(res.html).toContain('<p class="field-error" id="security_code-error">Enter the 3 or 4 digit security code from the card.</p>');
  });

  it('a declined 3D step brings the customer back to an English notice', async () => {
    const { checkoutUrl } = await openOrder();
    const submit = await submitCard(checkoutUrl, CARD, EN);
    const visit = await visitAcs(new URL(submit.location!, checkoutUrl).toString(), 'decline', EN);
    const declined = await postCallback(visit.callbackUrl!, visit.fields!, EN);

    const page = await get(new URL(declined.location!, checkoutUrl), EN);
    expect(page.html).toMatch(/id="notice">The payment did not go through: [^<]+</);
  });

  it('the page of an unknown order', async () => {
    const res = await get(`${t.gateway.baseUrl}/checkout/order/00000000-0000-4000-8000-000000000000`, EN);
    expect(res.status).toBe(404);
    expect(res.html).toContain('<html lang="en">');
    expect(res.html).toContain('<h1>Not found</h1><p class="error">This payment page is not valid.</p>');
  });
});

describe('Turkish by default', () => {
  it.each([[{}], [{ 'Accept-Language': 'de-DE,de;q=0.9' }], [{ 'Accept-Language': 'tr-TR,en;q=0.8' }], [{ 'Accept-Language': '*' }]])('headers %j', async (headers) => {
    const { checkoutUrl } = await openOrder();
    const { html } = await get(checkoutUrl, headers);

    expect(html).toContain('<html lang="tr">');
    expect(html).toMatch(/<title>[^<]+ — Ödeme<\/title>/);
    expect(html).toContain('<h1>Sipariş özeti</h1>');
    expect(html).toContain('1 × 118,00 TRY · KDV %8,5');
    expect(html).toContain('<dt>Ara toplam (KDV hariç)</dt><dd>2.108,76 TRY</dd>');
    expect(html).toContain('>Tek çekim — 2.518,00 TRY</option>');
    expect(html).toContain('"Taksit seçeneklerinden birini seçebilirsiniz."');
    expect(html).not.toContain('Order summary');
  });
});

describe('the 3D page and the return page in English', () => {
  it('amount, card, buttons, the used-page notice and the return POST page', async () => {
    const { checkoutUrl } = await openOrder();
    const submit = await submitCard(checkoutUrl, CARD, EN);
    const redirect = new URL(submit.location!, checkoutUrl);
    const opened = await get(redirect, EN);
    expect(opened.status).toBe(303);
    // The simulator's ACS: the bank's page, in the shopper's language.
    const acs = new URL(opened.location!, redirect);

    const page = await get(acs, EN);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('<title>3D Secure verification</title>');
    expect(page.html).toContain('<p class="muted">Simülasyon Bank</p>'); // the issuer's name in the BIN lookup too
    expect(page.html).toContain('<p>Amount: <strong>2,518.00 TRY</strong></p>');
    expect(page.html).toMatch(/<p>Card: <strong>\d{8}•••• \d{4}<\/strong><\/p>/);
    expect(page.html).toContain('value="approve">Approve</button>');
    expect(page.html).toContain('value="decline">Decline</button>');

    const again = await get(redirect, EN);
    expect(again.status).toBe(409);
    expect(again.html).toContain('<h1>Page already used</h1><p class="error">This 3D verification address can be used only once.</p>');

    const answered = autoPostForm((await post(acs, 'outcome=approve', EN)).html)!;
    expect(answered.id).toBe('acs-answer');
    const done = await postCallback(answered.action, answered.fields, EN);
    expect(done.status).toBe(200);
    expect(done.html).toContain('<html lang="en">');
    expect(done.html).toContain('<h1>Payment approved</h1><p class="muted">Taking you back to the store…</p>');
    expect(done.html).toContain('<button class="primary" type="submit">Continue</button>');
  });

  it('the 3D page in Turkish without the header, amount in Turkish notation', async () => {
    const { checkoutUrl } = await openOrder();
    const submit = await submitCard(checkoutUrl, CARD);
    const page = await fetch(new URL(submit.location!, checkoutUrl)).then(async (r) => ({ html: await r.text() }));

    expect(page.html).toContain('<html lang="tr">');
    expect(page.html).toContain('<p>Tutar: <strong>2.518,00 TRY</strong></p>');
    expect(page.html).toContain('value="approve">Onayla</button>');
  });

  it('an expired 3D page in English', async () => {
    const { checkoutUrl } = await openOrder();
    const submit = await submitCard(checkoutUrl, CARD, EN);
    t.clock.advance(15 * 60_000 + 1_000);

    const page = await get(new URL(submit.location!, checkoutUrl), EN);
    expect(page.status).toBe(410);
    expect(page.html).toContain('<h1>Time ran out</h1>');
    expect(page.html).toContain('This 3D verification page was not opened within 15 minutes, so the payment timed out.');
  });
});

describe("the workspace's time zone", () => {
  it('the expiry years start at the current year where the workspace is', async () => {
    const near = await openOrder(istanbul);
    const far = await openOrder(kiritimati);

    const nearYears = expiryYears((await get(near.checkoutUrl)).html);
    const farYears = expiryYears((await get(far.checkoutUrl)).html);
    expect(nearYears[0]).toBe('2030');
    expect(farYears[0]).toBe('2031');
    expect(farYears).toHaveLength(16);
  });

  it("a paid order shows when it was paid, in the workspace's local time", async () => {
    const near = await openOrder(istanbul);
    const far = await openOrder(kiritimati);
    await payOnCheckout(near.checkoutUrl, CARD);
    await payOnCheckout(far.checkoutUrl, CARD);

    expect((await get(near.checkoutUrl)).html).toContain('Bu sipariş ödendi (31 Aralık 2030 15:00). Tekrar ödeme yapmanız gerekmiyor.');
    expect((await get(far.checkoutUrl)).html).toContain('Bu sipariş ödendi (1 Ocak 2031 02:00). Tekrar ödeme yapmanız gerekmiyor.');
    const english = await get(far.checkoutUrl, EN);
    expect(english.html).toContain('<title>Order paid</title>');
    expect(english.html).toContain('<h1>Payment received</h1>');
    expect(english.html).toContain('This order was paid on 1 January 2031 at 02:00. You do not need to pay again.');
  });
});
