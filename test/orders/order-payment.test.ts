// order-payment: the response, the amount as the sum of the items, catalog fill-in, per-order
// overrides, prices frozen at creation, and every validation row (status, field path, message,
// nothing written).
import { beforeAll, describe, expect, it } from 'vitest';
import { createPaymentAccount, updateWorkspace } from '../../src/domain/workspaces.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, expectPlainError, msg, type MessageCode } from '../helpers/messages.ts';
import { orderBody, orderRowCounts, productBody } from '../helpers/orders.ts';

const {
  t,
  merchant: m,
  merchants: { other, noOrders, noDefault, defaultNo3d },
  seed,
} = useGateway({
  merchant: true,
  merchants: {
    other: {},
    noOrders: { plan: { savedCards: true, subscriptions: true } },
    noDefault: { defaultAccount: false },
    defaultNo3d: { capabilities: { secure: false } },
  },
});
let accounts: { noSecure: string; tryOnly: string; usdConversion: string };

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
type Body = Record<string, unknown>;

beforeAll(async () => {
  const db = t.gateway.services.db;
  const account = (name: string, extra: Omit<Parameters<typeof createPaymentAccount>[2], 'name'>) => createPaymentAccount(db, m.team, { name, ...extra }).then((a) => a.id);
  accounts = {
    noSecure: await account('No 3D', { capabilities: { secure: false } }),
    tryOnly: await account('TRY only', { currencies: ['TRY'] }),
    usdConversion: await account('USD with conversion', { currencies: ['USD'], capabilities: { conversion: true } }),
  };
  // The catalog the fill-in tests use.
  await m.call('save-product', productBody(m, { channel_reference: 'CAT-MUG', name: 'Kupa', amount: '120.00', tax_rate: '20' }));
  await m.call('save-product', productBody(m, { channel_reference: 'CAT-TEA', name: 'Çay', amount: '45.50', tax_rate: '1' }));
  await m.call('save-product', productBody(m, { channel_reference: 'CAT-USD', name: 'Import', amount: '10.00', tax_rate: '0', currency: 'USD' }));
  await other.call('save-product', productBody(other, { channel_reference: 'CAT-FOREIGN', name: 'Başkasının', amount: '1.00', tax_rate: '0' }));
});

const loadOrder = (token: string) =>
  t.gateway.services.db.order.findUniqueOrThrow({ where: { id: token }, include: { items: { orderBy: { position: 'asc' } }, customer: true } });

