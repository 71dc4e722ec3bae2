// save-product: every field rule of the contract (status, field path, message, nothing written),
// upsert by (channel_token, channel_reference), defaults, and the dashboard `products` query.
import { describe, expect, it } from 'vitest';
import { createChannel, updateWorkspace } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, msg, type MessageCode } from '../helpers/messages.ts';
import { gql, type GqlResult } from '../helpers/webhooks.ts';
import { orderRowCounts, productBody } from '../helpers/orders.ts';

const {
  t,
  merchant: m,
  merchants: { other },
  seed,
} = useGateway({ merchant: true, merchants: { other: {} } });

const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

const product = (reference: string) => t.gateway.services.db.product.findMany({ where: { channelReference: reference } });

describe('save-product saves', () => {
  it('a simple product with the contract defaults (currency TRY, is_active true) and answers the Product object', async () => {
    const res = await m.call('save-product', productBody(m, { channel_reference: 'SKU-DEFAULTS', amount: '1500', tax_rate: '20' }));

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: { successful: true, message: null },
      product: {
        channel_token: m.channelToken,
        channel_reference: 'SKU-DEFAULTS',
        name: 'Kahve Makinesi',
        type: 'simple',
        amount: '1500.00',
        currency: 'TRY',
        tax_rate: '20.00',
        period: null,
        is_active: true,
      },
    });
    const [row] = await product('SKU-DEFAULTS');
    expect(row).toMatchObject({ amount: 150000n, taxRate: 2000, currency: 'TRY', isActive: true, period: null, workspaceId: m.workspaceId });
  });

  it('amount and tax_rate sent as JSON numbers, at their lowest and highest values', async () => {
    const res = await m.call('save-product', productBody(m, { channel_reference: 'SKU-NUMBERS', amount: 0.01, tax_rate: 100 }));

    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ amount: '0.01', tax_rate: '100.00' });
    const zero = await m.call('save-product', productBody(m, { channel_reference: 'SKU-ZERO-TAX', amount: 12.5, tax_rate: 0 }));
    expect(zero.body.product).toMatchObject({ amount: '12.50', tax_rate: '0.00' });
  });

  it('a simple product stores period as null even when one is sent', async () => {
    const res = await m.call('save-product', productBody(m, { channel_reference: 'SKU-SIMPLE-PERIOD', period: 'monthly' }));

    expect(res.status).toBe(200);
    expect(res.body.product.period).toBeNull();
    expect((await product('SKU-SIMPLE-PERIOD'))[0]!.period).toBeNull();
  });

  it('a simple product ignores a period that would be invalid for a recurring one', async () => {
    const res = await m.call('save-product', productBody(m, { channel_reference: 'SKU-SIMPLE-WEEKLY', period: 'weekly' }));

    expect(res.status).toBe(200);
    expect(res.body.product.period).toBeNull();
  });

  it('a recurring product with its period, currency and is_active false', async () => {
    const res = await m.call(
      'save-product',
      productBody(m, { channel_reference: 'PLAN-Y', type: 'recurring', period: 'yearly', currency: 'USD', is_active: false, amount: '99.90', tax_rate: '18.5' }),
    );

    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ type: 'recurring', period: 'yearly', currency: 'USD', is_active: false, amount: '99.90', tax_rate: '18.50' });
  });

  it('again with the same channel_token and channel_reference: updated, not duplicated', async () => {
    await m.call('save-product', productBody(m, { channel_reference: 'SKU-UPSERT', name: 'Eski ad', amount: '10.00' }));
    const before = await orderRowCounts(t);
    const res = await m.call('save-product', productBody(m, { channel_reference: 'SKU-UPSERT', name: 'Yeni ad', amount: '12.00', is_active: false }));

    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ name: 'Yeni ad', amount: '12.00', is_active: false });
    expect((await orderRowCounts(t)).products).toBe(before.products);
    const rows = await product('SKU-UPSERT');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Yeni ad', amount: 1200n, isActive: false });
  });

  it('the same channel_reference in another channel as another product', async () => {
    const second = await createChannel(t.gateway.services.db, m.team, 'Mobil');
    await m.call('save-product', productBody(m, { channel_reference: 'SKU-TWO-CHANNELS', amount: '1.00' }));
    const res = await m.call('save-product', productBody(m, { channel_token: second.id, channel_reference: 'SKU-TWO-CHANNELS', amount: '2.00' }));

    expect(res.status).toBe(200);
    const rows = await product('SKU-TWO-CHANNELS');
    expect(rows.map((r) => r.amount).sort()).toEqual([100n, 200n]);
  });

  it('two first saves of one reference at once leave one product', async () => {
    const saves = await Promise.all(
      [1, 2, 3, 4].map((n) => m.call('save-product', productBody(m, { channel_reference: 'SKU-RACE', amount: `${n}.00` }))),
    );

    expect(saves.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await product('SKU-RACE')).toHaveLength(1);
  });
});

