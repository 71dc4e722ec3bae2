// Keys an operation does not know (docs/decisions.md "Unknown keys"): 422 on the key's path with a
// message naming it, and nothing written; a workspace may have them ignored instead, but a key the
// operation knows elsewhere in its body (refund-payment's `transaction.amount`) is refused always.
import { describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { useGateway } from '../helpers/fixture.ts';
import { cliOn } from '../helpers/cli.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { orderBody, orderRowCounts, productBody } from '../helpers/orders.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventsOf, rowCounts } from '../helpers/rows.ts';

const gw = useGateway();
const { t } = gw;
const cli = cliOn(t);
let reference = 7000;

async function pay(m: Merchant, amount = '100.00'): Promise<string> {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `UK-${reference++}`, amount }, card: { number: CARDS.approved } }));
  expect(res.status).toBe(200);
  return res.body.transaction.token;
}

async function unknownKeys(m: Merchant, policy: 'reject' | 'ignore'): Promise<void> {
  expect(await cli.json('workspace', 'settings', m.team, '--unknown-keys', policy)).toMatchObject({ team: m.team, unknown_keys: policy, bin_source: null });
  await t.gateway.admission.synced();
}

/** Runs `request`, expects it to be refused, and that no payment, refund, customer or event was written and the payment did not change. */
async function expectNothingWritten(m: Merchant, token: string | null, request: () => Promise<unknown>): Promise<void> {
  const db = t.gateway.services.db;
  const before = { rows: await rowCounts(t), orders: await orderRowCounts(t), payment: token && (await db.payment.findUnique({ where: { id: token } })), events: token && (await eventsOf(t, token)) };
  await request();
  expect(await rowCounts(t)).toEqual(before.rows);
  expect(await orderRowCounts(t)).toEqual(before.orders);
  if (token) {
    expect(await db.payment.findUnique({ where: { id: token } })).toEqual(before.payment);
    expect(await eventsOf(t, token)).toEqual(before.events);
  }
}

describe('by default every operation refuses a key it does not know', () => {
  it('refund-payment with the amount inside `transaction` answers 422 at transaction.amount and refunds nothing', async () => {
    const m = await gw.seed();
    const token = await pay(m);

    await expectNothingWritten(m, token, async () => {
      const res = await m.call('refund-payment', { transaction: { token, amount: '10.00' } });
      expectFieldError(res, 'transaction.amount', 'misplaced_key', { params: { key: 'amount', places: 'amount' }, only: true });
      expect(res.body.result.message).toContain('"amount"');
    });
    const payment = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } });
    expect(payment.refundedAmount).toBe(0n);
    expect(payment.paymentStatus).toBe('paid');
  });

  it('names the key in English with Accept-Language: en', async () => {
    const m = await gw.seed();
    const token = await pay(m);

    const res = await m.call('refund-payment', { transaction: { token }, amount: '1.00', reason: 'late' }, { headers: { 'Accept-Language': 'en' } });

    expectFieldError(res, 'reason', 'unknown_key', { params: { key: 'reason' }, lang: 'en', only: true });
    expect(res.body.result.message).toBe('The field "reason" is not known to this operation.');
  });

  it('regular-payment with an unknown card key answers 422 at card.<key> and takes no payment', async () => {
    const m = await gw.seed();
    const body = paymentBody(m, { transaction: { channel_reference: `UK-${reference++}` }, card: { number: CARDS.approved, colour: 'gold' } });

    await expectNothingWritten(m, null, async () => {
      expectFieldError(await m.call('regular-payment', body), 'card.colour', 'unknown_key', { params: { key: 'colour' }, only: true });
    });
  });

  it('retrieve-payment and retrieve-payments refuse unknown keys at any level', async () => {
    const m = await gw.seed();
    const token = await pay(m);

    expectFieldError(await m.call('retrieve-payment', { transaction: { token, verbose: true } }), 'transaction.verbose', 'unknown_key', { params: { key: 'verbose' }, only: true });
    expectFieldError(await m.call('retrieve-payments', { page_size: 5 }), 'page_size', 'unknown_key', { params: { key: 'page_size' }, only: true });
  });

  it('order-payment with an unknown key in an item answers 422 at order.items.0.<key> and writes no order', async () => {
    const m = await gw.seed();
    const body = orderBody(m, { items: [{ channel_reference: 'ITEM-1', name: 'Kitap', quantity: 1, unit_amount: '50.00', tax_rate: 10, foo: 1 }] });

    await expectNothingWritten(m, null, async () => {
      expectFieldError(await m.call('order-payment', body), 'order.items.0.foo', 'unknown_key', { params: { key: 'foo' }, only: true });
    });
  });

  it('does not send back a card number sent as a key: its digits are masked but the last four', async () => {
    const m = await gw.seed();
    const body = paymentBody(m, { transaction: { channel_reference: `UK-${reference++}` }, card: { number: CARDS.approved, [CARDS.approved]: '123' } });

    const key = `uk-${reference}`;
    const res = await m.call('regular-payment', body, { headers: { 'Idempotency-Key': key } });

    expectFieldError(res, 'card.************1111', 'unknown_key', { params: { key: '************1111' }, only: true });
    expect(res.text).not.toContain(CARDS.approved);
    const stored = await t.gateway.services.db.idempotencyRecord.findFirstOrThrow({ where: { workspaceId: m.workspaceId, key } });
    expect(stored.responseBody).toBe(res.text);
  });

  it('reports each unknown key on its own path, as sent', async () => {
    const m = await gw.seed();
    const token = await pay(m);

    const res = await m.call('retrieve-payment', { transaction: { token, Extra: 1, otherThing: 2 }, top_extra: null });

    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['transaction.Extra', 'transaction.otherThing', 'top_extra']);
  });
});

