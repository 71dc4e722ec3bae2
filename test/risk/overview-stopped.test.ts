// Attempts the risk decision stopped, counted per rule on the dashboard's overview (GraphQL
// `overview.riskStopped`): list entries, the guard's rules, a merchant's rule and the Luhn check,
// each attempt under the rules that refused it (a 3-D Secure requirement under its own), most
// first; another workspace's are not counted, and the currency filter applies.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { mistyped, testCardNumber } from '../helpers/cards.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { addListEntry } from '../../src/domain/risk/lists.ts';
import { saveRule } from '../../src/domain/risk/rules.ts';

const { t, seed } = useGateway({ now: '2026-06-10T09:00:00.000Z' });
let ref = 1;
let card = 3000;
type Merchant = Awaited<ReturnType<typeof seed>>;

async function pay(m: Merchant, ip: string, opts: { number?: string; amount?: string; operation?: 'regular-payment' | 'secure-payment' } = {}) {
  const res = await m.call(opts.operation ?? 'regular-payment', paymentBody(m, { transaction: { channel_reference: `OVR-${ref++}`, ip, amount: opts.amount ?? '10.00' }, card: { number: opts.number ?? CARDS.approved } }));
  expect(res.status, res.text).toBe(200);
  return res.body.result.error_code as string | undefined;
}

const QUERY = `query($days: Int!, $currency: String) { overview(days: $days, currency: $currency) { riskStopped { rule count } } }`;

describe('the overview counts stopped attempts per rule', () => {
  let m: Merchant;
  beforeAll(async () => {
    m = await seed({ riskGuard: true });
    const other = await seed({ riskGuard: true });
    const workspace = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addListEntry(t.gateway.services, workspace, { list: 'block', kind: 'ip', value: '192.0.2.0/24' });
    await saveRule(t.gateway.services, workspace, { name: 'Big', outcome: 'block', conditions: [{ field: 'amount', operator: 'gte', value: 500000 }] });
    expect(await pay(m, '192.0.2.1')).toBe('blocked');
    expect(await pay(m, '192.0.2.2')).toBe('blocked');
    expect(await pay(m, '198.51.100.1', { amount: '6000.00' })).toBe('blocked');
    expect(await pay(m, '198.51.100.2', { number: mistyped(CARDS.approved) })).toBe('invalid_card_number');
    // Two cards from one address pass; the third needs 3-D Secure, so a regular payment is refused.
    for (let i = 0; i < 2; i++) expect(await pay(m, '198.51.100.3', { number: testCardNumber(card++) })).toBeUndefined();
    expect(await pay(m, '198.51.100.3', { number: testCardNumber(card++) })).toBe('3ds_required');
    expect(await pay(m, '198.51.100.3', { number: testCardNumber(card++) })).toBe('3ds_required');
    // Another workspace's stops are its own.
    const otherWs = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: other.workspaceId } });
    await addListEntry(t.gateway.services, otherWs, { list: 'block', kind: 'ip', value: '192.0.2.0/24' });
    expect(await pay(other, '192.0.2.3')).toBe('blocked');
  });

  it('lists each rule with the attempts it refused, most first', async () => {
    const token = await createAccessToken(t.gateway.services.db, m.team, 'overview-risk', { role: 'viewer' });
    const res = await gql(t, token, QUERY, { days: 7 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.overview.riskStopped).toEqual([
      { rule: 'block_list_ip', count: 2 },
      { rule: 'ip_cards_3ds', count: 2 },
      { rule: 'luhn', count: 1 },
      { rule: 'rule:Big', count: 1 },
    ]);
    expect((await gql(t, token, QUERY, { days: 7, currency: 'USD' })).body.data.overview.riskStopped).toEqual([]);
  });
});
