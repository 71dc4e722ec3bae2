// subscription-payment, retrieve-subscription, retrieve-subscriptions and cancel-subscription over
// REST: the responses as the contract and docs/decisions.md shape them, and every validation row (422, the
// field path and message, nothing written). Paying and renewing are in lifecycle.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentAccount, updateWorkspace } from '../../src/domain/workspaces.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg, openSubscription, recurringProduct, saveProducts, subscriptionBody, subscriptionRowCounts } from './support.ts';

let t: TestGateway;
let m: Merchant;
let other: Merchant;
let accounts: { noStorage: string; noSecure: string; neither: string; usdOnly: string };

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
type Body = Record<string, unknown>;

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  other = await seedWorkspace(t);
  const db = t.gateway.services.db;
  const account = (name: string, extra: Omit<Parameters<typeof createPaymentAccount>[2], 'name'>) => createPaymentAccount(db, m.team, { name, ...extra }).then((a) => a.id);
  accounts = {
    noStorage: await account('No storage', { capabilities: { cardStorage: false } }),
    noSecure: await account('No 3D', { capabilities: { secure: false } }),
    neither: await account('Neither', { capabilities: { secure: false, cardStorage: false } }),
    usdOnly: await account('USD only', { currencies: ['USD'] }),
  };
  await saveProducts(m, [
    recurringProduct(m, 'PLAN-BASIC', { name: 'Temel', amount: '99.90', tax_rate: '20' }),
    recurringProduct(m, 'PLAN-EXTRA', { name: 'Ek depolama', amount: '25.00', tax_rate: '18' }),
    recurringProduct(m, 'PLAN-YEARLY', { period: 'yearly', amount: '999.00' }),
    recurringProduct(m, 'PLAN-USD', { currency: 'USD', amount: '10.00' }),
    recurringProduct(m, 'PLAN-OFF', { is_active: false }),
    { product: { channel_token: m.channelToken, channel_reference: 'MUG-1', name: 'Kupa', type: 'simple', amount: '50.00', tax_rate: '20' } },
  ]);
  await saveProducts(other, [recurringProduct(other, 'PLAN-FOREIGN')]);
});
afterAll(() => t?.stop());

const SUBSCRIPTION_KEYS = ['token', 'channel_token', 'channel_reference', 'status', 'period', 'items', 'amount', 'currency', 'is_test', 'starts_at', 'ends_at', 'paid_at', 'cancelled_at', 'checkout_url'];

