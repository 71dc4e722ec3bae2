// Cascade through the iyzico emulator: iyzico answering a system error of its own moves the payment
// to the workspace's other account (a simulator account) with a new idempotency key, and iyzico
// holds no charge for it; an iyzico decline or an iyzico timeout never moves it.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { seedWorkspace } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addIyzicoAccount, emulatorPayments, IYZICO_CARDS, setBehaviour, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t } = useGateway();
const iyzico = useIyzicoEmulator();
let reference = 1;

/**
 * iyzico as the default account; the simulator account seeded first stays live as the other one
 * and answers BIN lookups, so the emulator's behaviour rules meet the charge itself.
 */
async function merchant(timeoutMs?: number) {
  const m = await seedWorkspace(t);
  await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { binSourceAccountId: m.accountToken } });
  const iyzicoAccount = await addIyzicoAccount(t, m.workspaceId, iyzico.emulator, { timeoutMs });
  return { m, iyzicoAccount, simulator: m.accountToken };
}

const pay = async (m: Awaited<ReturnType<typeof merchant>>['m'], card: string) => {
  const res = await m.call('regular-payment', paymentBody(m, { card: { number: card }, transaction: { channel_reference: `IYZ-CASCADE-${reference++}` } }));
  return { res, row: await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } }) };
};

describe('cascade from iyzico', () => {
  it('an iyzico system error: the payment is charged once, on the simulator account, as its second try', async () => {
    const { m, iyzicoAccount, simulator } = await merchant();
    await setBehaviour(iyzico.emulator, { mode: 'fail', count: 1 });
    const { res, row } = await pay(m, IYZICO_CARDS.approved);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(row).toMatchObject({ status: 'successful', paymentAccountId: simulator, attemptNumber: 2, routingReason: 'fallback', routingDetail: expect.objectContaining({ failed: iyzicoAccount }) });
    expect((await emulatorPayments(iyzico.emulator, `${row.id}:charge`)).filter((p) => p.status === 'SUCCESS')).toEqual([]);
    await t.gateway.services.attempts.drain();
    const attempts = await t.gateway.services.db.providerAttempt.findMany({ where: { paymentId: row.id }, orderBy: { startedAt: 'asc' } });
    expect(attempts.map((a) => [a.provider, a.operation, a.outcome, a.idempotencyKey])).toEqual([
      ['iyzico', 'charge', 'error', `${row.id}:charge`],
      ['simulator', 'charge', 'succeeded', `${row.id}:charge:2`],
    ]);
  });

  it('an iyzico decline stays an iyzico decline', async () => {
    const { m, iyzicoAccount } = await merchant();
    const { row } = await pay(m, IYZICO_CARDS.insufficientFunds);
    expect(row).toMatchObject({ status: 'failed', paymentAccountId: iyzicoAccount, attemptNumber: 1, errorCode: 'insufficient_funds' });
  });

  it('an iyzico timeout leaves the payment unresolved at iyzico, for reconciliation', async () => {
    const { m, iyzicoAccount } = await merchant(1_000);
    await setBehaviour(iyzico.emulator, { mode: 'slow', delayMs: 2_500, count: 1 });
    const { row } = await pay(m, IYZICO_CARDS.approved);
    expect(row).toMatchObject({ status: 'unresolved', paymentAccountId: iyzicoAccount, attemptNumber: 1, errorCode: 'provider_timeout' });
  });
});
