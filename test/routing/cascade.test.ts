// Cascade after a technical failure: the payment moves to the next eligible account with a new
// idempotency key and settles once; never after a decline, a timeout, a 3-D Secure redirect, for
// a named account, or beyond the workspace's bound. The failing account is a simulator account
// playing an outage (setting `outage`), the next one a plain simulator account.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { seedWorkspace, type Merchant } from '../helpers/gateway.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { createPaymentAccount } from '../../src/domain/workspaces.ts';
import type { Outage } from '../../src/providers/simulator-outage.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
let reference = 1;

/** A workspace whose default account is down (`outage`), then `spares` working simulator accounts, newest last. */
async function workspace(outage: Outage, spares = 1, over: { cascadeExtraAttempts?: number; downSpares?: number } = {}) {
  const m = await seedWorkspace(t);
  const db = t.gateway.services.db;
  await db.paymentAccount.update({ where: { id: m.accountToken }, data: { settings: { outage } } });
  const slug = (await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).slug;
  const others: string[] = [];
  for (let i = 0; i < spares; i++) {
    const down = i < (over.downSpares ?? 0);
    others.push((await createPaymentAccount(db, slug, { name: `Spare ${i + 1}`, settings: down ? { outage: 'errors' } : {} })).id);
  }
  if (over.cascadeExtraAttempts !== undefined) await db.workspace.update({ where: { id: m.workspaceId }, data: { cascadeExtraAttempts: over.cascadeExtraAttempts } });
  await t.gateway.admission.synced();
  return { m, down: m.accountToken, others };
}

async function pay(m: Merchant, kind: 'regular-payment' | 'secure-payment', card: string, transaction: Record<string, unknown> = {}) {
  const res = await m.call(kind, paymentBody(m, { card: { number: card }, transaction: { channel_reference: `CASCADE-${reference++}`, callback_url: `${shop.url}/back`, ...transaction } }));
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
  return { res, row };
}

/** What the simulator account says of a payment call made with this key (its books). */
async function atAccount(accountId: string, idempotencyKey: string) {
  const account = await t.gateway.services.db.paymentAccount.findUniqueOrThrow({ where: { id: accountId } });
  return (await t.gateway.services.providers.forAccount(account).paymentStatus({ idempotencyKey, providerReference: null, amount: 10_000n, currency: 'TRY' })).status;
}

describe('a technical failure moves the payment to the next account', () => {
  it.each<Outage>(['errors', 'unreachable'])('outage %s: charged once, on the second account, with the second try\u2019s key', async (outage) => {
    const { m, down, others } = await workspace(outage);
    const { res, row } = await pay(m, 'regular-payment', CARDS.approved);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(row).toMatchObject({ status: 'successful', paymentAccountId: others[0], attemptNumber: 2, errorCode: null, routingReason: 'fallback', routingDetail: expect.objectContaining({ failed: down }) });
    expect(await atAccount(others[0]!, `${row.id}:charge:2`)).toBe('succeeded');
    expect(await atAccount(others[0]!, `${row.id}:charge`)).toBe('unknown');
    expect(await atAccount(down, `${row.id}:charge`)).toBe('unknown');
    expect(await eventsOf(t, row.id)).toEqual(['transaction.successful']);
  });

  it('a 3-D Secure start that fails moves before the shopper is redirected; the page then completes on the new account', async () => {
    const { m, others } = await workspace('errors');
    const { res, row } = await pay(m, 'secure-payment', CARDS.approved);
    expect(res.status).toBe(200);
    expect(row).toMatchObject({ status: 'started', paymentAccountId: others[0], attemptNumber: 2 });
    const done = await completeThreeDs(res.body.result.redirect_url as string, 'approve');
    expect(done.returnStatus).toBe(200);
    expect(await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: 'successful', paymentAccountId: others[0] });
  });

  it('tries at most the workspace\u2019s bound: two spares down, bound 1 -> failed after the second account, the third never asked', async () => {
    const { m, others } = await workspace('errors', 2, { cascadeExtraAttempts: 1, downSpares: 1 });
    const { res, row } = await pay(m, 'regular-payment', CARDS.approved);
    expect(res.body.result.successful).toBe(false);
    expect(row).toMatchObject({ status: 'failed', paymentAccountId: others[0], attemptNumber: 2, errorCode: 'provider_error' });
    expect(await atAccount(others[1]!, `${row.id}:charge:3`)).toBe('unknown');
  });

  it('bound 0 switches the cascade off', async () => {
    const { m, down } = await workspace('errors', 1, { cascadeExtraAttempts: 0 });
    const { row } = await pay(m, 'regular-payment', CARDS.approved);
    expect(row).toMatchObject({ status: 'failed', paymentAccountId: down, attemptNumber: 1, errorCode: 'provider_error', routingReason: 'default' });
  });
});

describe('no cascade', () => {
  it('after a decline: the card was refused', async () => {
    const { m, others } = await workspace('errors');
    await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { defaultPaymentAccountId: others[0] } });
    await t.gateway.admission.synced();
    const { row } = await pay(m, 'regular-payment', CARDS.insufficientFunds);
    expect(row).toMatchObject({ status: 'failed', paymentAccountId: others[0], attemptNumber: 1, errorCode: 'insufficient_funds' });
  });

  it('after a timeout: the outcome is unknown, the payment stays unresolved on its account', async () => {
    const { m, others } = await workspace('errors');
    await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { defaultPaymentAccountId: others[0] } });
    await t.gateway.admission.synced();
    const { row } = await pay(m, 'regular-payment', CARDS.timeout);
    expect(row).toMatchObject({ status: 'unresolved', paymentAccountId: others[0], attemptNumber: 1 });
  });

  it('when the last account cannot be reached either: failed at once, since no connection ever opened', async () => {
    const { m, down, others } = await workspace('unreachable', 1);
    await t.gateway.services.db.paymentAccount.update({ where: { id: others[0] }, data: { settings: { outage: 'unreachable' } } });
    await t.gateway.admission.synced();
    const { res, row } = await pay(m, 'regular-payment', CARDS.approved);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, error_code: 'provider_unreachable', message: 'Bankaya ulaşılamadı; ödeme alınmadı.' });
    // Not unresolved: nothing is left for reconciliation to ask, at either account.
    expect(row).toMatchObject({ status: 'failed', errorCode: 'provider_unreachable', paymentAccountId: others[0], attemptNumber: 2 });
    expect(await eventsOf(t, row.id)).toEqual(['transaction.failed']);
    expect(row.paymentAccountId).not.toBe(down);
  });

  it('for an account the merchant named', async () => {
    const { m, down } = await workspace('errors');
    const { row } = await pay(m, 'regular-payment', CARDS.approved, { payment_provider_token: down });
    expect(row).toMatchObject({ status: 'failed', paymentAccountId: down, attemptNumber: 1, errorCode: 'provider_error' });
  });

  it('after the 3-D Secure redirect: a completion the bank fails stays on its account', async () => {
    const { m, others } = await workspace('errors');
    const { res, row } = await pay(m, 'secure-payment', CARDS.providerError);
    expect(row).toMatchObject({ status: 'started', paymentAccountId: others[0], attemptNumber: 2 });
    await completeThreeDs(res.body.result.redirect_url as string, 'approve');
    expect(await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: 'failed', paymentAccountId: others[0], attemptNumber: 2 });
  });
});
