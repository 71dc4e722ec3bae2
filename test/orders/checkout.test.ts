// The hosted order checkout page over plain HTTP: what it shows, its headers, the installments
// endpoint, paying through 3D (success, decline and retry, bank refusal), the order.paid event,
// and what never leaks (card data, merchant markup).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentAccount } from '../../src/domain/workspaces.ts';
import { findCheckoutOrder, payOrder } from '../../src/domain/orders/pay.ts';
import { StateError } from '../../src/domain/errors.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { eventsOf } from '../helpers/rows.ts';
import { CARDS, answerAcs, payOnCheckout, submitCard } from '../helpers/checkout.ts';
import { orderBody } from '../helpers/orders.ts';

let t: TestGateway;
let m: Merchant;
let shop: Receiver;

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  shop = await startReceiver();
});
afterAll(async () => {
  await shop?.close();
  await t?.stop();
});

async function openOrder(over: Parameters<typeof orderBody>[1] = {}): Promise<{ token: string; checkoutUrl: string }> {
  const res = await m.call('order-payment', orderBody(m, { ...over, order: { success_url: `${shop.url}/success`, cancel_url: `${shop.url}/cart`, ...over.order } }));
  if (res.status !== 200) throw new Error(`order-payment answered ${res.status}: ${res.text}`);
  return { token: res.body.order.token, checkoutUrl: res.body.order.checkout_url };
}

const db = () => t.gateway.services.db;
const orderRow = (token: string) => db().order.findUniqueOrThrow({ where: { id: token }, include: { payments: { orderBy: { createdAt: 'asc' } } } });