type Over = Record<string, unknown>;
interface Row {
  name: string;
  over?: Over;
  /** Replaces the whole body. */
  body?: () => unknown;
  path: string;
  code: MessageCode;
  params?: Record<string, string | number>;
}

const rows: Row[] = [
  { name: 'product missing', body: () => ({}), path: 'product', code: 'required' },
  { name: 'unknown key inside product', over: { color: 'red' }, path: 'product.color', code: 'unknown_key', params: { key: 'color' } },
  { name: 'unknown key inside product (id)', over: { id: UNKNOWN_UUID }, path: 'product.id', code: 'unknown_key', params: { key: 'id' } },
  { name: 'channel_token missing', over: { channel_token: undefined }, path: 'product.channel_token', code: 'required' },
  { name: 'channel_token not a UUID', over: { channel_token: 'web' }, path: 'product.channel_token', code: 'invalid_uuid' },
  { name: 'channel_token of no channel', over: { channel_token: UNKNOWN_UUID }, path: 'product.channel_token', code: 'channel_not_found' },
  { name: "another workspace's channel_token", over: { channel_token: '__other__' }, path: 'product.channel_token', code: 'channel_not_found' },
  { name: 'channel_reference missing', over: { channel_reference: undefined }, path: 'product.channel_reference', code: 'required' },
  { name: 'channel_reference empty', over: { channel_reference: '' }, path: 'product.channel_reference', code: 'required' },
  { name: 'channel_reference over 255 characters', over: { channel_reference: 'S'.repeat(256) }, path: 'product.channel_reference', code: 'too_long', params: { max: 255 } },
  { name: 'name missing', over: { name: undefined }, path: 'product.name', code: 'required' },
  { name: 'name over 255 characters', over: { name: 'N'.repeat(256) }, path: 'product.name', code: 'too_long', params: { max: 255 } },
  { name: 'type missing', over: { type: undefined }, path: 'product.type', code: 'required' },
  { name: 'type other than simple/recurring', over: { type: 'bundle' }, path: 'product.type', code: 'product_type_invalid' },
  { name: 'amount missing', over: { amount: undefined }, path: 'product.amount', code: 'required' },
  { name: 'amount of zero', over: { amount: '0.00' }, path: 'product.amount', code: 'product_amount_min' },
  { name: 'amount of zero as a number', over: { amount: 0 }, path: 'product.amount', code: 'product_amount_min' },
  { name: 'amount with three decimals', over: { amount: '10.001' }, path: 'product.amount', code: 'amount_format' },
  { name: 'amount number with three decimals', over: { amount: 10.001 }, path: 'product.amount', code: 'amount_format' },
  { name: 'amount negative', over: { amount: '-5.00' }, path: 'product.amount', code: 'amount_format' },
  { name: 'amount with a decimal comma', over: { amount: '10,50' }, path: 'product.amount', code: 'amount_format' },
  { name: 'amount not a number', over: { amount: 'ten' }, path: 'product.amount', code: 'amount_format' },
  { name: 'amount beyond the ceiling', over: { amount: '100000000000.00' }, path: 'product.amount', code: 'amount_too_large' },
  { name: 'tax_rate missing', over: { tax_rate: undefined }, path: 'product.tax_rate', code: 'required' },
  { name: 'tax_rate above 100', over: { tax_rate: '100.01' }, path: 'product.tax_rate', code: 'rate_format' },
  { name: 'tax_rate negative', over: { tax_rate: -1 }, path: 'product.tax_rate', code: 'rate_format' },
  { name: 'tax_rate with three decimals', over: { tax_rate: '18.125' }, path: 'product.tax_rate', code: 'rate_format' },
  { name: 'tax_rate not a number', over: { tax_rate: 'KDV' }, path: 'product.tax_rate', code: 'rate_format' },
  { name: 'period missing for recurring', over: { type: 'recurring' }, path: 'product.period', code: 'product_period_required' },
  { name: 'period null for recurring', over: { type: 'recurring', period: null }, path: 'product.period', code: 'product_period_required' },
  { name: 'period other than monthly/yearly', over: { type: 'recurring', period: 'weekly' }, path: 'product.period', code: 'product_period_invalid' },
  { name: 'currency outside TRY/USD/EUR/GBP', over: { currency: 'JPY' }, path: 'product.currency', code: 'currency_invalid' },
  { name: 'is_active not a boolean', over: { is_active: 'yes' }, path: 'product.is_active', code: 'invalid_type' },
];

