// A renewal is charged exactly once: two gateways on one database (each its own
// connection pool, job runner and renewal sweep) handling the same period end many times at once,
// and a renewal racing cancel-subscription. The gateways' shared clock jumps past the period end;
// their own renewal jobs run meanwhile too.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.ts';
import { processDueSubscriptions, processPeriodEnd } from '../../src/domain/subscriptions/renewals.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { useResources } from '../helpers/fixture.ts';
import { openSubscription, payPeriod, recurringProduct, saveProducts, subscriptionRow } from './support.ts';

const { startGateway } = useResources();
const DAY = 24 * 3600_000;

async function twoGateways(): Promise<{ a: TestGateway; b: TestGateway; clock: ManualClock }> {
  const clock = new ManualClock('2025-03-10T09:00:00.000Z');
  const a = await startGateway({ clock });
  const b = await startGateway({ clock, databaseUrl: a.databaseUrl });
  return { a, b, clock };
}

/** An active monthly subscription whose first period was paid on its page (card saved as default). */
async function activeSubscription(a: TestGateway, m: Merchant, reference: string): Promise<string> {
  const { token } = await openSubscription(m, { items: [{ channel_reference: 'PLAN-M' }], subscription: { channel_reference: reference } });
  const { acs } = await payPeriod(a, token);
  if (!acs?.returnToken) throw new Error('first period not paid');
  return token;
}

describe('renewals with two gateways on one database', () => {
  it('ten handlers of the same period end in two processes, plus both renewal jobs: one charge, one new period, one event', async () => {
    const { a, b, clock } = await twoGateways();
    const m = await seedWorkspace(a);
    await saveProducts(m, [recurringProduct(m, 'PLAN-M', { amount: '75.00' })]);
    const tokens = [await activeSubscription(a, m, 'SUB-3001'), await activeSubscription(a, m, 'SUB-3002')];

    clock.advance(32 * DAY);
    const outcomes = await Promise.all(
      tokens.flatMap((token) => [a, b, a, b, a].flatMap((g) => [processPeriodEnd(g.gateway.services, token), processPeriodEnd(g.gateway.services, token)])),
    );
    await Promise.all([processDueSubscriptions(a.gateway.services), processDueSubscriptions(b.gateway.services)]);

    // Each subscription's ten handlers: at most one renewed it. Its gateway's own renewal job
    // (every 200 ms here) may have been first, and then all ten skipped; the rows below show
    // that exactly one renewal happened either way.
    tokens.forEach((_, i) => {
      const own = outcomes.slice(i * 10, (i + 1) * 10);
      expect(own.filter((o) => o === 'renewed').length).toBeLessThanOrEqual(1);
      expect(own.filter((o) => o !== 'renewed' && o !== 'skipped')).toEqual([]);
    });
    for (const token of tokens) {
      const row = await subscriptionRow(a, token);
      expect(row.status).toBe('active');
      expect(row.periods.map((p) => [p.number, p.status, p.payments.length])).toEqual([
        [1, 'paid', 1],
        [2, 'paid', 1],
      ]);
      expect(row.periods[1]!.payments[0]).toMatchObject({ status: 'successful', amount: 7500n, securityType: 'non_secure' });
      const events = await a.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token }, orderBy: { createdAt: 'asc' } });
      expect(events.map((e) => e.kind)).toEqual(['subscription.active', 'subscription.active']);
    }
  });

  it('a renewal racing cancel-subscription: never charged after the cancel took effect, never twice', async () => {
    const { a, b, clock } = await twoGateways();
    const m = await seedWorkspace(a);
    await saveProducts(m, [recurringProduct(m, 'PLAN-M', { amount: '75.00' })]);
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push(await activeSubscription(a, m, `SUB-40${i}1`));

    clock.advance(32 * DAY);
    await Promise.all(
      tokens.map(async (token) => {
        const [renewal, cancel] = await Promise.all([processPeriodEnd(b.gateway.services, token), m.call('cancel-subscription', { subscription: { token } })]);
        expect(cancel.status).toBe(200);
        return renewal;
      }),
    );
    // Whatever is still due after the race (a cancel that came first ends at the period end).
    await processDueSubscriptions(a.gateway.services);

    for (const token of tokens) {
      const row = await subscriptionRow(a, token);
      const secondPeriodPayments = row.periods[1]?.payments ?? [];
      expect(secondPeriodPayments.length).toBeLessThanOrEqual(1);
      expect(row.cancelledAt).not.toBeNull();
      const kinds = (await a.gateway.services.db.outboxEvent.findMany({ where: { recordToken: token }, orderBy: { createdAt: 'asc' } })).map((e) => e.kind);
      if (secondPeriodPayments.length === 1) {
        // The renewal's charge started first (its payment row predates the cancel): the new period
        // is paid and the subscription ends at its end. The cancel may land while the bank is
        // answering, so subscription.cancelled can come before the renewal's subscription.active.
        expect(secondPeriodPayments[0]!.status).toBe('successful');
        expect(row.status).toBe('active');
        expect(secondPeriodPayments[0]!.createdAt.getTime()).toBeLessThanOrEqual(row.cancelledAt!.getTime());
        expect(kinds[0]).toBe('subscription.active');
        expect([...kinds].sort()).toEqual(['subscription.active', 'subscription.active', 'subscription.cancelled']);
      } else {
        // The cancel came first: the paid period's end ends it, with no charge.
        expect(row.status).toBe('cancelled');
        expect(row.periods).toHaveLength(1);
        expect(kinds).toEqual(['subscription.active', 'subscription.cancelled', 'subscription.ended']);
      }
    }
  });
});