describe('order-payment opens an order', () => {
  it('answers result, order and customer; amount is the sum of the items; status open; nothing is charged', async () => {
    const before = await orderRowCounts(t);
    const res = await m.call(
      'order-payment',
      orderBody(m, {
        items: [
          { channel_reference: 'A-1', name: 'Kitap', quantity: 2, unit_amount: '50.05', tax_rate: 10 },
          { channel_reference: 'A-2', name: 'Kalem', unit_amount: 7.5 },
        ],
      }),
    );

    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'order', 'customer']);
    expect(res.body.result).toEqual({ successful: true, message: null });
    const token = res.body.order.token;
    expect(res.body.order).toEqual({
      token,
      channel_token: m.channelToken,
      channel_reference: 'ORD-1001',
      amount: '107.60',
      currency: 'TRY',
      status: 'open',
      checkout_url: `${t.gateway.baseUrl}/checkout/order/${token}`,
    });
    expect(res.body.customer).toEqual({ channel_reference: 'CUST-1' });
    const after = await orderRowCounts(t);
    expect(after).toEqual({ ...before, orders: before.orders + 1, orderItems: before.orderItems + 2, customers: before.customers + 1 });

    const order = await loadOrder(token);
    expect(order).toMatchObject({ amount: 10760n, status: 'open', successUrl: 'http://127.0.0.1:9/success', cancelUrl: 'http://127.0.0.1:9/cancel', description: 'Sipariş 1001' });
    // quantity defaults to 1; an item without tax_rate (outside the catalog) has none.
    expect(order.items.map((i) => [i.channelReference, i.name, i.quantity, i.unitAmount, i.taxRate])).toEqual([
      ['A-1', 'Kitap', 2, 5005n, 1000],
      ['A-2', 'Kalem', 1, 750n, null],
    ]);
    expect(order.customer).toMatchObject({ channelReference: 'CUST-1', firstname: 'Ayşe', email: 'ayse@example.com' });
  });

  it('keeps the currency sent and the payment account given', async () => {
    const res = await m.call('order-payment', orderBody(m, { order: { currency: 'USD', payment_provider_token: accounts.usdConversion } }));

    expect(res.status).toBe(200);
    expect(res.body.order.currency).toBe('USD');
    expect((await loadOrder(res.body.order.token)).paymentAccountId).toBe(accounts.usdConversion);
  });

  it('fills empty item fields from the catalog: name, unit_amount and tax_rate', async () => {
    const res = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'CAT-MUG', quantity: 3 }, { channel_reference: 'CAT-TEA' }] }));

    expect(res.status).toBe(200);
    expect(res.body.order.amount).toBe('405.50');
    const order = await loadOrder(res.body.order.token);
    expect(order.items.map((i) => [i.name, i.quantity, i.unitAmount, i.taxRate])).toEqual([
      ['Kupa', 3, 12000n, 2000],
      ['Çay', 1, 4550n, 100],
    ]);
  });

  it('uses the values sent on an item for this order only; the catalog is unchanged', async () => {
    const res = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'CAT-MUG', name: 'Kupa (indirimli)', unit_amount: '99.99', tax_rate: '8.5' }] }));

    expect(res.status).toBe(200);
    expect(res.body.order.amount).toBe('99.99');
    const [item] = (await loadOrder(res.body.order.token)).items;
    expect(item).toMatchObject({ name: 'Kupa (indirimli)', unitAmount: 9999n, taxRate: 850 });
    const product = await t.gateway.services.db.product.findFirstOrThrow({ where: { channelId: m.channelToken, channelReference: 'CAT-MUG' } });
    expect(product).toMatchObject({ name: 'Kupa', amount: 12000n, taxRate: 2000 });
  });

  it('fills only the fields an item leaves empty (name sent, price from the catalog)', async () => {
    const res = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'CAT-TEA', name: 'Rize çayı', quantity: 2 }] }));

    expect(res.body.order.amount).toBe('91.00');
    expect((await loadOrder(res.body.order.token)).items[0]).toMatchObject({ name: 'Rize çayı', unitAmount: 4550n, taxRate: 100 });
  });

  it('a catalog price change after creation never changes the open order', async () => {
    await m.call('save-product', productBody(m, { channel_reference: 'CAT-PRICE', name: 'Lamba', amount: '300.00', tax_rate: '20' }));
    const res = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'CAT-PRICE', quantity: 2 }] }));
    expect(res.body.order.amount).toBe('600.00');

    await m.call('save-product', productBody(m, { channel_reference: 'CAT-PRICE', name: 'Lamba (yeni)', amount: '450.00', tax_rate: '10', is_active: false }));

    const order = await loadOrder(res.body.order.token);
    expect(order.amount).toBe(60000n);
    expect(order.items[0]).toMatchObject({ name: 'Lamba', unitAmount: 30000n, taxRate: 2000 });
    const listed = await m.call('retrieve-orders', { token: res.body.order.token });
    expect(listed.body.orders[0]).toMatchObject({ amount: '600.00', items: [{ channel_reference: 'CAT-PRICE', name: 'Lamba', quantity: 2, unit_amount: '300.00', tax_rate: '20.00' }] });
    const page = await (await fetch(res.body.order.checkout_url)).text();
    expect(page).toContain('Lamba');
    expect(page).not.toContain('Lamba (yeni)');
    expect(page).toContain('600,00 TRY');

    // A new order takes the new price.
    const next = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'CAT-PRICE' }] }));
    expect(next.body.order.amount).toBe('450.00');
  });

  it('two orders with the same channel_reference are two orders', async () => {
    const a = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-DUP-1' } }));
    const b = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-DUP-1' } }));
    expect(a.body.order.token).not.toBe(b.body.order.token);
  });

  it('without payment_provider_token leaves the account to selection at payment time', async () => {
    const res = await m.call('order-payment', orderBody(m));
    expect((await loadOrder(res.body.order.token)).paymentAccountId).toBeNull();
  });

  it('refuses keys it does not know, each on its path, and writes nothing', async () => {
    const body = orderBody(m, { order: { note: 'x' } });
    (body as Body).extra = true;
    const before = await orderRowCounts(t);
    const res = await m.call('order-payment', body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'order.note': [msg('unknown_key', { key: 'note' })], extra: [msg('unknown_key', { key: 'extra' })] });
    expect(await orderRowCounts(t)).toEqual(before);
  });
});

type Over = Parameters<typeof orderBody>[1];
interface Row {
  name: string;
  over?: () => Over;
  body?: () => Body;
  merchant?: () => Merchant;
  path: string;
  code: MessageCode;
  params?: Record<string, number>;
}

const order = (fields: Body) => () => ({ order: fields });
const item = (fields: Body) => () => ({ items: [{ channel_reference: 'ITEM-1', name: 'Kitap', unit_amount: '50.00', ...fields }] });

