// create-payment-link and update-payment-link/{token}: the response object of the contract, every
// validation row (422, field path, message, nothing written), LINK<n> numbering under
// concurrency, expiry at the end of the day in the workspace time zone, 403s and the signing form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentAccount, updateWorkspace } from '../../src/domain/workspaces.ts';
import { message, type MessageCode } from '../../src/domain/messages.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';

let t: TestGateway;
let m: Merchant;
let noLinks: Merchant;
let moduleOff: Merchant;
let noDefault: Merchant;
let accounts: { noHostedPage: string; noSecure: string };

type Body = Record<string, unknown>;
// Signed at the gateway's clock (tests move it), in the timestamp form the link operations require.
const ts = { form: 'timestamp' as const, get timestamp() { return Math.floor(t.clock.now().getTime() / 1000); } };
const fixed = (over: Body = {}) => ({ payment_link: { currency: 'TRY', items: [{ name: 'Çay', quantity: 2, unit_amount: '50.00', tax_rate: 20 }], ...over } });
const custom = (over: Body = {}) => ({ payment_link: { currency: 'TRY', amount_type: 'custom', item_name: 'Bağış', ...over } });

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t);
  noLinks = await seedWorkspace(t, { plan: { orders: true, payByLink: true } });
  moduleOff = await seedWorkspace(t, { plan: { paymentLinks: true, payByLink: false } });
  noDefault = await seedWorkspace(t, { defaultAccount: false });
  const db = t.gateway.services.db;
  accounts = {
    noHostedPage: (await createPaymentAccount(db, m.team, { name: 'No page', capabilities: { hostedPage: false } })).id,
    noSecure: (await createPaymentAccount(db, m.team, { name: 'No 3D', capabilities: { secure: false } })).id,
  };
});
afterAll(() => t?.stop());

const linkCount = () => t.gateway.services.db.paymentLink.count();

async function expect422(body: Body, path: string, code: MessageCode, params?: Record<string, string | number>, merchant = m) {
  const before = await linkCount();
  const res = await merchant.call('create-payment-link', body, ts);
  expect(res.status).toBe(422);
  expect(res.body.errors[path]).toContain(message(code, 'tr', params));
  expect(await linkCount()).toBe(before);
}