describe('subscription-payment opens a pending subscription', () => {
  it('answers result, subscription and customer: pending, no dates, first-period amount, catalog unit prices, checkout_url; nothing charged', async () => {
    const before = await subscriptionRowCounts(t);
    const res = await m.call(
      'subscription-payment',
      subscriptionBody(m, {
        items: [
          { channel_reference: 'PLAN-BASIC', quantity: 2, unit_amount: '49.90' },
          { channel_reference: 'PLAN-EXTRA' },
        ],
      }),
    );

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'subscription', 'customer']);
    expect(res.body.result).toEqual({ successful: true, message: null });
    const token = res.body.subscription.token;
    expect(Object.keys(res.body.subscription)).toEqual(SUBSCRIPTION_KEYS);
    expect(res.body.subscription).toEqual({
      token,
      channel_token: m.channelToken,
      channel_reference: 'SUB-1001',
      status: 'pending',
      period: 'monthly',
      items: [
        // unit_amount is the catalog price; the 49.90 sent prices the first period only.
        { channel_reference: 'PLAN-BASIC', name: 'Temel', quantity: 2, unit_amount: '99.90', tax_rate: '20.00' },
        { channel_reference: 'PLAN-EXTRA', name: 'Ek depolama', quantity: 1, unit_amount: '25.00', tax_rate: '18.00' },
      ],
      amount: '124.80',
      currency: 'TRY',
      is_test: null,
      starts_at: null,
      ends_at: null,
      paid_at: null,
      cancelled_at: null,
      checkout_url: `${t.gateway.baseUrl}/checkout/subscription/${token}`,
    });
    expect(res.body.customer).toEqual({ channel_reference: 'CUST-1' });
    const after = await subscriptionRowCounts(t);
    expect(after).toEqual({ ...before, subscriptions: before.subscriptions + 1, items: before.items + 2, periods: before.periods + 1, customers: before.customers + 1 });
    expect(await eventsOf(t, token)).toEqual([]);
  });

  it('takes period and currency from the products, and keeps renewal_limit, cancel_url, webhook_url and the account given', async () => {
    const res = await m.call(
      'subscription-payment',
      subscriptionBody(m, {
        items: [{ channel_reference: 'PLAN-USD', quantity: 3 }],
        subscription: { renewal_limit: 6, webhook_url: 'http://127.0.0.1:9/hooks/subscription', payment_provider_token: accounts.usdOnly },
      }),
    );

    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ period: 'monthly', currency: 'USD', amount: '30.00' });
    const row = await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: res.body.subscription.token } });
    expect(row).toMatchObject({
      renewalLimit: 6,
      cancelUrl: 'http://127.0.0.1:9/cancel',
      webhookUrl: 'http://127.0.0.1:9/hooks/subscription',
      paymentAccountId: accounts.usdOnly,
      successUrl: 'http://127.0.0.1:9/success',
    });
  });

  it('a yearly product makes a yearly subscription', async () => {
    const { body } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-YEARLY' }] });
    expect(body.subscription).toMatchObject({ period: 'yearly', amount: '999.00' });
  });

  it('refuses keys it does not know, each on its path, and writes nothing', async () => {
    const body = subscriptionBody(m, { subscription: { note: 'x' } });
    (body as Body).extra = true;
    const before = await subscriptionRowCounts(t);
    const res = await m.call('subscription-payment', body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'subscription.note': [msg('unknown_key', { key: 'note' })], extra: [msg('unknown_key', { key: 'extra' })] });
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });
});

interface Row {
  name: string;
  over?: () => Parameters<typeof subscriptionBody>[1];
  body?: () => Body;
  merchant?: () => Merchant;
  path: string;
  message: string | (() => string);
}

const sub = (fields: Body) => () => ({ subscription: fields });
const item = (fields: Body) => () => ({ items: [{ channel_reference: 'PLAN-BASIC', ...fields }] });
const items = (...refs: string[]) => () => ({ items: refs.map((channel_reference) => ({ channel_reference })) });

