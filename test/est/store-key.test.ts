// An EST account whose store key was mistyped: every answer of the bank's 3D gate fails
// verification. The gateway still refuses each one (the shopper sees the 400 "not verified" page),
// but says why: the payment's timeline (GraphQL), a log line, /metrics, and the account's flag
// ("check the store key"). A key mistyped from the start makes the gate refuse the form itself
// (its signed error answer is refused in turn); one mistyped while shoppers were at a 3D Pay gate
// leaves charges the gateway could not read, so the 3D timer asks the bank before giving those
// payments up, and each payment's record agrees with the money.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { eventsOf } from '../helpers/rows.ts';
import { gql } from '../helpers/webhooks.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerEstAcs, EST_CARDS, estCalls, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';
import { encryptSecret } from '../../src/domain/secrets.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { THREE_DS_ABANDON_MS } from '../../src/domain/payments/three-ds.ts';

const { t } = useGateway();
const est = useEstEmulator();
let reference = 7000;

const TIMELINE = `query ($token: String!) { payment(token: $token) { timeline { entries { kind status name detail } } } }`;
const ACCOUNTS = `query { workspace { paymentAccounts { token callbackVerification { recentRejections lastCause lastReason storeKeySuspect } } } }`;

async function merchant(model: '3d' | '3d_pay'): Promise<{ m: Merchant; access: string }> {
  const m = await seedEstMerchant(t, est.emulator, { model });
  return { m, access: await createAccessToken(t.gateway.services.db, m.team, 'store key test') };
}

/** The account's store key with its last character wrong, as a merchant may type it in. */
async function mistypeStoreKey(m: Merchant): Promise<void> {
  const wrong = { client_id: est.emulator.clientId, store_key: `${est.emulator.storeKey.slice(0, -1)}X`, api_user: est.emulator.apiUser, api_password: est.emulator.apiPassword };
  await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(wrong)) } });
}

async function start(m: Merchant) {
  const res = await m.call('secure-payment', paymentBody(m, { card: { number: EST_CARDS.approved, security_code: '987' }, transaction: { channel_reference: `KEY-${reference++}`, amount: '100.00' } }));
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string };
}

/** The shopper's browser at a gate that refuses the form: it posts the gate's signed error answer back. */
async function refusedAtGate(redirectUrl: string) {
  const bank = autoPostForm(await (await fetch(redirectUrl)).text())!;
  const atGate = await fetch(bank.action, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(bank.fields).toString() });
  const back = autoPostForm(await atGate.text())!;
  expect(back.fields).toMatchObject({ Response: 'Error', ErrorCode: 'HPP-1006' });
  return (await postCallback(back.action, back.fields)).status;
}

const metricValue = async (provider: string, cause: string) => {
  const text = await (await fetch(`${t.gateway.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`gateway_callback_rejections_total{provider="${provider}",cause="${cause}"}`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
};

describe('a mistyped store key', () => {
  it('3d_pay, mistyped while shoppers were at the gate: each answer is refused but explained (timeline, log, /metrics, the account flagged); the timer finds each charge', async () => {
    const { m, access } = await merchant('3d_pay');
    const before = await metricValue('est', 'signature');
    const started = [await start(m), await start(m), await start(m)];
    const answers = [];
    for (const p of started) answers.push(await answerEstAcs(p.redirectUrl));
    await mistypeStoreKey(m);

    const payments = [];
    for (const [i, answer] of answers.entries()) payments.push({ token: started[i]!.token, status: (await postCallback(answer.callbackUrl, answer.fields)).status });
    expect(payments.map((p) => p.status)).toEqual([400, 400, 400]);
    const { token } = payments[0]!;
    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).status).toBe('started');

    // The payment's timeline says which callback was refused and why.
    const timeline = await gql(t, access, TIMELINE, { token });
    expect(timeline.body.data.payment.timeline.entries).toContainEqual({ kind: 'callback_rejected', status: 'signature', name: 'est', detail: 'The callback signature does not match the store key' });
    // So does the log, with the payment and the account, and no card number in it.
    const logged = t.logLines.filter((l) => l.includes('3-D Secure callback rejected') && l.includes(token));
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ paymentId: token, accountId: m.accountToken, provider: 'est', cause: 'signature', reason: 'The callback signature does not match the store key' });
    expect(t.logLines.join('\n')).not.toContain(EST_CARDS.approved);
    // And /metrics counts them by provider and cause.
    expect(await metricValue('est', 'signature')).toBe(before + 3);
    // The account is flagged: its callbacks keep failing their signature, none verified since.
    const accounts = await gql(t, access, ACCOUNTS);
    expect(accounts.body.data.workspace.paymentAccounts.find((a: { token: string }) => a.token === m.accountToken).callbackVerification).toEqual({
      recentRejections: 3,
      lastCause: 'signature',
      lastReason: 'The callback signature does not match the store key',
      storeKeySuspect: true,
    });

    // The gate charged each one; the 3D timer asks the bank before giving up, and records the sale.
    expect(estOrderOf(est.emulator, token)!.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 10_000 })]);
    t.clock.advance(THREE_DS_ABANDON_MS + 1000);
    await runJobsDueBy(t);
    for (const p of payments) {
      expect((await m.call('retrieve-payment', { transaction: { token: p.token } })).body.result).toEqual({ successful: true, message: null });
      expect(await eventsOf(t, p.token)).toEqual(['transaction.successful']);
    }
    expect(estCalls(t, 'paymentStatus').length).toBeGreaterThanOrEqual(3);
  });

  it('3d, mistyped from the start: the gate refuses the form and its error answer is refused, explained the same way; the bank has no sale, so the timer gives the payment up', async () => {
    const { m, access } = await merchant('3d');
    await mistypeStoreKey(m);
    const { token, redirectUrl } = await start(m);
    expect(await refusedAtGate(redirectUrl)).toBe(400);
    const timeline = await gql(t, access, TIMELINE, { token });
    expect(timeline.body.data.payment.timeline.entries.map((e: { kind: string }) => e.kind)).toContain('callback_rejected');
    // One mismatch is not yet a pattern: counted, not flagged.
    const accounts = await gql(t, access, ACCOUNTS);
    expect(accounts.body.data.workspace.paymentAccounts.find((a: { token: string }) => a.token === m.accountToken).callbackVerification).toMatchObject({ recentRejections: 1, storeKeySuspect: false });

    t.clock.advance(THREE_DS_ABANDON_MS + 1000);
    await runJobsDueBy(t);
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toMatchObject({ successful: false, error_code: 'payment_abandoned_3ds' });
    expect(estOrderOf(est.emulator, token)?.transactions.filter((tx) => tx.status === 'A') ?? []).toEqual([]);
  });
});
