// The lasting guard against hostile input: for every REST operation, generated hostile bodies (wrong
// types, nulls, unknown and prototype keys (now 422s, not dropped), deep nesting, huge and odd strings, NUL, surrogates,
// out-of-range numbers and amounts, duplicate keys), correctly signed. Never a 5xx, every 4xx in
// the contract's shape, and nothing written by a rejected request. Bounded here; `npm run fuzz` runs
// 20,000 requests.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { hostileBody, judge, OPERATIONS, tableCounts, templates, type FuzzContext } from '../fuzz/hostile-bodies.ts';
import { routes } from '../../src/rest/routes.ts';

const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 20);

let t: TestGateway;
let m: Merchant;
let client: pg.Client;
let context: FuzzContext;
/** Answers by operation and status, printed at the end (the long run's report). */
const histogram = new Map<string, number>();

beforeAll(async () => {
  t = await startTestGateway({ env: { LOG_LEVEL: 'warn' } });
  m = await seedWorkspace(t);
  const paid = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'FUZZ-BASE-1' }, customer: { channel_reference: 'FUZZ-CUST' } }));
  const saved = await m.call('save-card', {
    saved_card: { channel_token: m.channelToken },
    customer: { channel_reference: 'FUZZ-CUST' },
    card: { holder_name: 'FUZZ', number: '5555555555554444', expiry_month: '12', expiry_year: '2030' },
  });
  context = { channelToken: m.channelToken, accountToken: m.accountToken, paymentToken: paid.body.transaction.token, savedCardToken: saved.body.saved_card.token, customerReference: 'FUZZ-CUST' };
  client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
});
afterAll(async () => {
  const lines = [...histogram].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `  ${key.padEnd(34)} ${n}`);
  const total = [...histogram.values()].reduce((a, b) => a + b, 0);
  console.log(`fuzz: ${total} hostile requests\n${lines.join('\n')}`);
  await client?.end();
  await t?.stop();
});

describe('hostile bodies, correctly signed', () => {
  for (const operation of OPERATIONS) {
    it(`${operation}: never a 5xx, errors in the contract's shape, nothing written when rejected`, async () => {
      const template = templates(context)[operation] ?? {};
      const path = operation === 'update-payment-link' ? `${operation}/${context.paymentToken}` : operation;
      const form = routes.get(operation)!.signing === 'timestamp' ? 'timestamp' : 'body';
      await fc.assert(
        fc.asyncProperty(hostileBody(template), async ({ name, raw, mustRefuse }) => {
          // The provider attempts of the request before are written in the background: first.
          await t.gateway.services.attempts.drain();
          const before = await tableCounts(client);
          const res = await m.call(path, null, { raw, form });
          const key = `${operation} ${res.status}`;
          histogram.set(key, (histogram.get(key) ?? 0) + 1);
          await t.gateway.services.attempts.drain();
          const verdict = judge(operation, res.status, res.text, before, await tableCounts(client), mustRefuse);
          if (!verdict.ok) throw new Error(`${name}: ${verdict.problem}`);
        }),
        { numRuns: RUNS_PER_OPERATION },
      );
    });
  }
});
