// A merchant's own risk rules over GraphQL: conditions on the attempt (amount, card, e-mail, ...)
// block, require 3-D Secure or allow; the first enabled rule that matches fires, in order; a
// disabled rule is skipped; with the guard off too. Each condition is checked at its path.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

const { t, seed } = useGateway();
let ref = 1;
type Merchant = Awaited<ReturnType<typeof seed>>;

const SAVE = `mutation($input: RiskRuleInput!) { saveRiskRule(input: $input) { result { successful } errors { path code } rule { id position enabled name outcome conditions { field operator value } } } }`;
const RISK = `query($token: String!) { payment(token: $token) { risk { outcome rules { rule outcome } } } }`;

async function pay(m: Merchant, operation: 'regular-payment' | 'secure-payment', opts: { number?: string; amount?: string; email?: string } = {}) {
  const n = ref++;
  const body = paymentBody(m, { transaction: { channel_reference: `RULE-${n}`, ip: `192.0.2.${n}`, amount: opts.amount ?? '100.00' }, card: { number: opts.number ?? CARDS.approved }, customer: { email: opts.email ?? 'ayse@example.com' } });
  const res = await m.call(operation, body);
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, successful: res.body.result.successful as boolean, code: (res.body.result.error_code ?? null) as string | null };
}

describe.each([
  ['on', true],
  ['off', false],
])('merchant rules with the guard %s', (_name, guard) => {
  let m: Merchant;
  let owner: string;
  const save = async (input: Record<string, unknown>) => {
    const res = await gql(t, owner, SAVE, { input });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.saveRiskRule.errors).toEqual([]);
    return res.body.data.saveRiskRule.rule as { id: string; position: number };
  };
  const rulesOf = async (token: string) => (await gql(t, owner, RISK, { token })).body.data.payment.risk.rules;

  beforeAll(async () => {
    m = await seed({ riskGuard: guard });
    owner = await createAccessToken(t.gateway.services.db, m.team, 'rules');
  });

  it('block, require 3-D Secure and allow, first match in order, disabled rules skipped', async () => {
    const vip = await save({ name: 'vip', outcome: 'allow', conditions: [{ field: 'email', operator: 'in', value: ['vip@example.com'] }] });
    const big = await save({ name: 'big mastercard', outcome: 'block', conditions: [{ field: 'amount', operator: 'gte', value: 50000 }, { field: 'card.scheme', operator: 'eq', value: 'mastercard' }] });
    expect(big.position).toBe(vip.position + 1);
    await save({ name: 'visa 3ds', outcome: 'require_3ds', conditions: [{ field: 'card.bin', operator: 'starts_with', value: '4111' }] });
    await save({ name: 'off', outcome: 'block', enabled: false, conditions: [{ field: 'currency', operator: 'eq', value: 'TRY' }] });

    const blocked = await pay(m, 'regular-payment', { number: CARDS.mastercard, amount: '600.00' });
    expect(blocked.code).toBe('blocked');
    expect(await rulesOf(blocked.token)).toEqual([{ rule: 'rule:big mastercard', outcome: 'block' }]);
    expect((await pay(m, 'regular-payment', { number: CARDS.mastercard, amount: '400.00' })).successful).toBe(true);

    expect((await pay(m, 'regular-payment')).code).toBe('3ds_required');
    expect((await pay(m, 'secure-payment')).successful).toBe(true);

    // The allow rule comes first: the same large mastercard payment goes through for this shopper.
    const allowed = await pay(m, 'regular-payment', { number: CARDS.mastercard, amount: '600.00', email: 'VIP@example.com' });
    expect(allowed.successful).toBe(true);
    expect(await rulesOf(allowed.token)).toEqual([{ rule: 'rule:vip', outcome: 'allow' }]);
  });

  it('a rule edited or switched off applies from the next payment (a process keeps the rules only for the version it read)', async () => {
    const shopper = { number: CARDS.mastercard, amount: '400.00', email: 'cap@example.com' };
    const edited = await save({ name: 'cap', outcome: 'block', conditions: [{ field: 'email', operator: 'eq', value: 'nobody@example.com' }] });
    expect((await pay(m, 'regular-payment', shopper)).successful).toBe(true);
    await save({ id: edited.id, name: 'cap', outcome: 'block', conditions: [{ field: 'email', operator: 'eq', value: 'cap@example.com' }] });
    const capped = await pay(m, 'regular-payment', shopper);
    expect(capped.code).toBe('blocked');
    expect(await rulesOf(capped.token)).toEqual([{ rule: 'rule:cap', outcome: 'block' }]);
    await save({ id: edited.id, name: 'cap', outcome: 'block', enabled: false, conditions: [{ field: 'email', operator: 'eq', value: 'cap@example.com' }] });
    expect((await pay(m, 'regular-payment', shopper)).successful).toBe(true);
  });
});