const rows: Row[] = [
  { name: 'subscription missing', body: () => ({ customer: { channel_reference: 'CUST-1' } }), path: 'subscription', message: msg('required') },
  { name: 'channel_token missing', over: sub({ channel_token: undefined }), path: 'subscription.channel_token', message: msg('required') },
  { name: 'channel_token not a UUID', over: sub({ channel_token: 'web' }), path: 'subscription.channel_token', message: msg('invalid_uuid') },
  { name: 'channel_token of no channel', over: sub({ channel_token: UNKNOWN_UUID }), path: 'subscription.channel_token', message: msg('channel_not_found') },
  { name: "another workspace's channel", over: () => ({ subscription: { channel_token: other.channelToken } }), path: 'subscription.channel_token', message: msg('channel_not_found') },
  // contract: subscription.channel_reference — required; must contain a digit
  { name: 'channel_reference missing', over: sub({ channel_reference: undefined }), path: 'subscription.channel_reference', message: msg('required') },
  { name: 'channel_reference without a digit', over: sub({ channel_reference: 'SUB-ABC' }), path: 'subscription.channel_reference', message: msg('reference_needs_digit') },
  { name: 'channel_reference over 255 characters', over: sub({ channel_reference: '1'.repeat(256) }), path: 'subscription.channel_reference', message: msg('too_long', { max: 255 }) },
  // contract: subscription.success_url — required (http/https, <=2048)
  { name: 'success_url missing', over: sub({ success_url: undefined }), path: 'subscription.success_url', message: msg('required') },
  { name: 'success_url not http/https', over: sub({ success_url: 'ftp://shop.example/ok' }), path: 'subscription.success_url', message: msg('invalid_url') },
  { name: 'success_url over 2048 characters', over: sub({ success_url: `https://shop.example/${'a'.repeat(2030)}` }), path: 'subscription.success_url', message: msg('too_long', { max: 2048 }) },
  { name: 'cancel_url not http/https', over: sub({ cancel_url: 'javascript:alert(1)' }), path: 'subscription.cancel_url', message: msg('invalid_url') },
  { name: 'webhook_url not an address', over: sub({ webhook_url: 'hooks' }), path: 'subscription.webhook_url', message: msg('invalid_url') },
  { name: 'webhook_url plain http to another host', over: sub({ webhook_url: 'http://shop.example/hooks' }), path: 'subscription.webhook_url', message: msg('webhook_url_invalid') },
  { name: 'renewal_limit of zero', over: sub({ renewal_limit: 0 }), path: 'subscription.renewal_limit', message: msg('renewal_limit_range') },
  { name: 'renewal_limit above 1000', over: sub({ renewal_limit: 1001 }), path: 'subscription.renewal_limit', message: msg('renewal_limit_range') },
  { name: 'renewal_limit not an integer', over: sub({ renewal_limit: 2.5 }), path: 'subscription.renewal_limit', message: msg('invalid_type') },
  // contract: subscription.items — at least one; same product twice; periods differ; currencies differ
  { name: 'items missing', over: sub({ items: undefined }), path: 'subscription.items', message: msg('required') },
  { name: 'no item', over: () => ({ items: [] }), path: 'subscription.items', message: msg('subscription_items_required') },
  { name: 'the same product twice', over: items('PLAN-BASIC', 'PLAN-EXTRA', 'PLAN-BASIC'), path: 'subscription.items', message: msg('subscription_product_repeated') },
  { name: 'periods differ', over: items('PLAN-BASIC', 'PLAN-YEARLY'), path: 'subscription.items', message: msg('subscription_periods_differ') },
  { name: 'currencies differ', over: items('PLAN-BASIC', 'PLAN-USD'), path: 'subscription.items', message: msg('subscription_currencies_differ') },
  { name: 'the total beyond the ceiling of a card payment', over: item({ unit_amount: '99999999999.99', quantity: 2 }), path: 'subscription.items', message: msg('amount_too_large') },
  // contract: subscription.items.{i}.channel_reference — no such product; not a subscription product; not on sale
  { name: 'no such product in the channel', over: items('NOPE-1'), path: 'subscription.items.0.channel_reference', message: msg('subscription_product_not_found') },
  { name: "another workspace's product", over: items('PLAN-FOREIGN'), path: 'subscription.items.0.channel_reference', message: msg('subscription_product_not_found') },
  { name: 'not a subscription product', over: items('PLAN-BASIC', 'MUG-1'), path: 'subscription.items.1.channel_reference', message: msg('subscription_product_not_recurring') },
  { name: 'not on sale', over: items('PLAN-OFF'), path: 'subscription.items.0.channel_reference', message: msg('subscription_product_inactive') },
  { name: 'item channel_reference missing', over: () => ({ items: [{ quantity: 1 }] }), path: 'subscription.items.0.channel_reference', message: msg('required') },
  { name: 'quantity of zero', over: item({ quantity: 0 }), path: 'subscription.items.0.quantity', message: msg('quantity_range') },
  { name: 'quantity with decimals', over: item({ quantity: 1.5 }), path: 'subscription.items.0.quantity', message: msg('invalid_type') },
  { name: 'unit_amount with three decimals', over: item({ unit_amount: '10.001' }), path: 'subscription.items.0.unit_amount', message: msg('amount_format') },
  { name: 'unit_amount of zero', over: item({ unit_amount: '0' }), path: 'subscription.items.0.unit_amount', message: msg('amount_positive') },
  // contract: subscription.payment_provider_token — account (or default) does not store cards / take 3D; no account and no default
  { name: 'payment_provider_token not a UUID', over: sub({ payment_provider_token: 'acc' }), path: 'subscription.payment_provider_token', message: msg('invalid_uuid') },
  { name: 'payment_provider_token of no account', over: sub({ payment_provider_token: UNKNOWN_UUID }), path: 'subscription.payment_provider_token', message: msg('account_not_found') },
  { name: "another workspace's account", over: () => ({ subscription: { payment_provider_token: other.accountToken } }), path: 'subscription.payment_provider_token', message: msg('account_not_found') },
  { name: 'account that does not store cards', over: () => ({ subscription: { payment_provider_token: accounts.noStorage } }), path: 'subscription.payment_provider_token', message: msg('account_no_card_storage') },
  { name: 'account without 3D', over: () => ({ subscription: { payment_provider_token: accounts.noSecure } }), path: 'subscription.payment_provider_token', message: msg('account_no_secure') },
  { name: 'account that does not take the currency', over: () => ({ subscription: { payment_provider_token: accounts.usdOnly } }), path: 'subscription.payment_provider_token', message: msg('currency_not_supported') },
  {
    name: 'customer missing',
    body: () => {
      const body = subscriptionBody(m);
      delete body.customer;
      return body;
    },
    path: 'customer',
    message: msg('required'),
  },
  { name: 'customer channel_reference missing', over: () => ({ customer: { channel_reference: undefined } }), path: 'customer.channel_reference', message: msg('required') },
];

