// `gateway risk …` on a gateway's database: rules saved, listed in order, switched off and removed,
// tested on the stored payments of a period; list entries added (a card by a payment token: its
// fingerprint, never the number), shown and removed; a mistake prints the gateway's message in
// Turkish and English with nothing written. The saved rule and list entry act on the next payment.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { cliOn } from '../helpers/cli.ts';

const { t, seed } = useGateway();
const cli = cliOn(t);
let ref = 1;
type Merchant = Awaited<ReturnType<typeof seed>>;

async function pay(m: Merchant, amount: string, ip = '203.0.113.50') {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `CLI-RISK-${ref++}`, amount, ip }, card: { number: CARDS.approved } }));
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, code: res.body.result.error_code as string | undefined };
}

type RuleJson = { id: string; position: number; enabled: boolean; name: string; outcome: string; conditions: unknown };

describe('gateway risk rules', () => {
  it('saves, lists in order, tests on stored payments, switches off and removes rules', async () => {
    const m = await seed();
    const paid = await pay(m, '700.00');
    await pay(m, '20.00');

    const tested = await cli.json<{ days: number; attempts: number; matched: number; succeeded: number; sample: string[] }>('risk', 'rules', 'test', m.team, '--when', 'amount gte 50000', '--days', '7');
    expect(tested).toEqual({ days: 7, attempts: 2, matched: 1, succeeded: 1, sample: [paid.token] });
    expect((await cli.run(['risk', 'rules', 'test', m.team, '--when', 'amount gte 50000', '--days', '7'])).stdout).toContain('Of 2 payments in the last 7 days the rule would have fired on 1; 1 of them succeeded.');

    const big = await cli.json<RuleJson>('risk', 'rules', 'save', m.team, '--name', 'Big', '--outcome', 'block', '--when', 'amount gte 50000', '--when', 'currency in TRY,USD', '--position', '5');
    expect(big).toMatchObject({ position: 5, enabled: true, name: 'Big', outcome: 'block', conditions: [{ field: 'amount', operator: 'gte', value: 50000 }, { field: 'currency', operator: 'in', value: ['TRY', 'USD'] }] });
    await cli.json('risk', 'rules', 'save', m.team, '--name', 'Domains', '--outcome', 'require_3ds', '--when', 'email_domain eq example.net', '--position', '1', '--off');
    const listed = await cli.json<RuleJson[]>('risk', 'rules', 'list', m.team);
    expect(listed.map((r) => [r.name, r.position, r.enabled])).toEqual([['Domains', 1, false], ['Big', 5, true]]);
    expect((await cli.run(['risk', 'rules', 'list', m.team])).stdout).toContain(`block when amount gte 50000 and currency in TRY,USD  "Big"  id=${big.id}`);

    expect((await pay(m, '600.00')).code).toBe('blocked');
    expect((await cli.json<RuleJson>('risk', 'rules', 'off', m.team, big.id)).enabled).toBe(false);
    expect((await pay(m, '600.00')).code).toBeUndefined();

    await cli.fails(['risk', 'rules', 'save', m.team, '--name', 'Bad', '--outcome', 'block', '--when', 'amount starts_with 5'], 'Bu alan için işlem şunlardan biri olmalıdır: eq, ne, gt, gte, lt, lte, in, not_in. / For this field the operator must be one of: eq, ne, gt, gte, lt, lte, in, not_in.');
    await cli.fails(['risk', 'rules', 'save', m.team, '--name', 'Bad', '--outcome', 'block', '--when', 'amount'], 'A condition is "<field> <operator> <value>"');
    await cli.fails(['risk', 'rules', 'test', m.team, '--when', 'amount gte 1', '--days', '14'], 'Dönem 7, 30 veya 90 gün olmalıdır');
    await cli.fails(['risk', 'rules', 'off', m.team, 'nope'], 'No risk rule nope');
    expect(await t.gateway.services.db.riskRule.count({ where: { workspaceId: m.workspaceId } })).toBe(2);

    await cli.json('risk', 'rules', 'remove', m.team, big.id);
    expect((await cli.json<RuleJson[]>('risk', 'rules', 'list', m.team)).map((r) => r.name)).toEqual(['Domains']);
    await cli.fails(['risk', 'rules', 'remove', m.team, big.id], 'Risk kuralı bulunamadı. / Risk rule not found.');
  });
});