describe('create-payment-link opens a link', () => {
  it('answers the Payment link object of the contract for a fixed link', async () => {
    const res = await m.call('create-payment-link', fixed({ description: 'Sipariş 42', reference: 'REF-42', emails_customer: true }), ts);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['result', 'payment_link']);
    const link = res.body.payment_link;
    expect(link).toMatchObject({
      reference: 'REF-42',
      description: 'Sipariş 42',
      payment_provider_token: null,
      amount_type: 'fixed',
      item_name: null,
      predefined_amounts: null,
      tax_rate: null,
      tax_mode: 'inclusive',
      items: [{ reference: null, name: 'Çay', image: null, quantity: 2, unit_amount: '50.00', tax_rate: '20.00' }],
      // 100.00 with 20 % VAT contained: 16.67 VAT, 83.33 without.
      subtotal: '83.33',
      tax_amount: '16.67',
      amount: '100.00',
      currency: 'TRY',
      currency_type: 'fixed',
      currencies: null,
      emails_customer: true,
      is_active: true,
      is_test: true,
      expires_at: null,
      checkout_url: `${t.gateway.baseUrl}/checkout/link/${link.token}`,
    });
    expect(link.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(link.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('non-fixed types: amounts and items are null and empty; predefined amounts and currencies shown', async () => {
    const res = await m.call(
      'create-payment-link',
      { payment_link: { currency: 'USD', amount_type: 'predefined_and_custom', item_name: 'Destek', predefined_amounts: ['10', 25.5], tax_rate: '8', tax_mode: 'exclusive', currency_type: 'selectable', currencies: ['EUR', 'TRY'], items: [{ name: 'ignored', unit_amount: '1' }] } },
      ts,
    );
    expect(res.status).toBe(200);
    expect(res.body.payment_link).toMatchObject({
      amount_type: 'predefined_and_custom',
      item_name: 'Destek',
      predefined_amounts: ['10.00', '25.50'],
      tax_rate: '8.00',
      tax_mode: 'exclusive',
      items: [],
      subtotal: null,
      tax_amount: null,
      amount: null,
      currency: 'USD',
      currency_type: 'selectable',
      currencies: ['USD', 'EUR', 'TRY'],
    });
  });

  it('numbers links LINK1, LINK2… per workspace, distinct under concurrency, repeated references allowed', async () => {
    const fresh = await seedWorkspace(t);
    const answers = await Promise.all(Array.from({ length: 12 }, () => fresh.call('create-payment-link', fixed(), ts)));
    const refs = answers.map((r) => r.body.payment_link.reference).sort((a: string, b: string) => Number(a.slice(4)) - Number(b.slice(4)));
    expect(refs).toEqual(Array.from({ length: 12 }, (_, i) => `LINK${i + 1}`));
    const again = await Promise.all([0, 1].map(() => fresh.call('create-payment-link', fixed({ reference: 'SAME-1' }), ts)));
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    expect(again[0]!.body.payment_link.token).not.toBe(again[1]!.body.payment_link.token);
  });

  it('expires_at is the end of the given day in Europe/Istanbul, in UTC', async () => {
    t.clock.set('2026-03-10T12:00:00Z');
    const res = await m.call('create-payment-link', fixed({ expires_at: '2026-03-10' }), ts);
    expect(res.body.payment_link.expires_at).toBe('2026-03-10T20:59:59.999000Z');
    expect(res.body.payment_link.is_active).toBe(true);
    // The next day in Istanbul the link is closed and has no checkout address.
    t.clock.set('2026-03-10T21:00:00Z');
    const later = await m.call('retrieve-payment-links', { token: res.body.payment_link.token }, ts);
    expect(later.body.payment_links[0]).toMatchObject({ is_active: false, checkout_url: null });
    t.clock.set(new Date());
  });

  it('requires the timestamp signature form (body form: 401)', async () => {
    const res = await m.call('create-payment-link', fixed());
    expect(res.status).toBe(401);
  });

  it('403 unless the plan covers links and the pay-by-link module is on', async () => {
    expect((await noLinks.call('create-payment-link', fixed(), ts)).status).toBe(403);
    const off = await moduleOff.call('create-payment-link', fixed(), ts);
    expect(off.status).toBe(403);
    expect(off.body.result.message).toBe(message('module_pay_by_link_off'));
  });
});

describe('create-payment-link validation rows (contract: Errors)', () => {
  const rows: Array<[string, Body, string, MessageCode, Record<string, string | number>?]> = [
    ['reference without a digit', fixed({ reference: 'ABC' }), 'payment_link.reference', 'reference_needs_digit'],
    ['expires_at a past day', fixed({ expires_at: '2000-01-01' }), 'payment_link.expires_at', 'link_expires_past'],
    ['expires_at not a day', fixed({ expires_at: '01.01.2030' }), 'payment_link.expires_at', 'date_format'],
    ['no item', fixed({ items: [] }), 'payment_link.items', 'link_items_required'],
    ['items total above 10,000,000.00', fixed({ items: [{ name: 'A', quantity: 2, unit_amount: '5000000.01' }] }), 'payment_link.items', 'link_amount_too_large'],
    ['an item above 10,000,000.00', fixed({ items: [{ name: 'A', unit_amount: '10000000.01' }] }), 'payment_link.items.0.unit_amount', 'link_amount_too_large'],
    ['more than 100 items', fixed({ items: Array.from({ length: 101 }, () => ({ name: 'A', unit_amount: '1' })) }), 'payment_link.items', 'too_many_items', { max: 100 }],
    ['item_name missing for custom', custom({ item_name: undefined }), 'payment_link.item_name', 'link_item_name_required'],
    ['no predefined amount', custom({ amount_type: 'predefined', predefined_amounts: [] }), 'payment_link.predefined_amounts', 'link_predefined_required'],
    ['a predefined amount above 10,000,000.00', custom({ amount_type: 'predefined', predefined_amounts: ['10', '10000000.01'] }), 'payment_link.predefined_amounts.1', 'link_amount_too_large'],
    ['a repeated predefined amount', custom({ amount_type: 'predefined', predefined_amounts: ['10', '10.00'] }), 'payment_link.predefined_amounts.1', 'link_predefined_repeated'],
    ['more than 10 predefined amounts', custom({ amount_type: 'predefined', predefined_amounts: Array.from({ length: 11 }, (_, i) => String(i + 1)) }), 'payment_link.predefined_amounts', 'too_many_items', { max: 10 }],
    ['a predefined amount with three decimals', custom({ amount_type: 'predefined', predefined_amounts: ['1.001'] }), 'payment_link.predefined_amounts.0', 'amount_format'],
    ['selectable without another currency', fixed({ currency_type: 'selectable', currencies: ['TRY'] }), 'payment_link.currencies', 'link_currencies_required'],
    ['selectable with a repeated currency', fixed({ currency_type: 'selectable', currencies: ['USD', 'USD'] }), 'payment_link.currencies', 'link_currencies_repeated'],
    ['an unknown currency', fixed({ currency: 'JPY' }), 'payment_link.currency', 'currency_invalid'],
    ['an unknown amount type', fixed({ amount_type: 'free' }), 'payment_link.amount_type', 'link_amount_type_invalid'],
    ['a tax rate above 100', custom({ tax_rate: '100.01' }), 'payment_link.tax_rate', 'rate_format'],
    ['an unknown key inside payment_link', fixed({ colour: 'red' }), 'payment_link.colour', 'unknown_key', { key: 'colour' }],
    ['an account that cannot take payments on the hosted page', fixed({ payment_provider_token: 'ACCOUNT:noHostedPage' }), 'payment_link.payment_provider_token', 'account_no_hosted_page'],
    ['an account without 3D', fixed({ payment_provider_token: 'ACCOUNT:noSecure' }), 'payment_link.payment_provider_token', 'account_no_secure'],
    ['an unknown account', fixed({ payment_provider_token: '00000000-0000-4000-8000-000000000000' }), 'payment_link.payment_provider_token', 'account_not_found'],
  ];
  for (const [name, body, path, code, params] of rows) {
    it(`${name}: 422 on ${path}`, async () => {
      const resolved = JSON.parse(JSON.stringify(body).replace(/"ACCOUNT:(\w+)"/, (_, key: keyof typeof accounts) => JSON.stringify(accounts[key])));
      await expect422(resolved, path, code, params);
    });
  }

  it('no account given and no default account: 422 on payment_provider_token', async () => {
    await expect422(fixed(), 'payment_link.payment_provider_token', 'no_default_account', undefined, noDefault);
  });
});

describe('update-payment-link/{token}', () => {
  it('changes fields under the create rules; a closed link has no checkout address', async () => {
    const created = (await m.call('create-payment-link', fixed(), ts)).body.payment_link;
    const res = await m.call(`update-payment-link/${created.token}`, { payment_link: { is_active: false, description: 'Kapandı' } }, ts);
    expect(res.status).toBe(200);
    expect(res.body.payment_link).toMatchObject({ token: created.token, reference: created.reference, is_active: false, checkout_url: null, description: 'Kapandı', amount: '100.00' });

    const reopened = await m.call(`update-payment-link/${created.token}`, { payment_link: { is_active: true, items: [{ name: 'Kek', unit_amount: '30.00' }] } }, ts);
    expect(reopened.body.payment_link).toMatchObject({ is_active: true, amount: '30.00', items: [{ name: 'Kek', quantity: 1, unit_amount: '30.00' }] });
  });

  it('switching to custom without an item name is a 422 that changes nothing', async () => {
    const created = (await m.call('create-payment-link', fixed(), ts)).body.payment_link;
    const res = await m.call(`update-payment-link/${created.token}`, { payment_link: { amount_type: 'custom' } }, ts);
    expect(res.status).toBe(422);
    expect(res.body.errors['payment_link.item_name']).toEqual([message('link_item_name_required')]);
    const stored = await t.gateway.services.db.paymentLink.findUniqueOrThrow({ where: { id: created.token } });
    expect(stored.amountType).toBe('fixed');
  });

  it('another workspace\'s link, or an unknown one, is "not found"', async () => {
    const other = await seedWorkspace(t);
    const created = (await m.call('create-payment-link', fixed(), ts)).body.payment_link;
    for (const token of [created.token, '00000000-0000-4000-8000-000000000000']) {
      const res = await other.call(`update-payment-link/${token}`, { payment_link: { is_active: false } }, ts);
      expect(res.status).toBe(422);
      expect(res.body.errors.token).toEqual([message('link_not_found')]);
    }
  });
});

describe('the workspace mode', () => {
  it('is_test follows the workspace mode now', async () => {
    const live = await seedWorkspace(t);
    await updateWorkspace(t.gateway.services.db, live.team, { mode: 'live' });
    await t.gateway.admission.synced();
    const res = await live.call('create-payment-link', fixed(), ts);
    expect(res.body.payment_link.is_test).toBe(false);
  });
});
