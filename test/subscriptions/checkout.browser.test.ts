// The subscription checkout page (subscription.checkout_url) over HTTP and in a real browser
// (Debian's Chromium through playwright-core): the first period paid with 3D makes the
// subscription active, stores the card as the customer's default and posts transaction_token to
// success_url; a renewal the bank declines makes it past_due, and its page pays that period with
// the dates unchanged. Pages of a paid period or a cancelled subscription take no card.
// Screenshots at phone and desktop sizes go to test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium, openWatchedPage, shot } from '../helpers/browser.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { CARDS } from '../helpers/payments.ts';
import { submitCard } from '../helpers/checkout.ts';
import { advance, openSubscription, recurringProduct, saveProducts } from './support.ts';


let t: TestGateway;
let shop: Receiver;
let browser: Browser | undefined;

beforeAll(async () => {
  t = await startTestGateway();
  shop = await startReceiver();
  if (!haveChromium) return;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await t?.stop();
});

async function merchant(): Promise<Merchant> {
  const m = await seedWorkspace(t);
  await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { name: 'Kahve Kulübü' } });
  await t.gateway.admission.synced();
  await saveProducts(m, [recurringProduct(m, 'PLAN-M', { name: 'Aylık Kahve Kutusu', amount: '249.90' })]);
  return m;
}

async function open(m: Merchant) {
  return openSubscription(m, {
    items: [{ channel_reference: 'PLAN-M', quantity: 2 }],
    subscription: { success_url: `${shop.url}/welcome`, cancel_url: `${shop.url}/plans` },
  });
}

const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-subscription', { subscription: { token } })).body.subscription;

const newPage = (viewport: { width: number; height: number }, mobile: boolean, locale?: string) => openWatchedPage(browser!, viewport, mobile, locale);

async function fillCard(page: Page, number: string): Promise<void> {
  await page.fill('#holder_name', 'AYSE YILMAZ');
  await page.locator('#number').pressSequentially(number, { delay: 5 });
  await page.selectOption('#expiry_month', '12');
  await page.selectOption('#expiry_year', '2030');
  await page.fill('#security_code', '123');
}

describe('the subscription checkout page over HTTP', () => {
  it('shows the items, the billing period and the amount of the period in the shopper’s language', async () => {
    const m = await merchant();
    const { checkoutUrl } = await open(m);
    const tr = await (await fetch(checkoutUrl)).text();
    expect(tr).toContain('Aylık Kahve Kutusu');
    expect(tr).toContain('<dd id="subscription-period">Aylık</dd>');
    expect(tr).toContain('<dd class="grand" id="period-amount">499,80 TRY</dd>');
    for (const field of ['holder_name', 'number', 'expiry_month', 'expiry_year', 'security_code']) expect(tr).toContain(`name="${field}"`);
    const en = await (await fetch(checkoutUrl, { headers: { 'Accept-Language': 'en-GB,en;q=0.9' } })).text();
    expect(en).toContain('<dd id="subscription-period">Monthly</dd>');
    expect(en).toContain('later periods are charged to the card you save here');
  });

  it('describes the card being typed from its BIN, offers no installments, and refuses a bad BIN', async () => {
    const m = await merchant();
    const { checkoutUrl } = await open(m);
    const ok = await fetch(`${checkoutUrl}/installments?bin=41111111`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ card: { scheme: 'visa' }, installments: [] });
    const bad = await fetch(`${checkoutUrl}/installments?bin=41x`);
    expect(bad.status).toBe(422);
  });

  it('a card form that breaks a rule is shown again with the field messages, nothing written, card data not echoed', async () => {
    const m = await merchant();
    const { token, checkoutUrl } = await open(m);
    const res = await submitCard(checkoutUrl, { number: '41111111', security_code: '12' });
    expect(res.status).toBe(422);
    expect(res.html).toContain('id="number-error"');
    expect(res.html).toContain('Kart numarası hatalı görünüyor; lütfen kontrol edin.');
    expect(res.html).toContain('Kartın arkasındaki 3 ya da 4 haneli güvenlik kodunu yazın.');
    expect(res.html).not.toContain('41111111');
    expect(await t.gateway.services.db.payment.count({ where: { subscriptionId: token } })).toBe(0);
  });

  it('an unknown or malformed token is a 404 page', async () => {
    expect((await fetch(`${t.gateway.baseUrl}/checkout/subscription/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${t.gateway.baseUrl}/checkout/subscription/not-a-token`)).status).toBe(404);
  });

  it('a cancelled subscription’s page says so and takes no card', async () => {
    const m = await merchant();
    const { token, checkoutUrl } = await open(m);
    expect((await m.call('cancel-subscription', { subscription: { token } })).status).toBe(200);
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('Abonelik zaten iptal edilmiş.');
    expect(page).not.toContain('name="number"');
    const posted = await submitCard(checkoutUrl);
    expect(posted.status).toBe(200);
    expect(posted.html).toContain('Abonelik zaten iptal edilmiş.');
    expect(await t.gateway.services.db.payment.count({ where: { subscriptionId: token } })).toBe(0);
  });
});

