// An API payment's attempt is counted in the statement that writes its row (payments/attempt.ts):
// the row is written `started` under the account routing chose, and the decision comes with the
// row's next change. What that must not change: an allowed payment keeps its decision (settled, or
// waiting on its 3-D page); a refused one reads as an attempt that never reached account choice
// (no account, route or conversion, never a bank's decline) and no bank is asked; a degraded
// account's probe that the refused attempt claimed goes back to the account.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { paymentBody } from '../helpers/payments.ts';
import { testCardNumber } from '../helpers/cards.ts';
import { addListEntry } from '../../src/domain/risk/lists.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { rowCounts } from '../helpers/rows.ts';

const { t, seed } = useGateway({ now: '2026-05-04T10:00:00.000Z' });
const db = () => t.gateway.services.db;
let ref = 1;
let card = 500;

type Merchant = Awaited<ReturnType<typeof seed>>;

async function pay(m: Merchant, operation: 'regular-payment' | 'secure-payment', ip: string) {
  const body = paymentBody(m, { transaction: { channel_reference: `ROW-${ref++}`, ip, callback_url: 'https://shop.example/back' }, card: { number: testCardNumber(card++) } });
  const res = await m.call(operation, body);
  expect(res.status, res.text).toBe(200);
  await t.gateway.services.attempts.drain();
  const token = res.body.transaction.token as string;
  return { result: res.body.result as { successful: boolean; error_code?: string; redirect_url?: string }, row: await db().payment.findUniqueOrThrow({ where: { id: token } }) };
}

