// Settlements gathered: the settlements asked for while one is being written go together in one
// statement (settle.ts, db/gathered-writes.ts). Each payment must still get exactly its own columns,
// its own event and its event's notifications, and a payment already settled nothing.
import { describe, expect, it } from 'vitest';
import { useResources } from '../helpers/fixture.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { eventsOf, startedPayment as started } from '../helpers/rows.ts';
import { settleAfterBank, type Final } from '../../src/domain/payments/settle.ts';
import type { Currency, Payment } from '../../src/generated/prisma/client.ts';
import type { Columns } from '../../src/db/rows.ts';

const resources = useResources();
const statements: string[] = [];
let t: TestGateway;
let m: Merchant;
let reference = 1;

/** The statements that wrote settlements: one alone by its id, several joined to their values. */
const settlementStatements = () => statements.filter((sql) => sql.includes('changed AS (UPDATE "Payment"'));
const gatheredStatements = () => statements.filter((sql) => sql.includes('jsonb_populate_record(NULL::"Payment"'));

const startedPayment = () => started(t, m, `GATHERED-${reference++}`);

/** Settles each at once, as concurrent attempts do: the first goes alone, the others wait for it together. */
async function settleAtOnce(settlements: Array<{ id: string; final: Final; also?: Columns<Payment> }>) {
  statements.length = 0;
  const payments = await Promise.all(settlements.map(() => startedPayment()));
  return { payments, answers: await Promise.allSettled(settlements.map((x, i) => settleAfterBank(t.gateway.services, payments[i]!, x.final, x.also))) };
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const risk = { outcome: 'allow', score: 12, rules: [] };

describe('settlements gathered into one statement', () => {
  it('each payment gets its own columns, its own event and its notifications; the waiting ones in one statement', async () => {
    t = await resources.startGateway({ env: { WEBHOOK_POLL_INTERVAL_MS: '3600000' }, onQuery: (sql) => statements.push(sql) });
    m = await seedWorkspace(t);
    await t.gateway.services.db.webhookAddress.create({ data: { workspaceId: m.workspaceId, url: 'http://127.0.0.1:9/hooks', allEvents: true } });
    const { payments, answers } = await settleAtOnce([
      { id: 'first', final: { status: 'successful', providerReference: 'sim-first' } },
      { id: 'paid', final: { status: 'successful', providerReference: 'sim-paid' } },
      { id: 'declined', final: { status: 'failed', errorCode: 'insufficient_funds', errorMessage: 'Yetersiz bakiye', providerCode: '51', providerMessage: 'NSF' } },
      { id: 'refused', final: { status: 'failed', errorCode: 'risk_blocked', errorMessage: 'Engellendi' }, also: { risk, paymentAccountId: null, shouldSave: false } },
      { id: 'timeout', final: { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: 'Yanıt yok' } },
      { id: 'risked', final: { status: 'successful', providerReference: 'sim-risked' }, also: { risk } },
    ]);
    expect(settlementStatements()).toHaveLength(2);
    expect(gatheredStatements()).toHaveLength(1);
    const [first, paid, declined, refused, timeout, risked] = await Promise.all(payments.map((p) => row(p.id)));

    expect(first).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: 'sim-first', errorCode: null, risk: null });
    expect(paid).toMatchObject({ status: 'successful', paymentStatus: 'paid', providerReference: 'sim-paid', errorCode: null, providerErrorCode: null });
    expect(declined).toMatchObject({ status: 'failed', paymentStatus: null, providerReference: null, errorCode: 'insufficient_funds', errorMessage: 'Yetersiz bakiye', providerErrorCode: '51', providerErrorMessage: 'NSF', risk: null });
    expect(refused).toMatchObject({ status: 'failed', errorCode: 'risk_blocked', providerErrorCode: null, paymentAccountId: null, risk });
    expect(timeout).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout', providerErrorCode: null, completedAt: t.clock.now() });
    expect(risked).toMatchObject({ status: 'successful', providerReference: 'sim-risked', risk, paymentAccountId: m.accountToken });
    for (const settled of [first, paid, declined, refused, risked]) expect(settled!.completedAt).toEqual(t.clock.now());
    // What each caller was answered is its own row as written.
    answers.forEach((answer, i) => {
      expect(answer.status).toBe('fulfilled');
      const view = (answer as PromiseFulfilledResult<Payment>).value;
      expect(view.id).toBe(payments[i]!.id);
      expect(view.status).toBe([first, paid, declined, refused, timeout, risked][i]!.status);
    });

    const kinds = await Promise.all(payments.map((p) => eventsOf(t, p.id)));
    expect(kinds).toEqual([['transaction.successful'], ['transaction.successful'], ['transaction.failed'], ['transaction.failed'], [], ['transaction.successful']]);
    // One notification per event, its body naming its own id, event, time and payment.
    for (const [i, p] of payments.entries()) {
      const events = await t.gateway.services.db.outboxEvent.findMany({ where: { recordToken: p.id }, include: { notifications: true } });
      if (i === 4) {
        expect(events).toEqual([]);
        continue;
      }
      expect(events).toHaveLength(1);
      const [notification] = events[0]!.notifications;
      expect(events[0]!.notifications).toHaveLength(1);
      expect(JSON.parse(notification!.body)).toEqual({ id: notification!.id, event: kinds[i]![0], created_at: events[0]!.createdAt.toISOString().replace('Z', '000Z'), transaction: { token: p.id } });
      expect(notification!.nextAttemptAt!.getTime()).toBe(t.clock.now().getTime() + 30_000);
    }
  });

  it('a payment already settled changes nothing and gets no second event; the others in its statement are written', async () => {
    const done = await startedPayment();
    await settleAfterBank(t.gateway.services, done, { status: 'successful', providerReference: 'sim-done' });
    statements.length = 0;
    const fresh = await Promise.all([startedPayment(), startedPayment()]);
    const [, late, other] = await Promise.all([
      settleAfterBank(t.gateway.services, fresh[0]!, { status: 'successful', providerReference: 'sim-a' }),
      settleAfterBank(t.gateway.services, done, { status: 'failed', errorCode: 'payment_not_received', errorMessage: 'late' }),
      settleAfterBank(t.gateway.services, fresh[1]!, { status: 'failed', errorCode: 'insufficient_funds', errorMessage: 'Yetersiz bakiye' }),
    ]);
    expect(settlementStatements()).toHaveLength(2);
    expect(late).toMatchObject({ id: done.id, status: 'successful' });
    expect(await row(done.id)).toMatchObject({ status: 'successful', providerReference: 'sim-done', errorCode: null });
    expect(await eventsOf(t, done.id)).toEqual(['transaction.successful']);
    expect(other).toMatchObject({ id: fresh[1]!.id, status: 'failed', errorCode: 'insufficient_funds' });
    expect(await eventsOf(t, fresh[1]!.id)).toEqual(['transaction.failed']);
  });

  it('the same payment settled twice at once goes in two statements and is written once', async () => {
    const holder = await startedPayment();
    const p = await startedPayment();
    statements.length = 0;
    const [, a, b] = await Promise.all([
      settleAfterBank(t.gateway.services, holder, { status: 'successful', providerReference: 'sim-h' }),
      settleAfterBank(t.gateway.services, p, { status: 'successful', providerReference: 'sim-twice' }),
      settleAfterBank(t.gateway.services, p, { status: 'successful', providerReference: 'sim-twice' }),
    ]);
    expect(settlementStatements()).toHaveLength(3);
    expect(a).toEqual(b);
    expect(await eventsOf(t, p.id)).toEqual(['transaction.successful']);
  });

  it('a settlement PostgreSQL refuses fails alone: the others waiting with it are written', async () => {
    const { payments, answers } = await settleAtOnce([
      { id: 'first', final: { status: 'successful', providerReference: 'sim-1' } },
      { id: 'good', final: { status: 'successful', providerReference: 'sim-2' } },
      { id: 'bad', final: { status: 'successful', providerReference: 'sim-3' }, also: { currency: 'XYZ' as Currency } },
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect((await row(payments[1]!.id)).status).toBe('successful');
    expect(await eventsOf(t, payments[1]!.id)).toEqual(['transaction.successful']);
    expect((await row(payments[2]!.id)).status).toBe('started');
    expect(await eventsOf(t, payments[2]!.id)).toEqual([]);
    // Counted when they succeed: the first, and the good one sent alone after the statement of the two failed.
    expect(settlementStatements()).toHaveLength(2);
  });
});
