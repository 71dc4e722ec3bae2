// Every dashboard screen through axe-core (WCAG 2.1 A and AA) in Chromium, at desktop width in
// English and at phone width in Turkish, with data on each screen: payments (one refunded), an
// order, a paid subscription, a link, a product, a customer, a webhook address with a delivered
// notification, tokens and audit entries. At phone width every screen also fits the screen.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { orderBody } from '../helpers/orders.ts';
import { paymentBody } from '../helpers/payments.ts';
import { notificationsOf, attemptsRecorded } from '../helpers/webhooks.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts } from '../subscriptions/support.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';

warnIfNoChromium('accessibility.browser.test.ts');

const { t, merchant: m, receiver, state, open } = useDashboard({ receiver: true });
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };
const CUSTOMER = { channel_reference: 'A11Y-CUST-1', firstname: 'Elif', lastname: 'Demir', email: 'elif@example.org', phone: '+905550009988' };
const seeded = { payment: '', refunded: '', order: '', subscription: '', link: '', customer: '' };

beforeAll(async () => {
  const s = t.gateway.services;
  const workspace = await s.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  await addWebhookAddress(s, workspace, { url: `${receiver.url}/hooks`, events: ['transaction.successful'] });

  const paid = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'A11Y-PAY-1', amount: '120.50' }, customer: CUSTOMER }));
  expect(paid.body.result.successful).toBe(true);
  seeded.payment = paid.body.transaction.token;
  const [notification] = await notificationsOf(t, { recordToken: seeded.payment });
  t.clock.advance(30_000);
  await attemptsRecorded(t, notification!.id, 1);

  const refunded = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'A11Y-PAY-2', amount: '80.00' } }));
  seeded.refunded = refunded.body.transaction.token;
  expect((await m.call('refund-payment', { transaction: { token: seeded.refunded }, amount: '80.00' })).body.result.successful).toBe(true);
  await s.attempts.drain();

  const order = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'A11Y-ORD-1' } }));
  expect(order.status).toBe(200);
  seeded.order = order.body.order.token;

  await saveProducts(m, [recurringProduct(m, 'A11Y-PLAN')]);
  const sub = await openSubscription(m, { subscription: { channel_reference: 'A11Y-SUB-1', items: [{ channel_reference: 'A11Y-PLAN' }] } });
  await payPeriod(t, sub.token);
  seeded.subscription = sub.token;

  const link = await m.call('create-payment-link', { payment_link: { currency: 'TRY', description: 'A11Y link', items: [{ name: 'Kupa', unit_amount: '30.00' }] } }, ts);
  expect(link.status).toBe(200);
  seeded.link = link.body.payment_link.token;

  seeded.customer = (await s.db.customer.findFirstOrThrow({ where: { workspaceId: m.workspaceId, channelReference: CUSTOMER.channel_reference } })).id;

  // A write through GraphQL with the browser's token: a token of its own and an audit entry.
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${state.token}` },
    body: JSON.stringify({ query: 'mutation { createAccessToken(name: "A11Y desk", role: viewer) { token } }' }),
  });
  expect(res.status).toBe(200);
});

/** Each screen by its path, and a text that shows its data has arrived. */
const screens = () => [
  { name: 'overview', path: '', shows: '' },
  { name: 'payments', path: 'payments', shows: 'A11Y-PAY-1' },
  { name: 'payment detail (refunded)', path: `payments/${seeded.refunded}`, shows: 'A11Y-PAY-2' },
  { name: 'payment detail', path: `payments/${seeded.payment}`, shows: 'transaction.successful' },
  { name: 'orders', path: 'orders', shows: 'A11Y-ORD-1' },
  { name: 'order detail', path: `orders/${seeded.order}`, shows: 'A11Y-ORD-1' },
  { name: 'subscriptions', path: 'subscriptions', shows: 'A11Y-SUB-1' },
  { name: 'subscription detail', path: `subscriptions/${seeded.subscription}`, shows: 'A11Y-SUB-1' },
  { name: 'links', path: 'links', shows: 'A11Y link' },
  { name: 'link detail', path: `links/${seeded.link}`, shows: 'A11Y link' },
  { name: 'new link', path: 'links/new', shows: '' },
  { name: 'products', path: 'products', shows: 'A11Y-PLAN' },
  { name: 'customers', path: 'customers', shows: 'A11Y-CUST-1' },
  { name: 'customer detail', path: `customers/${seeded.customer}`, shows: 'elif@example.org' },
  { name: 'webhooks', path: 'webhooks', shows: '/hooks' },
  { name: 'risk', path: 'risk', shows: '' },
  { name: 'settings', path: 'settings', shows: '' },
  { name: 'tokens', path: 'tokens', shows: 'A11Y desk' },
  { name: 'audit', path: 'audit', shows: 'createAccessToken' },
  { name: 'search results', path: 'search/A11Y', shows: 'A11Y-PAY-1' },
];

/** The screen at `path` loaded in the open tab (the token stays in its sessionStorage), its data shown. */
async function visit(page: Page, path: string, shows: string): Promise<void> {
  await page.goto(`${t.gateway.baseUrl}/dashboard/${path}`);
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
  await expect.poll(() => page.locator('main h1, main h2').count()).toBeGreaterThan(0);
  if (shows) await expect.poll(() => page.locator('main').textContent()).toContain(shows);
}

async function expectNoViolations(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `${what}:\n${violations.join('\n')}`).toEqual([]);
}

describe.skipIf(!haveChromium)('every dashboard screen passes axe (WCAG 2.1 A/AA)', { timeout: 300_000 }, () => {
  it.each([
    { width: 1280, height: 800, locale: 'en-GB' },
    { width: 390, height: 844, locale: 'tr-TR' },
  ])('at $width x $height in $locale', async ({ width, height, locale }) => {
    const { page, problems } = await open(width, height, { locale });
    const failures: string[] = [];
    const lang = locale.slice(0, 2);
    for (const screen of screens()) {
      await visit(page, screen.path, screen.shows);
      expect(await page.getAttribute('html', 'lang'), screen.name).toBe(lang);
      const violations = await axeViolations(page);
      if (violations.length) failures.push(`${screen.name} (/dashboard/${screen.path}):\n  ${violations.join('\n  ')}`);
      if (width < 600) await fitsWidth(page, width);
    }
    expect(failures.join('\n'), 'axe violations').toBe('');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it.each([
    { width: 1280, height: 800, locale: 'en-GB' },
    { width: 390, height: 844, locale: 'tr-TR' },
  ])('the sign-in page at $width x $height in $locale', async ({ width, height, locale }) => {
    const { page, problems } = await open(width, height, { locale, token: '' });
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${t.gateway.baseUrl}/dashboard/?invalid`);
    await expect.poll(() => page.locator('input[name="token"]').count()).toBe(1);
    expect(await page.getAttribute('html', 'lang')).toBe(locale.slice(0, 2));
    await expectNoViolations(page, 'sign-in');
    if (width < 600) await fitsWidth(page, width);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