describe('save-product rejects with 422, the field path and message, and writes nothing:', () => {
  it.each(rows)('$name', async (row) => {
    const over = { ...row.over };
    if (over.channel_token === '__other__') over.channel_token = other.channelToken;
    const body = row.body ? row.body() : productBody(m, { channel_reference: 'SKU-REJECTED', ...over });
    const before = await orderRowCounts(t);
    const res = await m.call('save-product', body);

    expectFieldError(res, row.path, row.code, { params: row.params });
    expect(await orderRowCounts(t)).toEqual(before);
  });

  it('an update that breaks a rule leaves the stored product as it was', async () => {
    await m.call('save-product', productBody(m, { channel_reference: 'SKU-KEEP', amount: '5.00' }));
    const res = await m.call('save-product', productBody(m, { channel_reference: 'SKU-KEEP', amount: '5.00', tax_rate: 101 }));

    expect(res.status).toBe(422);
    expect((await product('SKU-KEEP'))[0]).toMatchObject({ amount: 500n, taxRate: 2000 });
  });
});

describe('save-product access', () => {
  it('is 401 with a wrong signature and 403 for a workspace that cannot operate', async () => {
    const bad = await m.call('save-product', productBody(m), { secret: 'wrong' });
    expect(bad.status).toBe(401);

    const stopped = await seed();
    await updateWorkspace(t.gateway.services.db, stopped.team, { active: false });
    await t.gateway.admission.synced();
    const before = await orderRowCounts(t);
    const res = await stopped.call('save-product', productBody(stopped));
    expect(res.status).toBe(403);
    expect(res.body.result).toEqual({ successful: false, message: msg('workspace_inactive') });
    expect(await orderRowCounts(t)).toEqual(before);
  });

  it('needs no orders or subscriptions plan', async () => {
    const basic = await seed({ plan: {} });
    const res = await basic.call('save-product', productBody(basic));
    expect(res.status).toBe(200);
  });
});

describe('GraphQL products', () => {
  it('lists the workspace catalog for a dashboard token, filtered by channel and reference, never another workspace', async () => {
    await other.call('save-product', productBody(other, { channel_reference: 'SKU-OTHER' }));
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash');
    const query = `query($filter: ProductFilter) { products(filter: $filter, first: 200) {
      edges { node { channelToken channelReference name type amount currency taxRate period isActive } } pageInfo { hasNextPage } } }`;
    const nodes = (res: GqlResult) => res.body.data.products.edges.map((e: { node: { channelReference: string } }) => e.node);

    const all = await gql(t, token, query, { filter: { channelToken: m.channelToken } });
    expect(all.body.errors).toBeUndefined();
    const refs = nodes(all).map((p: { channelReference: string }) => p.channelReference);
    expect(refs).toContain('PLAN-Y');
    expect(refs).not.toContain('SKU-OTHER');
    expect(nodes(await gql(t, token, query, { filter: { channelToken: other.channelToken } }))).toEqual([]);
    expect(nodes(await gql(t, token, query, { filter: { channelToken: 'not-a-token' } }))).toEqual([]);
    const offSale = nodes(await gql(t, token, query, { filter: { isActive: false } })) as Array<{ channelReference: string; isActive: boolean }>;
    expect(offSale.map((p) => p.channelReference)).toContain('PLAN-Y');
    expect(offSale.every((p) => !p.isActive)).toBe(true);

    const one = await gql(t, token, query, { filter: { channelReference: 'PLAN-Y' } });
    expect(nodes(one)).toEqual([
      { channelToken: m.channelToken, channelReference: 'PLAN-Y', name: 'Kahve Makinesi', type: 'recurring', amount: '99.90', currency: 'USD', taxRate: '18.50', period: 'yearly', isActive: false },
    ]);
  });

  it('saveProduct mutation shares the domain rules', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dash-2');
    const res = await gql(t, token, `mutation($input: SaveProductInput!) { saveProduct(input: $input) { result { successful } product { amount } errors { path message } } }`, {
      input: { product: { channelToken: m.channelToken, channelReference: 'GQL-1', name: 'X', type: 'simple', amount: '0', taxRate: '1' } },
    });
    expect(res.body.data.saveProduct.result.successful).toBe(false);
    expect(res.body.data.saveProduct.errors).toEqual([{ path: ['product', 'amount'], message: msg('product_amount_min', {}, 'en') }]);
  });
});