describe('gateway risk lists', () => {
  it('adds, shows and removes entries; a card is listed by a payment token, never by its number', async () => {
    const m = await seed();
    const paid = await pay(m, '10.00');
    type EntryJson = { id: string; list: string; kind: string; value: string; note: string | null };
    const ip = await cli.json<EntryJson>('risk', 'lists', 'add', m.team, 'block', 'ip', '198.51.100.7/24', '--note', 'card testing');
    expect(ip).toMatchObject({ list: 'block', kind: 'ip', value: '198.51.100.0/24', note: 'card testing' });
    const card = await cli.json<EntryJson>('risk', 'lists', 'add', m.team, 'block', 'card', paid.token);
    expect(card.value).not.toContain(CARDS.approved);
    expect(card.value).not.toBe(paid.token);
    expect((await cli.run(['risk', 'lists', 'show', m.team])).stdout).toContain('block  ip  198.51.100.0/24  (card testing)');
    expect((await pay(m, '10.00', '198.51.100.9')).code).toBe('blocked');
    expect((await pay(m, '10.00')).code).toBe('blocked');

    await cli.fails(['risk', 'lists', 'add', m.team, 'block', 'ip', '300.1.1.1'], 'Geçerli bir IP adresi veya CIDR aralığı olmalıdır');
    await cli.json('risk', 'lists', 'remove', m.team, card.id);
    await cli.json('risk', 'lists', 'remove', m.team, ip.id);
    expect(await cli.json('risk', 'lists', 'show', m.team)).toEqual([]);
    expect((await pay(m, '10.00')).code).toBeUndefined();
  });
});

describe('gateway risk: the audit trail', () => {
  it('records every rule and list change as the dashboard does, under the account that ran the CLI; a refused change is not recorded', async () => {
    const m = await seed();
    const run = async (...args: string[]) => {
      const res = await cli.run(['--json', ...args], { USER: 'deploy' });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      return JSON.parse(res.stdout) as { id: string };
    };
    const rule = await run('risk', 'rules', 'save', m.team, '--name', 'Big', '--outcome', 'block', '--when', 'amount gte 50000');
    await run('risk', 'rules', 'off', m.team, rule.id);
    await run('risk', 'rules', 'remove', m.team, rule.id);
    const entry = await run('risk', 'lists', 'add', m.team, 'block', 'email', 'Fraud@Example.com', '--note', 'chargebacks');
    await run('risk', 'lists', 'remove', m.team, entry.id);
    await cli.fails(['risk', 'rules', 'save', m.team, '--name', 'Bad', '--outcome', 'block', '--when', 'amount starts_with 5'], 'Bu alan için işlem');
    await run('risk', 'rules', 'list', m.team);

    const entries = await t.gateway.services.db.auditEntry.findMany({ where: { workspaceId: m.workspaceId }, orderBy: { createdAt: 'asc' } });
    expect(entries.map((e) => [e.operation, e.outcome, e.role, e.tokenId, e.personId])).toEqual([
      ['saveRiskRule', 'done', 'owner', null, null],
      ['saveRiskRule', 'done', 'owner', null, null],
      ['removeRiskRule', 'done', 'owner', null, null],
      ['addRiskListEntry', 'done', 'owner', null, null],
      ['removeRiskListEntry', 'done', 'owner', null, null],
    ]);
    expect(new Set(entries.map((e) => e.tokenName))).toEqual(new Set([`cli: deploy@${hostname()}`]));
    expect(entries.map((e) => e.variables)).toEqual([
      { input: { id: null, name: 'Big', outcome: 'block', conditions: [{ field: 'amount', operator: 'gte', value: 50000 }], position: null, enabled: true } },
      { input: { id: rule.id, name: 'Big', outcome: 'block', conditions: [{ field: 'amount', operator: 'gte', value: 50000 }], enabled: false } },
      { id: rule.id },
      { input: { list: 'block', kind: 'email', value: 'Fraud@Example.com', note: 'chargebacks' } },
      { id: entry.id },
    ]);
  });
});
