// The card's country as a rule field: "block when the card's country differs from the IP's and the
// amount is over 5,000 TRY". The country comes from the workspace's BIN source (the simulator here,
// a Turkish provider whose BIN service knows Turkish issuers: 4111… is a TR card, 4242… is unknown);
// the IP's from the offline table (8.8.8.8 is US, 85.105.1.1 TR, 203.0.113.5 none). An unknown
// country on either side never holds. The payment keeps the card's country, so the rule tester
// reads it too; a comparison with a field of another kind is refused at its path.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { cliOn } from '../helpers/cli.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

const { t, seed } = useGateway();
const cli = cliOn(t);
let ref = 1;
type Merchant = Awaited<ReturnType<typeof seed>>;

const SAVE = `mutation($input: RiskRuleInput!) { saveRiskRule(input: $input) { errors { path code } rule { id conditions { field operator value } } } }`;
const RISK = `query($token: String!) { payment(token: $token) { status risk { outcome cardCountry ipCountry rules { rule outcome } } } }`;
const TEST = `query($conditions: [RiskConditionInput!]!, $days: Int) { riskRuleTest(conditions: $conditions, days: $days) { errors { path code } past { attempts matched payments { token } } } }`;
const UNKNOWN_BIN = '4242424242424242';

const ABROAD = [
  { field: 'card.country', operator: 'ne', value: { field: 'ip.country' } },
  { field: 'amount', operator: 'gt', value: 500000 },
  { field: 'currency', operator: 'eq', value: 'TRY' },
];

async function pay(m: Merchant, amount: string, ip: string, number: string = CARDS.approved) {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `CC-${ref++}`, amount, ip }, card: { number } }));
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, code: (res.body.result.error_code ?? null) as string | null };
}

describe.each([
  ['on', true],
  ['off', false],
])('card.country with the guard %s', (_name, guard) => {
  let m: Merchant;
  let owner: string;
  beforeAll(async () => {
    m = await seed({ riskGuard: guard });
    owner = await createAccessToken(t.gateway.services.db, m.team, 'country');
  });

  it('blocks a Turkish card over 5,000 TRY from a foreign address, and allows the rest', async () => {
    const saved = await gql(t, owner, SAVE, { input: { name: 'abroad', outcome: 'block', conditions: ABROAD } });
    expect(saved.body.data.saveRiskRule.errors).toEqual([]);
    expect(saved.body.data.saveRiskRule.rule.conditions[0]).toEqual({ field: 'card.country', operator: 'ne', value: { field: 'ip.country' } });

    const blocked = await pay(m, '6000.00', '8.8.8.8');
    expect(blocked.code).toBe('blocked');
    const risk = (await gql(t, owner, RISK, { token: blocked.token })).body.data.payment;
    expect(risk).toEqual({ status: 'failed', risk: { outcome: 'block', cardCountry: 'TR', ipCountry: 'US', rules: [{ rule: 'rule:abroad', outcome: 'block' }] } });

    expect((await pay(m, '5000.00', '8.8.8.8')).code).toBeNull(); // not over 5,000
    expect((await pay(m, '6000.00', '85.105.1.1')).code).toBeNull(); // a TR card in Turkey
    expect((await pay(m, '6000.00', '8.8.8.8', UNKNOWN_BIN)).code).toBeNull(); // the card's country unknown
    expect((await pay(m, '6000.00', '203.0.113.5')).code).toBeNull(); // the address's country unknown

    // The rule tester reads the country each payment kept: only the blocked one matches.
    const past = (await gql(t, owner, TEST, { conditions: ABROAD, days: 7 })).body.data.riskRuleTest;
    expect(past).toEqual({ errors: [], past: { attempts: 5, matched: 1, payments: [{ token: blocked.token }] } });
    await gql(t, owner, `mutation($id: String!) { removeRiskRule(id: $id) { errors { code } } }`, { id: saved.body.data.saveRiskRule.rule.id });
  });
});

describe('card.country conditions', () => {
  it('refuse a comparison with a field of another kind or with a list operator at its path; the CLI writes the comparison as words', async () => {
    const m = await seed();
    const owner = await createAccessToken(t.gateway.services.db, m.team, 'country');
    const refused = async (condition: Record<string, unknown>) => (await gql(t, owner, SAVE, { input: { name: 'bad', outcome: 'block', conditions: [condition] } })).body.data.saveRiskRule.errors;
    expect(await refused({ field: 'card.country', operator: 'ne', value: { field: 'amount' } })).toEqual([{ path: ['conditions', '0', 'value', 'field'], code: 'risk_rule_field_ref' }]);
    expect(await refused({ field: 'card.country', operator: 'eq', value: { field: 'card.country' } })).toEqual([{ path: ['conditions', '0', 'value', 'field'], code: 'risk_rule_field_ref' }]);
    expect(await refused({ field: 'card.country', operator: 'in', value: { field: 'ip.country' } })).toEqual([{ path: ['conditions', '0', 'operator'], code: 'risk_rule_operator' }]);
    expect(await t.gateway.services.db.riskRule.count({ where: { workspaceId: m.workspaceId } })).toBe(0);

    const rule = await cli.json<{ conditions: unknown }>('risk', 'rules', 'save', m.team, '--name', 'abroad', '--outcome', 'block', '--when', 'card.country ne ip.country', '--when', 'amount gt 500000');
    expect(rule.conditions).toEqual([{ field: 'card.country', operator: 'ne', value: { field: 'ip.country' } }, { field: 'amount', operator: 'gt', value: 500000 }]);
    expect((await cli.run(['risk', 'rules', 'list', m.team])).stdout).toContain('block when card.country ne ip.country and amount gt 500000  "abroad"');
  });
});
