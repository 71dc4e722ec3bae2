// Account selection keeps a workspace's accounts and routing rules in memory for the
// settingsVersion they were read at (src/domain/accounts.ts); a trigger bumps the version with
// every write to them (migration 0012). These tests change accounts and rules through another
// database client (as the CLI or another gateway process does) after a payment has filled the
// cache, and expect the next payment after the change's announcement has reached the gateway
// (milliseconds; `admission.synced()` waits for it, src/rest/admission-memory.ts) to be routed by
// the new settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/client.ts';
import { addRoutingRule, createPaymentAccount, removeRoutingRule } from '../../src/domain/workspaces.ts';
import { seedWorkspace, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { useResources } from '../helpers/fixture.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';

const resources = useResources();
let t: TestGateway;
let other: Db;

beforeAll(async () => {
  t = await resources.startGateway();
  other = createDb(t.databaseUrl, { max: 2 });
});
afterAll(async () => {
  await other?.$disconnect();
});

/** Pays and answers the account the payment went to. */
async function paidAccount(m: Merchant, over: Parameters<typeof paymentBody>[1] = {}): Promise<string> {
  const res = await m.call('regular-payment', paymentBody(m, over));
  expect(res.status).toBe(200);
  const payment = await other.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } });
  return payment.paymentAccountId!;
}

const version = async (m: Merchant) => (await other.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).settingsVersion;

describe('accounts and routing rules changed by another client', () => {
  it('a rule added elsewhere routes the next payment, its removal routes the one after back to the default', async () => {
    const m = await seedWorkspace(t);
    expect(await paidAccount(m)).toBe(m.accountToken);

    const routed = await createPaymentAccount(other, m.team, { name: 'Visa acquirer' });
    const rule = await addRoutingRule(other, m.team, { paymentAccountId: routed.id, binPrefix: '411111' });
    await t.gateway.admission.synced();
    expect(await paidAccount(m)).toBe(routed.id);

    await removeRoutingRule(other, m.team, rule.id);
    await t.gateway.admission.synced();
    expect(await paidAccount(m)).toBe(m.accountToken);
  });

  it('an account deleted elsewhere is not found by its token on the next payment, and its rules stop routing', async () => {
    const m = await seedWorkspace(t);
    const routed = await createPaymentAccount(other, m.team, { name: 'Soon gone' });
    await addRoutingRule(other, m.team, { paymentAccountId: routed.id, binPrefix: '4' });
    expect(await paidAccount(m)).toBe(routed.id);
    expect(await paidAccount(m, { transaction: { payment_provider_token: routed.id } })).toBe(routed.id);

    await other.paymentAccount.update({ where: { id: routed.id }, data: { deletedAt: new Date() } });
    await t.gateway.admission.synced();

    expectFieldError(await m.call('regular-payment', paymentBody(m, { transaction: { payment_provider_token: routed.id } })), 'transaction.payment_provider_token', 'account_not_found');
    expect(await paidAccount(m)).toBe(m.accountToken);
  });

  it('a capability switched off elsewhere is refused on the next payment', async () => {
    const m = await seedWorkspace(t);
    expect(await paidAccount(m)).toBe(m.accountToken);
    await other.paymentAccount.update({ where: { id: m.accountToken }, data: { nonSecure: false } });
    await t.gateway.admission.synced();
    expectFieldError(await m.call('regular-payment', paymentBody(m)), 'transaction.payment_provider_token', 'account_no_non_secure');
  });
});

describe('the settings version', () => {
  it('moves with every insert, update and delete of an account or a rule of the workspace, and only of that workspace', async () => {
    const m = await seedWorkspace(t);
    const bystander = await seedWorkspace(t);
    const untouched = await version(bystander);
    let last = await version(m);
    const moved = async () => {
      const now = await version(m);
      const did = now > last;
      last = now;
      return did;
    };

    const account = await createPaymentAccount(other, m.team, { name: 'Second' });
    expect(await moved()).toBe(true);
    const rule = await addRoutingRule(other, m.team, { paymentAccountId: account.id, currency: 'USD' });
    expect(await moved()).toBe(true);
    await other.routingRule.update({ where: { id: rule.id }, data: { currency: 'EUR' } });
    expect(await moved()).toBe(true);
    await other.routingRule.delete({ where: { id: rule.id } });
    expect(await moved()).toBe(true);
    await other.paymentAccount.update({ where: { id: account.id }, data: { installmentRatesBp: [0, 300] } });
    expect(await moved()).toBe(true);
    await other.paymentAccount.delete({ where: { id: account.id } });
    expect(await moved()).toBe(true);

    expect(await version(bystander)).toBe(untouched);
  });
});