describe('update-payment-link/{token}', () => {
  it('refuses a token in the body, where it would be overwritten by the path\'s, even for a workspace that ignores unknown keys', async () => {
    const m = await gw.seed();
    await unknownKeys(m, 'ignore');
    const ts = { form: 'timestamp' as const };
    const created = await m.call('create-payment-link', { payment_link: { currency: 'TRY', items: [{ name: 'Kek', unit_amount: '30.00' }] } }, ts);
    expect(created.status).toBe(200);
    const token = created.body.payment_link.token;

    const res = await m.call(`update-payment-link/${token}`, { token, payment_link: { is_active: false } }, ts);

    expectFieldError(res, 'token', 'misplaced_key', { params: { key: 'token', places: 'update-payment-link/{token}' }, only: true });
    expect((await t.gateway.services.db.paymentLink.findUniqueOrThrow({ where: { id: token } })).isActive).toBe(true);
  });
});

describe('a workspace that ignores unknown keys', () => {
  it('drops keys the operation does not know anywhere', async () => {
    const m = await gw.seed();
    await unknownKeys(m, 'ignore');
    const token = await pay(m);

    const res = await m.call('refund-payment', { transaction: { token, note: 'x' }, amount: '10.00', reason: { code: 1 } }, { unlistedKeys: true });

    expect(res.status).toBe(200);
    expect(res.body.refund).toEqual({ type: 'refund', amount: '10.00' });
    const order = await m.call('order-payment', orderBody(m, { items: [{ channel_reference: 'I-1', name: 'Kitap', quantity: 1, unit_amount: '50.00', tax_rate: 10, foo: 1 }] }), { unlistedKeys: true });
    expect(order.status).toBe(200);
  });

  it('still refuses the misplaced transaction.amount, and refunds nothing', async () => {
    const m = await gw.seed();
    await unknownKeys(m, 'ignore');
    const token = await pay(m);

    await expectNothingWritten(m, token, async () => {
      expectFieldError(await m.call('refund-payment', { transaction: { token, amount: '10.00' } }), 'transaction.amount', 'misplaced_key', { params: { key: 'amount', places: 'amount' }, only: true });
    });
  });

  it('still refuses unknown keys where the contract asks for it (save-product)', async () => {
    const m = await gw.seed();
    await unknownKeys(m, 'ignore');

    expectFieldError(await m.call('save-product', productBody(m, { colour: 'red' })), 'product.colour', 'unknown_key', { params: { key: 'colour' } });
  });

  it('takes the setting from the next call, both ways', async () => {
    const m = await gw.seed();
    const token = await pay(m);
    const extra = () => m.call('retrieve-payment', { transaction: { token }, extra: 1 }, { unlistedKeys: true });
    expect((await extra()).status).toBe(422);

    await unknownKeys(m, 'ignore');
    expect((await extra()).status).toBe(200);

    await unknownKeys(m, 'reject');
    expect((await extra()).status).toBe(422);
  });
});

describe('gateway workspace settings', () => {
  it('shows the setting without options and refuses an unknown value', async () => {
    const m = await gw.seed();
    expect(await cli.json('workspace', 'settings', m.team)).toMatchObject({ team: m.team, unknown_keys: 'reject', bin_source: null });
    expect((await cli.run(['workspace', 'settings', m.team])).stdout).toContain('unknown keys  reject');
    await cli.fails(['workspace', 'settings', m.team, '--unknown-keys', 'drop'], 'Unknown value "drop" for --unknown-keys (expected reject or ignore)');
  });
});

describe('GraphQL settings', () => {
  async function gql(token: string, query: string) {
    const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Accept-Language': 'en' }, body: JSON.stringify({ query }) });
    return (await res.json()) as { data: Record<string, { workspace: { unknownKeys: string } | null; errors: Array<{ path: string[]; message: string }> }> & { workspace: { unknownKeys: string } } };
  }

  it('the dashboard reads and sets the setting; the next REST call follows it; a bad value is a field error', async () => {
    const m = await gw.seed();
    const token = await createAccessToken(t.gateway.services.db, m.team, 'dashboard');
    const extra = () => m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '1.00' }, extra: 1 }, { unlistedKeys: true });
    expect((await gql(token, '{ workspace { unknownKeys } }')).data.workspace.unknownKeys).toBe('reject');

    const set = await gql(token, 'mutation { setUnknownKeys(policy: "ignore") { workspace { unknownKeys } errors { path message } } }');
    expect(set.data.setUnknownKeys).toEqual({ workspace: { unknownKeys: 'ignore' }, errors: [] });
    await t.gateway.admission.synced();
    expect((await extra()).status).toBe(200);

    const bad = await gql(token, 'mutation { setUnknownKeys(policy: "drop") { workspace { unknownKeys } errors { path message } } }');
    expect(bad.data.setUnknownKeys.errors).toEqual([{ path: ['policy'], message: 'Must be one of: reject, ignore.' }]);
    expect((await gql(token, '{ workspace { unknownKeys } }')).data.workspace.unknownKeys).toBe('ignore');
  });
});