describe('subscription-payment rejects with 422, the field path and message, and writes nothing:', () => {
  it.each(rows)('$name', async (row) => {
    const merchant = row.merchant?.() ?? m;
    const body = row.body ? row.body() : subscriptionBody(merchant, row.over?.() ?? {});
    const before = await subscriptionRowCounts(t);
    const res = await merchant.call('subscription-payment', body);
    const expected = typeof row.message === 'function' ? row.message() : row.message;

    expect(res.status).toBe(422);
    expect(res.body.result).toEqual({ successful: false, message: expected });
    expect(res.body.errors[row.path]).toEqual([expected]);
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });

  it('an account that neither stores cards nor takes 3D is told both', async () => {
    const res = await m.call('subscription-payment', subscriptionBody(m, { subscription: { payment_provider_token: accounts.neither } }));
    expect(res.status).toBe(422);
    expect(res.body.errors['subscription.payment_provider_token']).toEqual([msg('account_no_secure'), msg('account_no_card_storage')]);
  });

  it('reports every bad item at once', async () => {
    const res = await m.call('subscription-payment', subscriptionBody(m, { items: [{ channel_reference: 'NOPE-1' }, { channel_reference: 'MUG-1' }, { channel_reference: 'PLAN-OFF' }] }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'subscription.items.0.channel_reference': [msg('subscription_product_not_found')],
      'subscription.items.1.channel_reference': [msg('subscription_product_not_recurring')],
      'subscription.items.2.channel_reference': [msg('subscription_product_inactive')],
    });
  });
});

describe('the default account is checked when no account is given (contract: subscription.payment_provider_token)', () => {
  const cases = [
    { name: 'no account and no default', seed: { defaultAccount: false }, messages: ['no_default_account'] as const },
    { name: 'the default does not store cards', seed: { capabilities: { cardStorage: false } }, messages: ['account_no_card_storage'] as const },
    { name: 'the default does not take 3D', seed: { capabilities: { secure: false } }, messages: ['account_no_secure'] as const },
  ];
  it.each(cases)('$name: 422 and nothing written', async ({ seed, messages }) => {
    const merchant = await seedWorkspace(t, seed);
    await saveProducts(merchant, [recurringProduct(merchant, 'PLAN-BASIC')]);
    const before = await subscriptionRowCounts(t);
    const res = await merchant.call('subscription-payment', subscriptionBody(merchant));

    expect(res.status).toBe(422);
    expect(res.body.errors['subscription.payment_provider_token']).toEqual(messages.map((c) => msg(c)));
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });
});

