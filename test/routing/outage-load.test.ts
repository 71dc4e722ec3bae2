// A bounded load test on 127.0.0.1: 16 clients pay without pause through a workspace of two
// simulator accounts while the preferred one fails every payment for 30 s (its `outage` setting).
// Every payment succeeds (the second account can take each one), none is charged twice (the bank's
// books hold exactly one approved charge per payment, whichever try made it), the failing account
// is taken out of routing during the outage (payment_account.degraded) and comes back after it
// (payment_account.recovered). The gateway's clock follows real time here.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { eventually } from '../helpers/webhooks.ts';
import { createPaymentAccount } from '../../src/domain/workspaces.ts';

const CLIENTS = 16;
const OUTAGE_MS = 30_000;
const { t, merchant: m } = useGateway({ merchant: true });
const db = () => t.gateway.services.db;

describe('one of two accounts down for 30 s under 16 clients', { timeout: 180_000 }, () => {
  it('every payment succeeds, none is charged twice, the account goes out and comes back', async () => {
    const flaky = m.accountToken;
    const spare = (await createPaymentAccount(db(), m.team, { name: 'Spare' })).id;
    await db().workspace.update({ where: { id: m.workspaceId }, data: { healthWindowSeconds: 10, healthMinFailures: 5, healthFailurePercent: 50, healthCooldownSeconds: 3, healthProbePayments: 3 } });
    await t.gateway.admission.synced();
    // The gateway's (manual) clock keeps pace with real time, so cool-downs end.
    let last = Date.now();
    const ticking = setInterval(() => {
      const now = Date.now();
      t.clock.advance(now - last);
      last = now;
    }, 50);

    const tokens: string[] = [];
    const failures: unknown[] = [];
    let running = true;
    let reference = 0;
    const client = async () => {
      while (running) {
        const res = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.approved }, transaction: { channel_reference: `LOAD-${reference++}` } }));
        if (res.status === 200 && res.body.result.successful === true) tokens.push(res.body.transaction.token as string);
        else failures.push(res.body);
      }
    };
    const setOutage = async (on: boolean) => {
      await db().paymentAccount.update({ where: { id: flaky }, data: { settings: on ? { outage: 'errors' } : {} } });
      await t.gateway.admission.synced();
    };
    const clients = Array.from({ length: CLIENTS }, client);
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      await setOutage(true);
      await eventually(async () => (await db().paymentAccount.findUniqueOrThrow({ where: { id: flaky } })).health === 'degraded', 'the failing account out of routing', OUTAGE_MS);
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      await setOutage(false);
      await eventually(async () => (await db().paymentAccount.findUniqueOrThrow({ where: { id: flaky } })).health === 'healthy', 'the account back in routing', 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      running = false;
      await Promise.all(clients);
      clearInterval(ticking);
    }

    expect(failures).toEqual([]);
    expect(tokens.length).toBeGreaterThan(CLIENTS * 10);
    const payments = await db().payment.findMany({ where: { id: { in: tokens } } });
    expect(payments.every((p) => p.status === 'successful')).toBe(true);
    const byAccount = (id: string) => payments.filter((p) => p.paymentAccountId === id).length;
    expect(byAccount(flaky)).toBeGreaterThan(0);
    expect(byAccount(spare)).toBeGreaterThan(0);
    expect(payments.filter((p) => p.attemptNumber === 2).every((p) => p.paymentAccountId === spare && p.routingReason === 'fallback')).toBe(true);
    expect(payments.some((p) => p.routingReason === 'health')).toBe(true);

    // The bank's books: exactly one approved charge per payment, under the key of the try that made it.
    const account = await db().paymentAccount.findUniqueOrThrow({ where: { id: spare } });
    const bank = t.gateway.services.providers.forAccount(account);
    for (const p of payments) {
      const approved = [];
      for (const key of [`${p.id}:charge`, `${p.id}:charge:2`, `${p.id}:charge:3`]) {
        if ((await bank.paymentStatus({ idempotencyKey: key, providerReference: null, amount: p.amount, currency: 'TRY' })).status === 'succeeded') approved.push(key);
      }
      expect(approved, p.id).toEqual([p.attemptNumber === 1 ? `${p.id}:charge` : `${p.id}:charge:${p.attemptNumber}`]);
    }
    expect(await eventsOf(t, flaky)).toEqual(['payment_account.degraded', 'payment_account.recovered']);
  });
});
