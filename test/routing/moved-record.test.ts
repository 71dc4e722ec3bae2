// A payment that health or a cascade moves records the account that charges it: that account's own
// rule and cost, beside the account it left. Two ruled, priced accounts: the flaky one is cheaper
// (1.00 % against 2.00 %), so routing prefers it, and the spare takes what it cannot.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { seedWorkspace } from '../helpers/gateway.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { eventually } from '../helpers/webhooks.ts';
import { addRoutingRule, createPaymentAccount } from '../../src/domain/workspaces.ts';
import { setAccountCosts } from '../../src/domain/routing/cost-settings.ts';

const { t } = useGateway();
const db = () => t.gateway.services.db;
let reference = 1;

async function workspace() {
  const m = await seedWorkspace(t);
  const ws = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  const flaky = (await createPaymentAccount(db(), ws.slug, { name: 'Flaky', settings: { outage: 'errors' } })).id;
  const spare = (await createPaymentAccount(db(), ws.slug, { name: 'Spare' })).id;
  const flakyRule = (await addRoutingRule(db(), ws.slug, { paymentAccountId: flaky })).id;
  const spareRule = (await addRoutingRule(db(), ws.slug, { paymentAccountId: spare })).id;
  await setAccountCosts(t.gateway.services, ws, flaky, { rates: { '1': '1' } });
  await setAccountCosts(t.gateway.services, ws, spare, { rates: { '1': '2' } });
  await db().workspace.update({ where: { id: m.workspaceId }, data: { healthMinFailures: 1, healthFailurePercent: 1, healthCooldownSeconds: 30 } });
  await t.gateway.admission.synced();
  return { m, flaky, spare, flakyRule, spareRule };
}

async function pay(m: Awaited<ReturnType<typeof workspace>>['m']) {
  const res = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.approved }, transaction: { channel_reference: `MOVED-${reference++}` } }));
  expect(res.body.result).toEqual({ successful: true, message: null });
  return db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
}

describe('a moved payment records the account that charges it', () => {
  it('after a cascade: the spare\u2019s rule and cost, and the account that failed', async () => {
    const { m, flaky, spare, spareRule } = await workspace();
    expect(await pay(m)).toMatchObject({
      paymentAccountId: spare,
      attemptNumber: 2,
      routingReason: 'fallback',
      routingDetail: { ruleId: spareRule, cost: 200, failed: flaky },
    });
  });

  it('passed over by health: the spare\u2019s rule and cost, and the degraded account', async () => {
    const { m, flaky, spare, spareRule } = await workspace();
    await pay(m);
    await eventually(async () => (await db().paymentAccount.findUniqueOrThrow({ where: { id: flaky } })).health === 'degraded', 'flaky degraded');
    await t.gateway.admission.synced();
    expect(await pay(m)).toMatchObject({
      paymentAccountId: spare,
      attemptNumber: 1,
      routingReason: 'health',
      routingDetail: { ruleId: spareRule, cost: 200, passedOver: flaky },
    });
  });
});