const rows: Row[] = [
  { name: 'order missing', body: () => ({ customer: { channel_reference: 'CUST-1' } }), path: 'order', code: 'required' },
  { name: 'channel_token missing', over: order({ channel_token: undefined }), path: 'order.channel_token', code: 'required' },
  { name: 'channel_token not a UUID', over: order({ channel_token: 'web' }), path: 'order.channel_token', code: 'invalid_uuid' },
  { name: 'channel_token of no channel', over: order({ channel_token: UNKNOWN_UUID }), path: 'order.channel_token', code: 'channel_not_found' },
  { name: "another workspace's channel_token", over: () => ({ order: { channel_token: other.channelToken } }), path: 'order.channel_token', code: 'channel_not_found' },
  { name: 'channel_reference missing', over: order({ channel_reference: undefined }), path: 'order.channel_reference', code: 'required' },
  { name: 'channel_reference without a digit', over: order({ channel_reference: 'ORD-ABC' }), path: 'order.channel_reference', code: 'reference_needs_digit' },
  { name: 'channel_reference over 255 characters', over: order({ channel_reference: '1'.repeat(256) }), path: 'order.channel_reference', code: 'too_long', params: { max: 255 } },
  { name: 'success_url missing', over: order({ success_url: undefined }), path: 'order.success_url', code: 'required' },
  { name: 'success_url not http/https', over: order({ success_url: 'ftp://shop.example/ok' }), path: 'order.success_url', code: 'invalid_url' },
  { name: 'success_url not an address', over: order({ success_url: 'javascript:alert(1)' }), path: 'order.success_url', code: 'invalid_url' },
  { name: 'success_url over 2048 characters', over: order({ success_url: `https://shop.example/${'a'.repeat(2030)}` }), path: 'order.success_url', code: 'too_long', params: { max: 2048 } },
  { name: 'cancel_url not http/https', over: order({ cancel_url: 'javascript:alert(1)' }), path: 'order.cancel_url', code: 'invalid_url' },
  { name: 'cancel_url over 2048 characters', over: order({ cancel_url: `https://shop.example/${'a'.repeat(2030)}` }), path: 'order.cancel_url', code: 'too_long', params: { max: 2048 } },
  { name: 'description over 255 characters', over: order({ description: 'd'.repeat(256) }), path: 'order.description', code: 'too_long', params: { max: 255 } },
  { name: 'currency outside TRY/USD/EUR/GBP', over: order({ currency: 'JPY' }), path: 'order.currency', code: 'currency_invalid' },
  { name: 'items missing', over: order({ items: undefined }), path: 'order.items', code: 'required' },
  { name: 'no item', over: () => ({ items: [] }), path: 'order.items', code: 'order_items_required' },
  { name: 'item channel_reference missing', over: item({ channel_reference: undefined }), path: 'order.items.0.channel_reference', code: 'required' },
  { name: 'item channel_reference over 255 characters', over: item({ channel_reference: 'R'.repeat(256) }), path: 'order.items.0.channel_reference', code: 'too_long', params: { max: 255 } },
  { name: 'item outside the catalog without name', over: item({ name: undefined }), path: 'order.items.0.channel_reference', code: 'order_item_not_in_catalog' },
  { name: 'item outside the catalog without unit_amount', over: item({ unit_amount: undefined }), path: 'order.items.0.channel_reference', code: 'order_item_not_in_catalog' },
  {
    name: "another workspace's product is not in this channel's catalog",
    over: () => ({ items: [{ channel_reference: 'CAT-FOREIGN' }] }),
    path: 'order.items.0.channel_reference',
    code: 'order_item_not_in_catalog',
  },
  {
    name: 'the second item outside the catalog (index in the path)',
    over: () => ({ items: [{ channel_reference: 'CAT-MUG' }, { channel_reference: 'NOPE-9' }] }),
    path: 'order.items.1.channel_reference',
    code: 'order_item_not_in_catalog',
  },
  {
    name: 'catalog product in another currency without unit_amount',
    over: () => ({ items: [{ channel_reference: 'CAT-USD' }] }),
    path: 'order.items.0.channel_reference',
    code: 'order_item_currency_mismatch',
  },
  { name: 'item name over 255 characters', over: item({ name: 'N'.repeat(256) }), path: 'order.items.0.name', code: 'too_long', params: { max: 255 } },
  { name: 'unit_amount with three decimals', over: item({ unit_amount: '10.001' }), path: 'order.items.0.unit_amount', code: 'amount_format' },
  { name: 'unit_amount with a decimal comma', over: item({ unit_amount: '10,50' }), path: 'order.items.0.unit_amount', code: 'amount_format' },
  { name: 'unit_amount not a number', over: item({ unit_amount: 'free' }), path: 'order.items.0.unit_amount', code: 'amount_format' },
  { name: 'unit_amount negative', over: item({ unit_amount: '-1.00' }), path: 'order.items.0.unit_amount', code: 'amount_format' },
  { name: 'unit_amount of zero', over: item({ unit_amount: '0.00' }), path: 'order.items.0.unit_amount', code: 'amount_positive' },
  { name: 'unit_amount beyond the ceiling', over: item({ unit_amount: '100000000000.00' }), path: 'order.items.0.unit_amount', code: 'amount_too_large' },
  { name: 'total of the items beyond the ceiling', over: item({ unit_amount: '99999999999.99', quantity: 2 }), path: 'order.items', code: 'amount_too_large' },
  { name: 'quantity of zero', over: item({ quantity: 0 }), path: 'order.items.0.quantity', code: 'quantity_range' },
  { name: 'quantity negative', over: item({ quantity: -2 }), path: 'order.items.0.quantity', code: 'quantity_range' },
  { name: 'quantity above 999999', over: item({ quantity: 1_000_000 }), path: 'order.items.0.quantity', code: 'quantity_range' },
  { name: 'quantity with decimals', over: item({ quantity: 1.5 }), path: 'order.items.0.quantity', code: 'invalid_type' },
  { name: 'quantity as a string', over: item({ quantity: '2' }), path: 'order.items.0.quantity', code: 'invalid_type' },
  { name: 'tax_rate above 100', over: item({ tax_rate: 100.01 }), path: 'order.items.0.tax_rate', code: 'rate_format' },
  { name: 'tax_rate negative', over: item({ tax_rate: -1 }), path: 'order.items.0.tax_rate', code: 'rate_format' },
  { name: 'tax_rate with three decimals', over: item({ tax_rate: 18.125 }), path: 'order.items.0.tax_rate', code: 'rate_format' },
  { name: 'tax_rate not a number', over: item({ tax_rate: 'KDV' }), path: 'order.items.0.tax_rate', code: 'rate_format' },
  { name: 'payment_provider_token not a UUID', over: order({ payment_provider_token: 'acc' }), path: 'order.payment_provider_token', code: 'invalid_uuid' },
  { name: 'payment_provider_token of no account', over: order({ payment_provider_token: UNKNOWN_UUID }), path: 'order.payment_provider_token', code: 'account_not_found' },
  { name: "another workspace's account", over: () => ({ order: { payment_provider_token: other.accountToken } }), path: 'order.payment_provider_token', code: 'account_not_found' },
  { name: 'account without 3D', over: () => ({ order: { payment_provider_token: accounts.noSecure } }), path: 'order.payment_provider_token', code: 'account_no_secure' },
  {
    name: 'account that does not take the currency',
    over: () => ({ order: { payment_provider_token: accounts.tryOnly, currency: 'EUR' } }),
    path: 'order.currency',
    code: 'currency_not_supported',
  },
  { name: 'no account given and no default account', merchant: () => noDefault, path: 'order.payment_provider_token', code: 'no_default_account' },
  { name: 'no account given and the default account without 3D', merchant: () => defaultNo3d, path: 'order.payment_provider_token', code: 'account_no_secure' },
  {
    name: 'customer missing',
    body: () => {
      const body = orderBody(m);
      delete body.customer;
      return body;
    },
    path: 'customer',
    code: 'required',
  },
  { name: 'customer channel_reference missing', over: () => ({ customer: { channel_reference: undefined } }), path: 'customer.channel_reference', code: 'required' },
];