describe('plan coverage', () => {
  // contract convention 9 and docs/decisions.md: 403 unless the plan covers subscriptions and saved cards. The
  // errors table's "plan does not cover saved cards" at payment_provider_token is therefore met by
  // this 403 first (docs/decisions.md).
  it.each([
    { name: 'no subscriptions', plan: { orders: true, savedCards: true, subscriptions: false } },
    { name: 'no saved cards', plan: { orders: true, savedCards: false, subscriptions: true } },
  ])('is 403 when the plan covers $name, for every subscription operation, and writes nothing', async ({ plan }) => {
    const merchant = await seedWorkspace(t, { plan });
    const before = await subscriptionRowCounts(t);
    for (const [operation, body] of [
      ['subscription-payment', subscriptionBody(merchant)],
      ['retrieve-subscription', { subscription: { token: UNKNOWN_UUID } }],
      ['retrieve-subscriptions', {}],
      ['cancel-subscription', { subscription: { token: UNKNOWN_UUID } }],
    ] as const) {
      const res = await merchant.call(operation, body);
      expect(res.status, operation).toBe(403);
      expect(res.body).toEqual({ result: { successful: false, message: msg('plan_subscriptions') }, errors: {} });
    }
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });

  it('is 403 for a workspace that cannot operate and 401 for a wrong signature', async () => {
    const stopped = await seedWorkspace(t);
    await updateWorkspace(t.gateway.services.db, stopped.team, { active: false });
    await t.gateway.admission.synced();
    expect((await stopped.call('subscription-payment', subscriptionBody(stopped))).status).toBe(403);
    expect((await m.call('subscription-payment', subscriptionBody(m), { secret: 'wrong' })).status).toBe(401);
  });
});

describe('retrieve-subscription', () => {
  it('answers result and the subscription object, and changes nothing', async () => {
    const { token, body } = await openSubscription(m, { subscription: { channel_reference: 'SUB-RET-1' } });
    const before = await subscriptionRowCounts(t);
    const res = await m.call('retrieve-subscription', { subscription: { token } });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'subscription']);
    expect(res.body).toEqual({ result: { successful: true, message: null }, subscription: body.subscription });
    expect(await subscriptionRowCounts(t)).toEqual(before);
  });

  it.each([
    { name: 'token missing', body: { subscription: {} }, message: msg('required') },
    { name: 'subscription missing', body: {}, path: 'subscription', message: msg('required') },
    { name: 'token not a UUID', body: { subscription: { token: 'abc' } }, message: msg('invalid_uuid') },
    { name: 'no such subscription', body: { subscription: { token: UNKNOWN_UUID } }, message: msg('subscription_not_found') },
  ])('422 when $name', async ({ body, path, message }) => {
    const res = await m.call('retrieve-subscription', body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ result: { successful: false, message }, errors: { [path ?? 'subscription.token']: [message] } });
  });

  it("another workspace's subscription reads as not found, never its data", async () => {
    const { token } = await openSubscription(m);
    const res = await other.call('retrieve-subscription', { subscription: { token } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ result: { successful: false, message: msg('subscription_not_found') }, errors: { 'subscription.token': [msg('subscription_not_found')] } });
    expect(res.text).not.toContain(m.channelToken);
  });
});

