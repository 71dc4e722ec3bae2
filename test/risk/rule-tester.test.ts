// The rule tester over stored attempts: what conditions would have done to the workspace's
// payments of the last 7, 30 or 90 days (how many, how many of them succeeded, which, newest
// first), read from the payment rows; another workspace's payments are not read; a period other
// than 7/30/90 is refused at its path; the described-attempt tester still answers beside it.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { testCardNumber } from '../helpers/cards.ts';
import { createDb } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/raw.ts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { testOnStoredAttempts } from '../../src/domain/risk/rule-test.ts';

const { t, seed } = useGateway({ now: '2026-03-01T12:00:00.000Z' });
const DAY = 86_400_000;
let ref = 1;
type Merchant = Awaited<ReturnType<typeof seed>>;

const TEST = `query($conditions: [RiskConditionInput!]!, $attempt: JSON, $days: Int) {
  riskRuleTest(conditions: $conditions, attempt: $attempt, days: $days) {
    result { successful } errors { path code } matches
    past { days attempts matched succeeded payments { token channelReference status } }
  } }`;

async function pay(m: Merchant, amount: string, opts: { card?: string; email?: string } = {}) {
  const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `PAST-${ref++}`, amount }, card: { number: opts.card ?? CARDS.approved }, customer: { channel_reference: opts.email ?? 'ALI', email: opts.email ?? 'ali@example.com' } }));
  expect(res.status, res.text).toBe(200);
  return res.body.transaction.token as string;
}

describe('the rule tester over stored attempts', () => {
  let m: Merchant;
  let viewer: string;
  const at: Record<string, string> = {};
  beforeAll(async () => {
    m = await seed();
    const other = await seed();
    viewer = await createAccessToken(t.gateway.services.db, m.team, 'past', { role: 'viewer' });
    // Oldest first, moving the clock: 100, 40, 10 and 1 day(s) ago, then today.
    at.old = await pay(m, '900.00');
    t.clock.advance(60 * DAY);
    at.d40 = await pay(m, '700.00');
    t.clock.advance(30 * DAY);
    at.d10 = await pay(m, '600.00', { card: CARDS.insufficientFunds });
    t.clock.advance(9 * DAY);
    at.d1 = await pay(m, '550.00', { email: 'Veli@Example.ORG' });
    await pay(other, '999.00');
    t.clock.advance(DAY);
    at.today = await pay(m, '100.00');
  });

  const over500 = [{ field: 'amount', operator: 'gte', value: 50000 }];

  it('counts the period’s payments, those the rule would fire on and those of them that succeeded, and names them newest first', async () => {
    const answer = async (days: number) => (await gql(t, viewer, TEST, { conditions: over500, days })).body.data.riskRuleTest;
    const week = await answer(7);
    expect(week).toEqual({ result: { successful: true }, errors: [], matches: null, past: { days: 7, attempts: 2, matched: 1, succeeded: 1, payments: [{ token: at.d1, channelReference: expect.any(String), status: 'successful' }] } });
    const month = (await answer(30)).past;
    expect(month).toMatchObject({ attempts: 3, matched: 2, succeeded: 1 });
    expect(month.payments.map((p: { token: string; status: string }) => [p.token, p.status])).toEqual([[at.d1, 'successful'], [at.d10, 'failed']]);
    const quarter = (await answer(90)).past;
    expect(quarter).toMatchObject({ attempts: 4, matched: 3, succeeded: 2 });
    expect(quarter.payments.map((p: { token: string }) => p.token)).toEqual([at.d1, at.d10, at.d40]);
  });

  it('reads each field as the payment kept it: e-mail domains without case, lists, the source; a field not kept never holds', async () => {
    const past = async (conditions: unknown[]) => (await gql(t, viewer, TEST, { conditions, days: 90 })).body.data.riskRuleTest.past;
    expect(await past([{ field: 'email_domain', operator: 'eq', value: 'example.org' }])).toMatchObject({ matched: 1, payments: [{ token: at.d1 }] });
    expect(await past([{ field: 'amount', operator: 'in', value: [60000, 70000] }, { field: 'currency', operator: 'eq', value: 'try' }])).toMatchObject({ matched: 2 });
    expect(await past([{ field: 'email', operator: 'not_in', value: ['ali@example.com'] }])).toMatchObject({ matched: 1 });
    expect(await past([{ field: 'source', operator: 'eq', value: 'api' }, { field: 'security', operator: 'eq', value: 'regular' }])).toMatchObject({ matched: 4 });
    expect(await past([{ field: 'card.bin', operator: 'starts_with', value: '4111' }])).toMatchObject({ matched: 3 });
    expect(await past([{ field: 'card.type', operator: 'ne', value: 'debit' }])).toMatchObject({ attempts: 4, matched: 0 });
  });

  it('answers a described attempt beside the period; a period other than 7, 30 or 90 days is refused at its path', async () => {
    const both = (await gql(t, viewer, TEST, { conditions: over500, attempt: { amount: 60000 }, days: 7 })).body.data.riskRuleTest;
    expect(both).toMatchObject({ matches: true, past: { matched: 1 } });
    const bad = (await gql(t, viewer, TEST, { conditions: over500, days: 14 })).body.data.riskRuleTest;
    expect(bad).toEqual({ result: { successful: false }, errors: [{ path: ['days'], code: 'risk_test_days' }], matches: null, past: null });
    const neither = (await gql(t, viewer, TEST, { conditions: over500 })).body.data.riskRuleTest;
    expect(neither.errors).toEqual([{ path: ['days'], code: 'risk_test_days' }]);
  });

  it('reads the guard’s figures the payment kept', async () => {
    const guarded = await seed({ riskGuard: true });
    const token = await createAccessToken(t.gateway.services.db, guarded.team, 'figures', { role: 'viewer' });
    for (let i = 0; i < 2; i++) {
      const res = await guarded.call('regular-payment', paymentBody(guarded, { transaction: { channel_reference: `FIG-${i}`, ip: '198.51.100.60' }, card: { number: testCardNumber(7000 + i) } }));
      expect(res.body.result.successful).toBe(true);
    }
    const past = (await gql(t, token, TEST, { conditions: [{ field: 'ip.cards', operator: 'gte', value: 2 }], days: 7 })).body.data.riskRuleTest.past;
    expect(past).toMatchObject({ attempts: 2, matched: 1, succeeded: 1, payments: [{ channelReference: 'FIG-1' }] });
  });

  it('plans its statements for their values every time: a prepared one turned generic after five runs (no parallel scan)', async () => {
    const one = createDb(t.databaseUrl, { max: 1 });
    try {
      for (let i = 0; i < 6; i++) expect((await testOnStoredAttempts(one, m.workspaceId, [{ field: 'amount', operator: 'gte', value: 50000 + i }], 90, t.clock.now())).matched).toBe(3);
      const [kept] = await queryRows<{ n: bigint }>(one, Prisma.sql`SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%"Payment" p%' AND statement NOT LIKE '%pg_prepared_statements%'`);
      expect(kept!.n).toBe(0n);
    } finally {
      await one.$disconnect();
    }
  });
});