describe('the checkout page shows', () => {
  it('the description, items with quantities, unit prices, VAT and total in the order currency, a card form and the cancel link', async () => {
    const { checkoutUrl } = await openOrder({
      order: { description: 'Kış kampanyası siparişi' },
      items: [
        { channel_reference: 'I-1', name: 'Bot', quantity: 2, unit_amount: '1200.00', tax_rate: 20 },
        { channel_reference: 'I-2', name: 'Atkı', unit_amount: '118.00', tax_rate: '18' },
      ],
    });
    const res = await fetch(checkoutUrl);
    const html = await res.text();

    expect(res.status).toBe(200);
    expect(html).toContain('Kış kampanyası siparişi');
    expect(html).toContain('Bot');
    expect(html).toContain('2 × 1.200,00 TRY · KDV %20');
    expect(html).toContain('2.400,00 TRY');
    expect(html).toContain('1 × 118,00 TRY · KDV %18');
    // VAT contained in the prices: 2400 × 20/120 = 400.00, 118 × 18/118 = 18.00.
    expect(html).toContain('<dt>KDV</dt><dd>418,00 TRY</dd>');
    expect(html).toContain('<dt>Ara toplam (KDV hariç)</dt><dd>2.100,00 TRY</dd>');
    expect(html).toMatch(/id="order-total">2\.518,00 TRY</);
    expect(html).toMatch(/<form method="post" id="pay"/);
    for (const name of ['holder_name', 'number', 'expiry_month', 'expiry_year', 'security_code', 'installment_number']) expect(html).toContain(`name="${name}"`);
    expect(html).toContain(`href="${shop.url}/cart"`);
    expect(html).toContain('name="viewport" content="width=device-width,initial-scale=1"');
  });

  it('with a strict Content-Security-Policy, no caching and no referrer', async () => {
    const { checkoutUrl } = await openOrder();
    const res = await fetch(checkoutUrl);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy')!;

    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toMatch(/form-action 'self'(;|$)/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    // Every script carries the nonce, and no inline handler exists for CSP to block.
    expect(html.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('merchant texts as text: markup in the description, item names and references is escaped', async () => {
    const xss = `<script>alert("x")</script><img src=x onerror=alert(1)>`;
    const { checkoutUrl } = await openOrder({ order: { description: `"><svg onload=alert(2)>` }, items: [{ channel_reference: 'X-1', name: xss, unit_amount: '10.00' }] });
    const html = await (await fetch(checkoutUrl)).text();

    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;&gt;&lt;svg onload=alert(2)&gt;');
  });

  it('404 for an unknown order', async () => {
    const res = await fetch(`${t.gateway.baseUrl}/checkout/order/00000000-0000-4000-8000-000000000000`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Bu ödeme sayfası geçersiz.');
  });
});

describe('installment options from the BIN', () => {
  const installments = (checkoutUrl: string, bin: string) => fetch(`${checkoutUrl}/installments?bin=${encodeURIComponent(bin)}`);

  it('TRY: 1-12 with the account rates, and the card data of the BIN', async () => {
    const { checkoutUrl } = await openOrder({ items: [{ channel_reference: 'I', name: 'Saat', unit_amount: '1000.00' }] });
    const res = await installments(checkoutUrl, '41111111');
    const body = await res.json();

    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.card).toEqual({ scheme: 'visa', type: 'credit', issuer_name: 'Simülasyon Bank', program: 'Simülasyon Bonus' });
    expect(body.installments).toHaveLength(12);
    expect(body.installments[0]).toEqual({ number: 1, total: '1.000,00 TRY', label: 'Tek çekim — 1.000,00 TRY' });
    // Default rates: 1.5 % per extra month → 3 installments total 1030.00.
    expect(body.installments[2]).toEqual({ number: 3, total: '1.030,00 TRY', label: '3 taksit × 343,33 TRY (toplam 1.030,00 TRY)' });
  });

  it('none outside TRY', async () => {
    const { checkoutUrl } = await openOrder({ order: { currency: 'EUR' } });
    const body = await (await installments(checkoutUrl, '411111')).json();
    expect(body.installments).toEqual([]);
  });

  it('only 6-8 digits are accepted: a longer number is refused, not looked at', async () => {
    const { checkoutUrl } = await openOrder();
    for (const bin of ['41111', '411111111', '4111111111111111', '4111a1']) {
      const res = await installments(checkoutUrl, bin);
      expect(res.status).toBe(422);
      expect((await res.json()).installments).toEqual([]);
    }
  });

  it('404 for an unknown or paid order', async () => {
    const res = await installments(`${t.gateway.baseUrl}/checkout/order/00000000-0000-4000-8000-000000000000`, '411111');
    expect(res.status).toBe(404);
  });
});

describe('paying the order', () => {
  it('approved: the order becomes paid, order.paid carries the transaction, the browser posts transaction_token to success_url', async () => {
    const { token, checkoutUrl } = await openOrder();
    const before = shop.requests.length;
    const done = await payOnCheckout(checkoutUrl, {}, 'approve');

    expect(done.submit.location).toMatch(/^\/checkout\/3ds\/[0-9a-f-]{36}$/);
    const order = await orderRow(token);
    expect(order.status).toBe('paid');
    expect(order.paidAt).not.toBeNull();
    const [payment] = order.payments;
    expect(payment).toMatchObject({ source: 'order', status: 'successful', paymentStatus: 'paid', amount: 10000n, baseAmount: 10000n, callbackUrl: `${shop.url}/success`, channelReference: 'ORD-1001', customerId: order.customerId });
    expect(done.returnUrl).toBe(`${shop.url}/success`);
    expect(done.returnToken).toBe(payment!.id);
    const events = await db().outboxEvent.findMany({ where: { recordToken: token } });
    expect(events.map((e) => [e.kind, e.transactionToken])).toEqual([['order.paid', payment!.id]]);
    // Order payments emit no transaction.* events.
    expect(await eventsOf(t, payment!.id)).toEqual([]);

    // The return form posts to the merchant as a browser would.
    await fetch(done.returnUrl!, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `transaction_token=${done.returnToken}` });
    const [received] = await shop.waitFor(before + 1).then((r) => r.slice(before));
    expect(received!.body).toBe(`transaction_token=${payment!.id}`);
    const retrieved = await m.call('retrieve-payment', { transaction: { token: payment!.id } });
    expect(retrieved.body.result).toEqual({ successful: true, message: null });
  });

  it('with installments: the surcharge is charged, base_amount keeps the order amount', async () => {
    const { token, checkoutUrl } = await openOrder({ items: [{ channel_reference: 'I', name: 'Saat', unit_amount: '1000.00' }] });
    await payOnCheckout(checkoutUrl, { installment_number: '3' });

    const [payment] = (await orderRow(token)).payments;
    expect(payment).toMatchObject({ status: 'successful', installmentNumber: 3, amount: 103000n, baseAmount: 100000n });
  });

  it('declined on the 3D page: back to the order page with the reason, nothing posted to success_url, and a retry pays', async () => {
    const { token, checkoutUrl } = await openOrder();
    const before = shop.requests.length;
    const declined = await payOnCheckout(checkoutUrl, {}, 'decline');

    expect(declined.status).toBe(303);
    const [failed] = (await orderRow(token)).payments;
    expect(declined.location).toBe(`/checkout/order/${token}?attempt=${failed!.id}`);
    expect(declined.html).not.toContain('transaction_token');
    const page = await (await fetch(new URL(declined.location!, checkoutUrl))).text();
    // The shopper reads the one message every card failure gets; the reason stays on the payment.
    expect(page).toContain('Ödeme alınamadı: Kart kabul edilmedi. Bilgileri kontrol edin ya da başka bir kart deneyin; ayrıntıyı bankanız söyleyebilir.');
    expect(failed!.errorCode).toBe('3ds_failed');
    expect(page).toMatch(/<form method="post" id="pay"/);
    expect((await orderRow(token)).status).toBe('open');
    expect(await eventsOf(t, token)).toEqual([]);
    expect(await eventsOf(t, failed!.id)).toEqual([]);

    const retry = await payOnCheckout(checkoutUrl, { number: CARDS.mastercard });
    const order = await orderRow(token);
    expect(order.status).toBe('paid');
    expect(order.payments.map((p) => p.status).sort()).toEqual(['failed', 'successful']);
    expect(retry.returnToken).toBe(order.payments.find((p) => p.status === 'successful')!.id);
    expect(shop.requests.length).toBe(before);
  });

  it('refused by the bank after 3D (insufficient funds): the page says the card was not accepted, never why; the payment keeps why', async () => {
    const { token, checkoutUrl } = await openOrder();
    const done = await payOnCheckout(checkoutUrl, { number: CARDS.insufficientFunds });

    const page = await (await fetch(new URL(done.location!, checkoutUrl))).text();
    expect(page).toContain('Ödeme alınamadı: Kart kabul edilmedi. Bilgileri kontrol edin ya da başka bir kart deneyin; ayrıntıyı bankanız söyleyebilir.');
    expect(page).not.toContain('Yetersiz bakiye');
    expect((await orderRow(token)).payments.map((p) => p.errorCode)).toEqual(['insufficient_funds']);
    expect((await orderRow(token)).status).toBe('open');
  });

  it("a live card's decline and a dead card's read the same on the page (a card tester learns nothing); each payment keeps its own reason", async () => {
    const notices: string[] = [];
    for (const number of [CARDS.insufficientFunds, CARDS.expired]) {
      const { checkoutUrl } = await openOrder();
      const done = await payOnCheckout(checkoutUrl, { number });
      const page = await (await fetch(new URL(done.location!, checkoutUrl))).text();
      notices.push(/id="notice">([^<]*)</.exec(page)?.[1] ?? '');
    }
    expect(notices).toEqual([
      'Ödeme alınamadı: Kart kabul edilmedi. Bilgileri kontrol edin ya da başka bir kart deneyin; ayrıntıyı bankanız söyleyebilir.',
      'Ödeme alınamadı: Kart kabul edilmedi. Bilgileri kontrol edin ya da başka bir kart deneyin; ayrıntıyı bankanız söyleyebilir.',
    ]);
    const codes = await db().payment.findMany({ where: { errorCode: { in: ['insufficient_funds', 'expired_card'] } }, select: { errorCode: true } });
    expect(new Set(codes.map((c) => c.errorCode))).toEqual(new Set(['insufficient_funds', 'expired_card']));
  });

  it('refused before 3D (a mistyped number, failing the Luhn check): the page shows the reason and never the number', async () => {
    const { token, checkoutUrl } = await openOrder();
    const res = await submitCard(checkoutUrl, { number: '4111111111111112' });

    expect(res.status).toBe(200);
    expect(res.html).toContain('Ödeme alınamadı: Geçersiz kart numarası');
    expect(res.html).not.toContain('4111111111111112');
    expect(res.html).toContain('value="AYSE YILMAZ"');
    expect((await orderRow(token)).payments.map((p) => p.status)).toEqual(['failed']);
  });

  it('a card form that breaks a rule is shown again with the field messages, nothing written, card data not echoed', async () => {
    const { token, checkoutUrl } = await openOrder();
    const res = await submitCard(checkoutUrl, { number: '41111111', security_code: '12', expiry_month: '', installment_number: '13' });

    expect(res.status).toBe(422);
    // The shopper reads what to do, not the API's rule.
    expect(res.html).toContain('Kart numarası hatalı görünüyor; lütfen kontrol edin.');
    expect(res.html).toContain('Kartın arkasındaki 3 ya da 4 haneli güvenlik kodunu yazın.');
    expect(res.html).toContain('Son kullanma ayını ve yılını seçin.');
    expect(res.html).not.toContain('12 ile 19 karakter');
    expect(res.html).toContain('Taksit sayısı 1 ile 12 arasında olmalıdır.');
    expect(res.html).not.toContain('41111111');
    expect((await orderRow(token)).payments).toEqual([]);
  });

  it('installments on a EUR order are refused', async () => {
    const { token, checkoutUrl } = await openOrder({ order: { currency: 'EUR' } });
    const res = await submitCard(checkoutUrl, { installment_number: '3' });

    expect(res.status).toBe(422);
    expect(res.html).toContain('TRY dışındaki para birimlerinde taksit yapılamaz');
    expect((await orderRow(token)).payments).toEqual([]);
  });

  it('a paid order says it is paid and takes no second payment', async () => {
    const { token, checkoutUrl } = await openOrder();
    await payOnCheckout(checkoutUrl, {});
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('Bu sipariş ödendi');
    expect(page).not.toContain('id="pay"');

    const again = await submitCard(checkoutUrl, {});
    expect(again.status).toBe(200);
    expect(again.html).toContain('Bu sipariş ödendi');
    expect((await orderRow(token)).payments).toHaveLength(1);
    expect((await fetch(`${checkoutUrl}/installments?bin=411111`)).status).toBe(404);
  });

  it('a new attempt replaces one still waiting on its 3D page; the old 3D page stops working', async () => {
    const { token, checkoutUrl } = await openOrder();
    const first = await submitCard(checkoutUrl, {});
    const second = await submitCard(checkoutUrl, {});
    expect(first.location).not.toBe(second.location);

    await expect(answerAcs(t.gateway.baseUrl, first.location!, 'approve')).rejects.toThrow(/3D page answered 404/);
    await answerAcs(t.gateway.baseUrl, second.location!, 'approve');
    const order = await orderRow(token);
    expect(order.status).toBe('paid');
    // The test clock stands still, so both attempts share createdAt: compare without order.
    expect(order.payments.map((p) => [p.status, p.errorCode]).sort()).toEqual([
      ['failed', 'order_payment_superseded'],
      ['successful', null],
    ]);
    expect(await eventsOf(t, token)).toEqual(['order.paid']);
  });

  it('parallel submits never leave two payments waiting on 3D', async () => {
    const { token, checkoutUrl } = await openOrder();
    const answers = await Promise.all([submitCard(checkoutUrl, {}), submitCard(checkoutUrl, {}), submitCard(checkoutUrl, {})]);

    expect(answers.some((a) => a.status === 303)).toBe(true);
    for (const a of answers.filter((x) => x.status !== 303)) expect(a.html).toContain('hâlâ işleniyor');
    const waiting = await db().payment.count({ where: { orderId: token, status: 'started' } });
    expect(waiting).toBe(1);
  });

  it('a card submitted on a page loaded before another tab paid the order is refused, and nothing is written', async () => {
    const { token } = await openOrder();
    // The page's copy of the order still says open; the row says paid by the time the card comes.
    const stale = (await findCheckoutOrder(t.gateway.services, token))!;
    expect(stale.status).toBe('open');
    await db().order.update({ where: { id: token }, data: { status: 'paid' } });
    const card = { holderName: 'AYSE YILMAZ', number: CARDS.approved, securityCode: '123', expiryMonth: '12', expiryYear: '2030' };
    const refused = await payOrder(t.gateway.services, stale, { card, installmentNumber: 1 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(StateError);
    expect((refused as StateError).issues).toEqual([{ path: [], code: 'order_already_paid' }]);
    expect((await orderRow(token)).payments).toEqual([]);
  });

  it('an account given with the order is the one charged; conversion charges another currency', async () => {
    // A TRY account that converts: EUR:TRY=35.10 from CONVERSION_RATES.
    const tryConv = await createPaymentAccount(db(), m.team, { name: 'TRY conv', currencies: ['TRY'], capabilities: { conversion: true } });
    const { token, checkoutUrl } = await openOrder({ order: { payment_provider_token: tryConv.id, currency: 'EUR' } });
    // Charged in TRY by conversion: still no installments (they exist only for TRY orders).
    expect((await (await fetch(`${checkoutUrl}/installments?bin=411111`)).json()).installments).toEqual([]);
    await payOnCheckout(checkoutUrl, {});
    const [payment] = (await orderRow(token)).payments;
    expect(payment).toMatchObject({ status: 'successful', paymentAccountId: tryConv.id, currency: 'EUR', amount: 10000n, chargedCurrency: 'TRY', chargedAmount: 351000n });
  });
});

describe('after payment', () => {
  it('a refund of the order payment records order.payment_refunded, a cancel order.payment_cancelled; retrieve-orders shows the payment status', async () => {
    const a = await openOrder();
    await payOnCheckout(a.checkoutUrl, {});
    const paymentA = (await orderRow(a.token)).payments[0]!;
    t.clock.advance(1_000);
    const refund = await m.call('refund-payment', { transaction: { token: paymentA.id }, amount: '40.00' });
    expect(refund.status).toBe(200);
    expect(await eventsOf(t, a.token)).toEqual(['order.paid', 'order.payment_refunded']);
    const listed = await m.call('retrieve-orders', { token: a.token });
    expect(listed.body.orders[0].status).toBe('paid');
    expect(listed.body.orders[0].transaction).toMatchObject({ token: paymentA.id, status: 'successful', payment_status: 'partially_refunded', refunded_amount: '40.00' });

    const b = await openOrder();
    await payOnCheckout(b.checkoutUrl, {});
    const paymentB = (await orderRow(b.token)).payments[0]!;
    t.clock.advance(1_000);
    expect((await m.call('cancel-payment', { transaction: { token: paymentB.id } })).status).toBe(200);
    expect(await eventsOf(t, b.token)).toEqual(['order.paid', 'order.payment_cancelled']);
    expect(await eventsOf(t, paymentB.id)).toEqual([]);
  });

  it('no log line and no stored column holds a full card number or security code', async () => {
    const all = t.logLines.join('\n');
    for (const number of Object.values(CARDS)) expect(all).not.toContain(number);
    expect(all).not.toContain('4111 1111 1111 1111');
    const payments = await db().payment.findMany({ where: { source: 'order' } });
    for (const p of payments) {
      const text = JSON.stringify(p, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
      for (const number of Object.values(CARDS)) expect(text).not.toContain(number);
      expect(p.cardFirstDigits).toMatch(/^\d{8}$/);
    }
  });
});