describe('order-payment rejects with 422, the field path and message, and writes nothing:', () => {
  it.each(rows)('$name', async (row) => {
    const merchant = row.merchant?.() ?? m;
    const body = row.body ? row.body() : orderBody(merchant, row.over?.() ?? {});
    const before = await orderRowCounts(t);
    const res = await merchant.call('order-payment', body);

    expectFieldError(res, row.path, row.code, { params: row.params });
    expect(await orderRowCounts(t)).toEqual(before);
  });

  it('reports every bad item at once', async () => {
    const res = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'X-1' }, { channel_reference: 'CAT-MUG', unit_amount: '0' }, { channel_reference: 'X-3', name: 'A' }] }));

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'order.items.0.channel_reference': [msg('order_item_not_in_catalog')],
      'order.items.1.unit_amount': [msg('amount_positive')],
      'order.items.2.channel_reference': [msg('order_item_not_in_catalog')],
    });
  });
});

describe('order-payment access', () => {
  it('is 403 when the plan does not cover orders, and writes nothing', async () => {
    const before = await orderRowCounts(t);
    const res = await noOrders.call('order-payment', orderBody(noOrders));

    expectPlainError(res, 403, 'plan_orders');
    expect(await orderRowCounts(t)).toEqual(before);
  });

  it('is 403 for a workspace that cannot operate and 401 for a wrong signature', async () => {
    const stopped = await seed();
    await updateWorkspace(t.gateway.services.db, stopped.team, { active: false });
    await t.gateway.admission.synced();
    expect((await stopped.call('order-payment', orderBody(stopped))).status).toBe(403);
    expect((await m.call('order-payment', orderBody(m), { secret: 'wrong' })).status).toBe(401);
  });
});