describe('retrieve-subscriptions', () => {
  it('by channel_reference: every subscription with it, oldest first, without date fields', async () => {
    const a = await openSubscription(m, { subscription: { channel_reference: 'SUB-LIST-7' } });
    // The test clock stands still: a second apart, so "oldest first" is not decided by the id.
    t.clock.advance(1000);
    const b = await openSubscription(m, { subscription: { channel_reference: 'SUB-LIST-7' } });
    await openSubscription(other, { subscription: { channel_reference: 'SUB-LIST-7' }, items: [{ channel_reference: 'PLAN-FOREIGN' }] });
    const res = await m.call('retrieve-subscriptions', { channel_reference: 'SUB-LIST-7' });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'subscriptions']);
    expect(res.body.subscriptions.map((s: { token: string }) => s.token)).toEqual([a.token, b.token]);
    expect(res.body.subscriptions[0]).toMatchObject({ ...(a.body.subscription as object), customer: { channel_reference: 'CUST-1' }, renewal_limit: null, success_url: 'http://127.0.0.1:9/success' });
  });

  it('an empty body lists the last 7 days with the range it used', async () => {
    const { token } = await openSubscription(m, { subscription: { channel_reference: 'SUB-LIST-8' } });
    const res = await m.call('retrieve-subscriptions', {});
    expect(res.status).toBe(200);
    expect(res.body.created_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.created_to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.body.subscriptions.map((s: { token: string }) => s.token)).toContain(token);
  });

  it.each([
    { name: 'channel_reference with dates', body: { channel_reference: 'X1', created_from: '2024-01-01', created_to: '2024-01-02' }, path: 'channel_reference', message: msg('not_with_dates') },
    { name: 'a range over 7 days', body: { created_from: '2024-01-01', created_to: '2024-01-08' }, path: 'created_to', message: msg('date_range_too_long') },
    { name: 'one date alone', body: { created_from: '2024-01-01' }, path: 'created_to', message: msg('dates_together') },
    { name: 'a bad date', body: { created_from: '2024-02-30', created_to: '2024-03-01' }, path: 'created_from', message: msg('date_format') },
  ])('422 for $name', async ({ body, path, message }) => {
    const res = await m.call('retrieve-subscriptions', body);
    expect(res.status).toBe(422);
    expect(res.body.errors[path]).toEqual([message]);
  });
});

describe('cancel-subscription', () => {
  it('a pending subscription ends at once: cancelled, both events, no checkout_url; twice is a 422', async () => {
    const { token } = await openSubscription(m, { subscription: { channel_reference: 'SUB-CANCEL-1' } });
    const res = await m.call('cancel-subscription', { subscription: { token } });

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'subscription']);
    expect(res.body.subscription).toMatchObject({ token, status: 'cancelled', checkout_url: null, starts_at: null, paid_at: null });
    expect(res.body.subscription.cancelled_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect((await eventsOf(t, token)).sort()).toEqual(['subscription.cancelled', 'subscription.ended']);

    const again = await m.call('cancel-subscription', { subscription: { token } });
    expect(again.status).toBe(422);
    expect(again.body.errors).toEqual({ 'subscription.token': [msg('subscription_already_cancelled')] });
    expect((await eventsOf(t, token)).length).toBe(2);
  });

  it.each([
    { name: 'token missing', body: { subscription: {} }, message: msg('required') },
    { name: 'token not a UUID', body: { subscription: { token: 'x' } }, message: msg('invalid_uuid') },
    { name: 'no such subscription', body: { subscription: { token: UNKNOWN_UUID } }, message: msg('subscription_not_found') },
  ])('422 when $name', async ({ body, message }) => {
    const res = await m.call('cancel-subscription', body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'subscription.token': [message] });
  });

  it("another workspace's subscription is not found and stays as it was", async () => {
    const { token } = await openSubscription(m);
    const res = await other.call('cancel-subscription', { subscription: { token } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'subscription.token': [msg('subscription_not_found')] });
    expect((await t.gateway.services.db.subscription.findUniqueOrThrow({ where: { id: token } })).status).toBe('pending');
  });
});