describe('an attempt counted with its payment row', () => {
  let m: Merchant;
  beforeAll(async () => {
    m = await seed({ riskGuard: true });
  });

  it('keeps the decision on an allowed payment, settled or waiting on its 3-D page', async () => {
    const settled = await pay(m, 'regular-payment', '192.0.2.10');
    expect(settled.row).toMatchObject({ status: 'successful', paymentAccountId: m.accountToken });
    expect(settled.row.risk).toMatchObject({ outcome: 'allow', source: 'api', guarded: true, figures: [{ kind: 'ip', cards: 1, declines: 0, coolingDown: false }, { kind: 'workspace', cards: null }] });

    const waiting = await pay(m, 'secure-payment', '192.0.2.10');
    expect(waiting.result.redirect_url).toMatch(/\/checkout\/3ds\//);
    expect(waiting.row).toMatchObject({ status: 'started', paymentAccountId: m.accountToken });
    expect(waiting.row.risk).toMatchObject({ outcome: 'allow', guarded: true, figures: [{ kind: 'ip', cards: 2 }, { kind: 'workspace' }] });
  });

  it('settles a refused attempt failed, without the account or route routing chose, and asks no bank', async () => {
    const ip = '192.0.2.20';
    for (let i = 0; i < 2; i++) expect((await pay(m, 'regular-payment', ip)).result.successful).toBe(true);
    // The third card from the address requires 3-D Secure: a regular payment is refused.
    const refused = await pay(m, 'regular-payment', ip);
    expect(refused.result).toMatchObject({ successful: false, error_code: '3ds_required' });
    expect(refused.row).toMatchObject({ status: 'failed', errorCode: '3ds_required', paymentAccountId: null, routingReason: null, routingDetail: null, chargedAmount: null, isTest: true });
    expect(refused.row.risk).toMatchObject({ outcome: 'require_3ds', rules: [{ rule: 'ip_cards_3ds' }] });
    expect(await db().providerAttempt.count({ where: { paymentId: refused.row.id } })).toBe(0);
  });

  it('an attempt that cannot be paid is a 422 at its field before it is counted: no payment, customer or attempt written', async () => {
    // The account offers 3 and 6 installments; 2 cannot be paid there.
    await db().paymentAccount.update({ where: { id: m.accountToken }, data: { installmentCounts: [3, 6] } });
    await t.gateway.admission.synced();
    const before = { ...(await rowCounts(t)), attempts: await db().riskAttempt.count() };
    const refused = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `ROW-${ref++}`, ip: '192.0.2.50', installment_number: 2 }, card: { number: testCardNumber(card++) } }));
    expectFieldError(refused, 'transaction.installment_number', 'installment_not_offered');
    expect({ ...(await rowCounts(t)), attempts: await db().riskAttempt.count() }).toEqual(before);
  });

  it('one customer paying with new cards from one address at once: every answer is a decision, and at most the threshold pass', async () => {
    // Each new card waits for the address's lock while the customer's row is written by the others:
    // the count reads its windows before the customer's row is locked, so no two wait on each other.
    const ip = '192.0.2.30';
    const customer = { channel_reference: 'ONE-SHOPPER', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `ROW-${ref++}`, ip }, customer, card: { number: testCardNumber(card++) } }))),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    const passed = answers.filter((res) => res.body.result.successful).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThanOrEqual(2);
    // The third and fourth cards need 3-D Secure, the fifth and later are blocked.
    const refusals = answers.filter((res) => !res.body.result.successful).map((res) => res.body.result.error_code as string);
    expect(refusals.filter((code) => code === '3ds_required').length).toBeLessThanOrEqual(2);
    expect(refusals.filter((code) => code !== '3ds_required' && code !== 'blocked')).toEqual([]);
    expect(refusals.filter((code) => code === 'blocked').length).toBeGreaterThanOrEqual(4);
  });

  it('a new card waiting for its address\'s lock has not yet locked the customer\'s row', async () => {
    const ip = '192.0.2.40';
    const customer = { channel_reference: 'LOCK-ORDER', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' };
    const payOnce = () => m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: `ROW-${ref++}`, ip }, customer, card: { number: testCardNumber(card++) } }));
    expect((await payOnce()).body.result.successful).toBe(true);
    const customerId = (await db().customer.findFirstOrThrow({ where: { workspaceId: m.workspaceId, channelReference: 'LOCK-ORDER' } })).id;
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    await other.connect();
    try {
      // The address's lock (risk_window's key), held here: the next new card waits for it.
      await holder.query(`SELECT pg_advisory_lock(hashtextextended('risk-source:' || $1 || ':ip:' || $2, 0))`, [m.workspaceId, ip]);
      const waiting = payOnce();
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const { rows } = await other.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'advisory' AND query LIKE 'WITH src (kind%'`);
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(Date.now()).toBeLessThan(deadline);
      await other.query('BEGIN');
      const locked = await other.query('SELECT id FROM "Customer" WHERE id = $1 FOR UPDATE NOWAIT', [customerId]).then(() => 'free', (err: Error) => err.message);
      await other.query('ROLLBACK');
      expect(locked).toBe('free');
      await holder.query(`SELECT pg_advisory_unlock_all()`);
      expect((await waiting).status).toBe(200);
    } finally {
      await holder.end();
      await other.end();
    }
  });

  it('gives a degraded account the probe a refused attempt claimed back, and the next payment probes it', async () => {
    const blocker = await seed({ riskGuard: true });
    const workspace = await db().workspace.update({ where: { id: blocker.workspaceId }, data: { healthCooldownSeconds: 30 } });
    const cooledAt = new Date(t.clock.now().getTime() - 60_000);
    await db().paymentAccount.update({ where: { id: blocker.accountToken }, data: { health: 'degraded', healthChangedAt: cooledAt } });
    await addListEntry({ db: db() }, workspace, { list: 'block', kind: 'ip', value: '192.0.2.66' });
    await t.gateway.admission.synced();

    const blocked = await pay(blocker, 'regular-payment', '192.0.2.66');
    expect(blocked.result).toMatchObject({ successful: false, error_code: 'blocked' });
    expect(blocked.row.paymentAccountId).toBeNull();
    // Still past its cool-down, as before the attempt: not waiting 30 s more for a probe nobody made.
    expect((await db().paymentAccount.findUniqueOrThrow({ where: { id: blocker.accountToken } })).healthChangedAt).toEqual(cooledAt);

    const probe = await pay(blocker, 'regular-payment', '192.0.2.67');
    expect(probe.result.successful).toBe(true);
    expect(probe.row.paymentAccountId).toBe(blocker.accountToken);
  });
});
