// Block and allow lists: a BIN prefix, a payment's card, an address range, an e-mail address or
// domain, the address's country block an attempt before any bank is asked (rule block_list_<kind>), with the guard on and
// off; an allow entry that matches wins over block entries and the guard. Entries are added over
// GraphQL by owners and developers (values checked at their field), operators only read them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

const { t, seed } = useGateway();
let ref = 1;
type Merchant = Awaited<ReturnType<typeof seed>>;

const ADD = `mutation($input: RiskListEntryInput!) { addRiskListEntry(input: $input) { result { successful } errors { path code message } entry { id list kind value } } }`;
const REMOVE = `mutation($id: String!) { removeRiskListEntry(id: $id) { result { successful } errors { code } } }`;
const RISK = `query($token: String!) { payment(token: $token) { errorCode risk { outcome rules { rule outcome } } } }`;

/** Each from an address of its own unless one is given, so the guard's own rules stay out of the way. */
async function pay(m: Merchant, opts: { ip?: string; number?: string; email?: string } = {}) {
  const n = ref++;
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `L-${n}`, ip: opts.ip ?? `192.0.2.${n}` }, card: { number: opts.number ?? CARDS.approved }, customer: { email: opts.email ?? 'ayse@example.com' } }));
  expect(res.status, res.text).toBe(200);
  await t.gateway.services.attempts.drain();
  return { token: res.body.transaction.token as string, successful: res.body.result.successful as boolean, code: (res.body.result.error_code ?? null) as string | null };
}

const providerCalls = (paymentId: string) => t.gateway.services.db.providerAttempt.count({ where: { paymentId } });

describe.each([
  ['on', true],
  ['off', false],
])('lists with the guard %s', (_name, guard) => {
  let m: Merchant;
  let owner: string;
  const add = async (list: string, kind: string, value: string) => {
    const res = await gql(t, owner, ADD, { input: { list, kind, value } });
    expect(res.body.data.addRiskListEntry.errors).toEqual([]);
    return res.body.data.addRiskListEntry.entry as { id: string; value: string };
  };
  const rulesOf = async (token: string) => (await gql(t, owner, RISK, { token })).body.data.payment.risk.rules.map((r: { rule: string }) => r.rule);

  beforeAll(async () => {
    m = await seed({ riskGuard: guard });
    owner = await createAccessToken(t.gateway.services.db, m.team, 'lists');
  });

  it('a listed BIN, address range, e-mail domain and card are blocked before the bank; others pass', async () => {
    await add('block', 'bin', '555555');
    const bin = await pay(m, { number: CARDS.mastercard });
    expect(bin).toMatchObject({ successful: false, code: 'blocked' });
    expect(await providerCalls(bin.token)).toBe(0);
    expect(await rulesOf(bin.token)).toEqual(['block_list_bin']);

    const range = await add('block', 'ip', '198.51.100.77/24');
    expect(range.value).toBe('198.51.100.0/24');
    expect(await pay(m, { ip: '198.51.100.200' })).toMatchObject({ code: 'blocked' });
    expect((await pay(m, { ip: '198.51.101.1' })).successful).toBe(true);

    await add('block', 'domain', 'Example.ORG');
    expect(await pay(m, { email: 'Someone@example.org' })).toMatchObject({ code: 'blocked' });

    const paid = await pay(m, { number: CARDS.troy });
    expect(paid.successful).toBe(true);
    const card = await add('block', 'card', paid.token);
    expect(card.value).not.toContain('9792');
    const again = await pay(m, { number: CARDS.troy });
    expect(again.code).toBe('blocked');
    expect(await rulesOf(again.token)).toEqual(['block_list_card']);

    // The country of the shopper's address (the offline table places 8.8.8.8 in the US).
    await add('block', 'country', 'us');
    const abroad = await pay(m, { ip: '8.8.8.8' });
    expect(abroad).toMatchObject({ successful: false, code: 'blocked' });
    expect(await rulesOf(abroad.token)).toEqual(['block_list_country']);
    expect((await pay(m, { ip: '85.105.1.1' })).successful).toBe(true);

    // Removed, the card pays again.
    expect((await gql(t, owner, REMOVE, { id: card.id })).body.data.removeRiskListEntry.result.successful).toBe(true);
    expect((await pay(m, { number: CARDS.troy })).successful).toBe(true);
  });

  it('an allow entry that matches wins over block entries', async () => {
    await add('allow', 'email', 'VIP@example.org');
    const vip = await pay(m, { ip: '198.51.100.9', number: CARDS.mastercard, email: 'vip@example.org' });
    expect(vip.successful).toBe(true);
    expect(await rulesOf(vip.token)).toEqual(['allow_list_email', 'block_list_bin', 'block_list_domain', 'block_list_ip']);
  });
});

describe('list entries', () => {
  it('are checked at their field, changed by owners and developers, read by operators', async () => {
    const m = await seed();
    const db = t.gateway.services.db;
    const developer = await createAccessToken(db, m.team, 'dev', { role: 'developer' });
    const operator = await createAccessToken(db, m.team, 'op', { role: 'operator' });
    const refused = async (input: Record<string, string>, code: string) => {
      const res = await gql(t, developer, ADD, { input });
      expect(res.body.data.addRiskListEntry).toMatchObject({ result: { successful: false }, errors: [{ path: [expect.any(String)], code }], entry: null });
    };
    await refused({ list: 'block', kind: 'ip', value: '300.1.1.1/24' }, 'risk_list_ip');
    await refused({ list: 'block', kind: 'ip', value: '10.0.0.0/33' }, 'risk_list_ip');
    await refused({ list: 'block', kind: 'bin', value: '4111' }, 'risk_list_bin');
    await refused({ list: 'block', kind: 'card', value: '00000000-0000-0000-0000-000000000000' }, 'risk_list_card');
    await refused({ list: 'deny', kind: 'bin', value: '411111' }, 'risk_list_invalid');
    await refused({ list: 'block', kind: 'country', value: 'TUR' }, 'risk_list_country');
    await refused({ list: 'block', kind: 'region', value: 'TR' }, 'risk_list_kind_invalid');
    expect((await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).riskListSize).toBe(0);

    expect((await gql(t, developer, ADD, { input: { list: 'block', kind: 'bin', value: '411111' } })).body.data.addRiskListEntry.result.successful).toBe(true);
    expect((await gql(t, operator, ADD, { input: { list: 'block', kind: 'bin', value: '555555' } })).body.errors?.[0]).toBeTruthy();
    const read = await gql(t, operator, '{ workspace { riskList { list kind value } } }');
    expect(read.body.data.workspace.riskList).toEqual([{ list: 'block', kind: 'bin', value: '411111' }]);
    expect((await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).riskListSize).toBe(1);
    const audit = await db.auditEntry.findMany({ where: { workspaceId: m.workspaceId }, select: { operation: true } });
    expect(audit.map((a) => a.operation)).toContain('addRiskListEntry');
  });
});