// Many pages and a real browser per test: a loaded CI machine needs more than the default 30 s.
describe.skipIf(!haveChromium)('the subscription checkout page in Chromium', { timeout: 120_000 }, () => {
  it('phone: pays the first period with 3D; active with its dates, the card saved as default, subscription.active, success_url gets transaction_token; the page then says the period is paid', async () => {
    const m = await merchant();
    const { token, checkoutUrl } = await open(m);
    const w = await newPage({ width: 390, height: 844 }, true);
    const before = shop.requests.length;

    await w.page.goto(checkoutUrl);
    expect(await w.page.locator('#period-amount').textContent()).toBe('499,80 TRY');
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(w.page, 'subscription-checkout-phone.png');
    await fillCard(w.page, CARDS.approved);
    await expect.poll(() => w.page.locator('#card-brand').textContent()).toContain('visa');
    await Promise.all([w.page.waitForURL(/\/simulator\/acs\//), w.page.click('#pay-button')]);
    expect(await w.page.textContent('body')).toContain('Tutar: 499,80 TRY');
    await Promise.all([w.page.waitForURL(/\/welcome$/), w.page.click('button[name="outcome"][value="approve"]')]);

    // The page first asks whether the address answers (a HEAD without a body), then posts.
    const [probe, received] = (await shop.waitFor(before + 2)).slice(before);
    const payment = await t.gateway.services.db.payment.findFirstOrThrow({ where: { subscriptionId: token, status: 'successful' } });
    expect(probe).toMatchObject({ method: 'HEAD', path: '/welcome', body: '' });
    expect(received).toMatchObject({ method: 'POST', path: '/welcome', body: `transaction_token=${payment.id}` });
    expect(payment).toMatchObject({ amount: 49980n, securityType: 'secure', shouldSave: true });
    const sub = await retrieve(m, token);
    expect(sub).toMatchObject({ status: 'active', amount: '499.80', is_test: true, checkout_url: null });
    expect(sub.starts_at).not.toBeNull();
    expect(sub.ends_at).not.toBeNull();
    const cards = await m.call('saved-cards', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' } });
    expect(cards.body.saved_cards).toEqual([expect.objectContaining({ token: payment.storedCardId, is_default: true, last_four_digit: '1111' })]);
    const events = await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token } });
    expect(events.map((e) => [e.kind, e.transactionToken])).toEqual([['subscription.active', payment.id]]);
    expect(w.problems).toEqual([]);

    await w.page.goto(checkoutUrl);
    expect(await w.page.textContent('body')).toContain('Abonelik etkin; bu dönem');
    expect(await w.page.locator('#number').count()).toBe(0);
    await shot(w.page, 'subscription-checkout-phone-active.png');
    await w.close();
  });

  it('desktop, English: a declined renewal makes it past_due; its page shows the period’s dates and pays it with a new card; active again with the same dates', async () => {
    const m = await merchant();
    const { token, checkoutUrl } = await open(m);
    // The first period on a card the bank will refuse at renewal time.
    const first = await newPage({ width: 1280, height: 900 }, false, 'en-GB');
    await first.page.goto(checkoutUrl);
    await fillCard(first.page, CARDS.insufficientFunds);
    await Promise.all([first.page.waitForURL(/\/simulator\/acs\//), first.page.click('#pay-button')]);
    // The bank refuses it after the 3D step: back on the page with the reason; a good card pays,
    // then the refused card is made the customer's default, which the renewal charges.
    await Promise.all([first.page.waitForURL(new RegExp(`/checkout/subscription/${token}\\?attempt=`)), first.page.click('button[name="outcome"][value="approve"]')]);
    expect(await first.page.locator('#notice').textContent()).toMatch(/^The payment did not go through: ./);
    await fillCard(first.page, CARDS.approved);
    await Promise.all([first.page.waitForURL(/\/simulator\/acs\//), first.page.click('#pay-button')]);
    await Promise.all([first.page.waitForURL(/\/welcome$/), first.page.click('button[name="outcome"][value="approve"]')]);
    await first.close();
    const declining = await m.call('save-card', {
      saved_card: { channel_token: m.channelToken },
      customer: { channel_reference: 'CUST-1' },
      card: { holder_name: 'A', number: CARDS.insufficientFunds, expiry_month: '12', expiry_year: '2030' },
    });
    await m.call('default-saved-card', { customer: { channel_token: m.channelToken, channel_reference: 'CUST-1' }, saved_card: { token: declining.body.saved_card.token } });

    const moved = await advance(t, m, '1mo');
    expect(moved.steps.map((s) => s.outcome)).toEqual(['past_due']);
    const pastDue = await retrieve(m, token);
    expect(pastDue).toMatchObject({ status: 'past_due', checkout_url: checkoutUrl, paid_at: null });

    const w = await newPage({ width: 1280, height: 900 }, false, 'en-GB');
    const before = shop.requests.length;
    await w.page.goto(checkoutUrl);
    expect(await w.page.textContent('body')).toContain('did not go through. Enter a card to pay it');
    await shot(w.page, 'subscription-checkout-desktop-past-due.png');
    await fillCard(w.page, CARDS.mastercard);
    await Promise.all([w.page.waitForURL(/\/simulator\/acs\//), w.page.click('#pay-button')]);
    await Promise.all([w.page.waitForURL(/\/welcome$/), w.page.click('button[name="outcome"][value="approve"]')]);
    const [, received] = (await shop.waitFor(before + 2)).slice(before);

    const paid = await retrieve(m, token);
    expect(paid).toMatchObject({ status: 'active', starts_at: pastDue.starts_at, ends_at: pastDue.ends_at, checkout_url: null });
    expect(paid.paid_at).not.toBeNull();
    const payment = await t.gateway.services.db.payment.findFirstOrThrow({ where: { subscriptionId: token, status: 'successful', cardLastFourDigits: '4444' } });
    expect(received!.body).toBe(`transaction_token=${payment.id}`);
    const kinds = (await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token }, orderBy: { createdAt: 'asc' } })).map((e) => e.kind);
    expect(kinds).toEqual(['subscription.active', 'subscription.past_due', 'subscription.active']);
    expect(w.problems).toEqual([]);
    await w.close();
  });
});
