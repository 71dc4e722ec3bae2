// Account health: technical failures over the workspace's thresholds take an account out of
// routing (payment_account.degraded, once), payments go to the next account meanwhile, and after
// the cool-down a few probe payments bring it back (payment_account.recovered), one payment
// probing at a time; a failure while on probation takes it out again without a second event.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { seedWorkspace, type Merchant } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { eventually } from '../helpers/webhooks.ts';
import { createPaymentAccount } from '../../src/domain/workspaces.ts';
import { addWebhookAddress } from '../../src/domain/webhooks/addresses.ts';

const { t, receiver } = useGateway({ receiver: true });
let reference = 1;
const db = () => t.gateway.services.db;

/** Default account down (errors), a working spare; 3 failures and half the calls in 60 s, 30 s cool-down, 2 probes. */
async function workspace() {
  const m = await seedWorkspace(t);
  const slug = (await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).slug;
  await db().paymentAccount.update({ where: { id: m.accountToken }, data: { settings: { outage: 'errors' } } });
  const spare = (await createPaymentAccount(db(), slug, { name: 'Spare' })).id;
  await db().workspace.update({ where: { id: m.workspaceId }, data: { healthMinFailures: 3, healthFailurePercent: 50, healthWindowSeconds: 60, healthCooldownSeconds: 30, healthProbePayments: 2 } });
  await t.gateway.admission.synced();
  return { m, flaky: m.accountToken, spare };
}

async function pay(m: Merchant) {
  const res = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.approved }, transaction: { channel_reference: `HEALTH-${reference++}` } }));
  expect(res.body.result).toEqual({ successful: true, message: null });
  return db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
}

const healthOf = async (id: string) => (await db().paymentAccount.findUniqueOrThrow({ where: { id } })).health;
const until = (id: string, health: string) => eventually(async () => (await healthOf(id)) === health, `account ${health}`);
async function setOutage(id: string, outage: 'errors' | null) {
  await db().paymentAccount.update({ where: { id }, data: { settings: outage ? { outage } : {} } });
  await t.gateway.admission.synced();
}

describe('an account that keeps failing', () => {
  it('is taken out after the threshold, skipped during its cool-down, probed after it, and back once the probes succeed', async () => {
    const { m, flaky, spare } = await workspace();
    const ws = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    await addWebhookAddress(t.gateway.services, ws, { url: `${receiver.url}/health`, events: ['payment_account.degraded', 'payment_account.recovered'] });

    for (let i = 0; i < 2; i++) expect(await pay(m)).toMatchObject({ paymentAccountId: spare, attemptNumber: 2 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await healthOf(flaky)).toBe('healthy');
    expect(await pay(m)).toMatchObject({ paymentAccountId: spare, attemptNumber: 2 });
    await until(flaky, 'degraded');
    expect(await eventsOf(t, flaky)).toEqual(['payment_account.degraded']);

    // Cooling down: payments go straight to the spare, the flaky account is not asked.
    const during = await pay(m);
    expect(during).toMatchObject({ paymentAccountId: spare, attemptNumber: 1, routingReason: 'health', routingDetail: expect.objectContaining({ passedOver: flaky }) });

    // The provider is back; after the cool-down two probes bring the account back.
    await setOutage(flaky, null);
    t.clock.advance(31_000);
    expect(await pay(m)).toMatchObject({ paymentAccountId: flaky, attemptNumber: 1 });
    await until(flaky, 'probing');
    expect(await pay(m)).toMatchObject({ paymentAccountId: flaky, attemptNumber: 1 });
    await until(flaky, 'healthy');
    expect(await eventsOf(t, flaky)).toEqual(['payment_account.degraded', 'payment_account.recovered']);

    t.clock.advance(30_000);
    const hooks = await receiver.waitFor(2);
    expect(hooks.map((h) => JSON.parse(h.body) as { event: string; payment_account: unknown }).map((b) => [b.event, b.payment_account])).toEqual([
      ['payment_account.degraded', { token: flaky }],
      ['payment_account.recovered', { token: flaky }],
    ]);
  });

  it('after its cool-down one payment at a time probes it, however many arrive at once: the others go to the spare', async () => {
    const { m, flaky, spare } = await workspace();
    for (let i = 0; i < 3; i++) await pay(m);
    await until(flaky, 'degraded');
    t.clock.advance(31_000);

    // Still down: the one payment that claims the probe fails there and moves on; the others never
    // ask the account (the probe's failure starts another cool-down, whenever it comes).
    const burst = await Promise.all(Array.from({ length: 6 }, () => pay(m)));
    const probed = burst.filter((p) => p.attemptNumber === 2);
    expect(probed).toHaveLength(1);
    expect(probed[0]).toMatchObject({ paymentAccountId: spare, routingReason: 'fallback', routingDetail: expect.objectContaining({ failed: flaky }) });
    const passedOver = burst.filter((p) => p.attemptNumber === 1);
    expect(passedOver).toHaveLength(5);
    for (const p of passedOver) expect(p).toMatchObject({ paymentAccountId: spare, routingReason: 'health', routingDetail: expect.objectContaining({ passedOver: flaky }) });
  });

  it('a failure on probation takes it out again for another cool-down, without a second degraded event', async () => {
    const { m, flaky, spare } = await workspace();
    for (let i = 0; i < 3; i++) await pay(m);
    await until(flaky, 'degraded');
    t.clock.advance(31_000);
    // Still down: the probe fails and cascades to the spare; the account is degraded again.
    expect(await pay(m)).toMatchObject({ paymentAccountId: spare, attemptNumber: 2 });
    await eventually(async () => {
      const row = await db().paymentAccount.findUniqueOrThrow({ where: { id: flaky } });
      return row.health === 'degraded' && row.healthChangedAt!.getTime() > t.clock.now().getTime() - 1_000;
    }, 'a new cool-down');
    expect(await pay(m)).toMatchObject({ paymentAccountId: spare, attemptNumber: 1 });
    expect(await eventsOf(t, flaky)).toEqual(['payment_account.degraded']);
  });

  it('a failure while probing (after a probe succeeded) takes it out again, still without a second degraded event', async () => {
    const { m, flaky, spare } = await workspace();
    for (let i = 0; i < 3; i++) await pay(m);
    await until(flaky, 'degraded');
    await setOutage(flaky, null);
    t.clock.advance(31_000);
    expect(await pay(m)).toMatchObject({ paymentAccountId: flaky, attemptNumber: 1 });
    await until(flaky, 'probing');

    await setOutage(flaky, 'errors');
    expect(await pay(m)).toMatchObject({ paymentAccountId: spare, attemptNumber: 2 });
    await until(flaky, 'degraded');
    await new Promise((r) => setTimeout(r, 300));
    expect(await eventsOf(t, flaky)).toEqual(['payment_account.degraded']);
  });

  it('declines are not failures: a card refused again and again leaves the account healthy', async () => {
    const { m, flaky } = await workspace();
    await setOutage(flaky, null);
    for (let i = 0; i < 4; i++) {
      const res = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.insufficientFunds }, transaction: { channel_reference: `HEALTH-${reference++}` } }));
      expect(res.body.result.successful).toBe(false);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(await healthOf(flaky)).toBe('healthy');
  });
});