describe('saving a rule', () => {
  it('checks each condition at its path, and only owners and developers may', async () => {
    const m = await seed();
    const db = t.gateway.services.db;
    const developer = await createAccessToken(db, m.team, 'dev', { role: 'developer' });
    const viewer = await createAccessToken(db, m.team, 'viewer', { role: 'viewer' });
    const refused = async (conditions: unknown[], path: unknown[], code: string) => {
      const res = await gql(t, developer, SAVE, { input: { name: 'x', outcome: 'block', conditions } });
      expect(res.body.data.saveRiskRule).toMatchObject({ result: { successful: false }, errors: [{ path, code }], rule: null });
    };
    await refused([{ field: 'card.number', operator: 'eq', value: '4111' }], ['conditions', '0', 'field'], 'risk_rule_field');
    await refused([{ field: 'amount', operator: 'gt', value: 1 }, { field: 'currency', operator: 'gt', value: 'TRY' }], ['conditions', '1', 'operator'], 'risk_rule_operator');
    await refused([{ field: 'currency', operator: 'in', value: 'TRY' }], ['conditions', '0', 'value'], 'risk_rule_values');
    await refused([{ field: 'amount', operator: 'gte', value: '10.5' }], ['conditions', '0', 'value'], 'risk_rule_number');
    await refused([], ['conditions'], 'risk_rule_conditions');
    expect(await db.riskRule.count({ where: { workspaceId: m.workspaceId } })).toBe(0);

    expect((await gql(t, viewer, SAVE, { input: { name: 'x', outcome: 'block', conditions: [{ field: 'currency', operator: 'eq', value: 'TRY' }] } })).body.errors?.[0]).toBeTruthy();
    expect((await gql(t, viewer, '{ workspace { riskRules { name } } }')).body.data).toEqual({ workspace: { riskRules: [] } });
  });
});

describe('the rule tester', () => {
  const TEST = `query($conditions: [RiskConditionInput!]!, $attempt: JSON!) { riskRuleTest(conditions: $conditions, attempt: $attempt) { result { successful } errors { path code } matches holds } }`;
  const conditions = [{ field: 'amount', operator: 'gte', value: 50000 }, { field: 'email_domain', operator: 'in', value: ['example.org', 'example.net'] }];

  it('says which conditions hold for an attempt, charging nothing; a bad condition is refused at its path', async () => {
    const m = await seed();
    const viewer = await createAccessToken(t.gateway.services.db, m.team, 'tester', { role: 'viewer' });
    const payments = await t.gateway.services.db.payment.count({ where: { workspaceId: m.workspaceId } });
    const both = await gql(t, viewer, TEST, { conditions, attempt: { amount: 60000, email_domain: 'example.net' } });
    expect(both.body.data.riskRuleTest).toMatchObject({ errors: [], matches: true, holds: [true, true] });
    const one = await gql(t, viewer, TEST, { conditions, attempt: { amount: 40000, email_domain: 'example.net' } });
    expect(one.body.data.riskRuleTest).toMatchObject({ errors: [], matches: false, holds: [false, true] });
    const unknown = await gql(t, viewer, TEST, { conditions, attempt: { amount: 60000 } });
    expect(unknown.body.data.riskRuleTest).toMatchObject({ errors: [], matches: false, holds: [true, false] });
    const bad = await gql(t, viewer, TEST, { conditions: [{ field: 'amount', operator: 'starts_with', value: '5' }], attempt: {} });
    expect(bad.body.data.riskRuleTest).toEqual({ result: { successful: false }, errors: [{ path: ['conditions', '0', 'operator'], code: 'risk_rule_operator' }], matches: null, holds: null });
    expect(await t.gateway.services.db.payment.count({ where: { workspaceId: m.workspaceId } })).toBe(payments);
  });
});
