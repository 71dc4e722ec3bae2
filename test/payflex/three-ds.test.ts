// secure-payment through VakıfBank's PayFlex without a browser: the gateway asks the emulated MPI
// whether the card is enrolled (the card goes server to server), the redirect address answers the
// ACS form (PaReq, TermUrl, MD: no card), the ACS's result comes back through the browser unsigned
// and the gateway's own seal judges it; the 3-D sale then carries the MPI's CAVV, ECI and
// MpiTransactionId. Callbacks that are not the MPI's answer for this payment (card, amount or
// instalments changed, the seal altered or missing, another payment's, replayed) show an error
// page, write nothing and make no sale; a rewritten Status (which nobody signs) reaches the VPOS,
// which refuses a CAVV its MPI did not issue. A 3-D sale answered too late is settled by the
// search; a page answered only by a refused callback is given up after the search is asked.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { attemptsOf, eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { bankCalls, bankThreeDsReads } from '../helpers/bank.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { RECONCILE_TRIES_MS } from '../../src/domain/payments/reconcile.ts';
import { THREE_DS_ABANDON_MS } from '../../src/domain/payments/three-ds.ts';
import { answerPayflexAcs, PAYFLEX_CARDS, payflexOrder, seedPayflexMerchant, setPayflexBehaviour, usePayflexEmulator } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const payflex = usePayflexEmulator();
let merchant: Merchant | undefined;
let reference = 3000;

async function start(number: string = PAYFLEX_CARDS.approved, installments?: { count: number; amount: string }) {
  const m = (merchant ??= await seedPayflexMerchant(t, payflex.emulator, { installmentRatesBp: [0, 300, 450] }));
  const transaction = { channel_reference: `VF3D-${reference++}`, amount: installments?.amount ?? '100.25', callback_url: `${shop.url}/payment-return`, ...(installments ? { installment_number: installments.count } : {}) };
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '321' }, transaction }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const { row, callbackOf, retrieve, stringify, snapshot, expectRefused } = bankThreeDsReads(t);
const txnsOf = async (orderId: string) => (await payflexOrder(payflex.emulator, orderId))?.txns.map((x) => ({ type: x.type, code: x.code, amount: x.amount })) ?? [];
const sales = (orderId: string) => bankCalls(t, 'payflex', 'complete3D').filter((c) => JSON.stringify(c).includes(orderId));

describe('secure-payment through PayFlex', () => {
  it('enrollment -> ACS form -> ACS Approve -> sealed result -> 3-D sale -> transaction_token to the callback_url', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    expect(stringify(await row(token))).not.toContain(PAYFLEX_CARDS.approved);
    const { form, fields } = await answerPayflexAcs(redirectUrl, 'approve');
    expect(form.action).toMatch(new RegExp(`^${payflex.emulator.url}/_emulator/acs/`));
    expect(Object.keys(form.fields).sort()).toEqual(['MD', 'PaReq', 'TermUrl']);
    expect(fields).toMatchObject({ Status: 'Y', Eci: '05', PurchAmount: '10025', PurchCurrency: '949', Pan: PAYFLEX_CARDS.approved });

    const back = await postCallback(callbackOf(token), fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(await txnsOf(orderId)).toEqual([{ type: 'Sale', code: '0000', amount: 10_025 }]);
    expect(sales(orderId)).toHaveLength(1);
    expect(sales(orderId)[0]!.request).toMatchObject({ MpiTransactionId: fields.VerifyEnrollmentRequestId, ECI: '05', CAVV: '[redacted]', Pan: `****${PAYFLEX_CARDS.approved.slice(-4)}` });
    expect((await row(token)).providerReference).toBe(`${orderId}:${orderId}`);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(PAYFLEX_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(payflex.emulator.password);
    const attempts = await attemptsOf(t, token);
    expect(attempts.map((a) => `${a.operation}:${a.outcome}`)).toEqual(['start3D:redirect', 'complete3D:succeeded']);
    expect(stringify([await row(token), attempts])).not.toContain(PAYFLEX_CARDS.approved);
  });

  it('in 3 instalments at the account\u2019s own rate (4.5 %): the enrollment and the 3-D sale carry them', async () => {
    const { token, orderId, redirectUrl } = await start(PAYFLEX_CARDS.mastercard, { count: 3, amount: '104.76' });
    const { fields } = await answerPayflexAcs(redirectUrl, 'approve');
    expect(fields).toMatchObject({ InstallmentCount: '3', Eci: '02', PurchAmount: '10476' });
    expect((await postCallback(callbackOf(token), fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'successful' });
    expect(sales(orderId)[0]!.request).toMatchObject({ NumberOfInstallments: '3', CurrencyAmount: '104.76' });
    expect(await txnsOf(orderId)).toEqual([{ type: 'Sale', code: '0000', amount: 10_476 }]);
  });

  it('Decline on the ACS: failed 3ds_failed (Status:N), transaction_token still returned, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start();
    const { fields } = await answerPayflexAcs(redirectUrl, 'decline');
    expect(fields.Status).toBe('N');
    const back = await postCallback(callbackOf(token), fields);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'Status:N' });
    expect(await txnsOf(orderId)).toEqual([]);
    expect(sales(orderId)).toEqual([]);
  });

  it('a half-secure attempt (Status A) stops as mewebstudio/pos does (Y only goes on): 3ds_failed, no sale', async () => {
    const { token, orderId, redirectUrl } = await start(PAYFLEX_CARDS.halfSecure);
    const { fields } = await answerPayflexAcs(redirectUrl, 'approve');
    expect(fields.Status).toBe('A');
    expect((await postCallback(callbackOf(token), fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'Status:A' });
    expect(sales(orderId)).toEqual([]);
  });

  it('insufficient funds after authentication: failed insufficient_funds, PayFlex\u2019s 0051 kept', async () => {
    const { m, token, redirectUrl } = await start(PAYFLEX_CARDS.insufficientFunds);
    const { fields } = await answerPayflexAcs(redirectUrl, 'approve');
    expect((await postCallback(callbackOf(token), fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '0051' });
  });
});

describe('callbacks that are not the MPI\u2019s answer for the payment', () => {
  it('card, amount or instalments changed, the seal altered or missing, another enrollment: an error page, nothing written, no sale; the real answer still settles it', async () => {
    const { token, orderId, redirectUrl } = await start();
    const { fields } = await answerPayflexAcs(redirectUrl, 'approve');
    const before = await snapshot(token);
    const seal = fields.SessionInfo!;
    for (const forged of [
      { ...fields, Pan: PAYFLEX_CARDS.mastercard },
      { ...fields, PurchAmount: '100' },
      { ...fields, InstallmentCount: '6' },
      { ...fields, SessionInfo: `${seal.slice(0, -4)}${seal.endsWith('AAAA') ? 'BBBB' : 'AAAA'}` },
      { ...fields, SessionInfo: '' },
      { ...fields, VerifyEnrollmentRequestId: '0'.repeat(32) },
    ]) {
      await expectRefused(callbackOf(token), forged);
    }
    expect(await snapshot(token)).toEqual(before);
    expect(sales(orderId)).toEqual([]);
    const rejections = await t.gateway.services.db.callbackRejection.findMany({ where: { paymentId: token } });
    expect(rejections.map((r) => r.cause).sort()).toEqual(['signature', 'signature', 'signature', 'signature', 'signature', 'unsigned'].sort());
    expect(JSON.stringify(rejections)).not.toContain(PAYFLEX_CARDS.approved);
    for (const pan of [PAYFLEX_CARDS.approved, PAYFLEX_CARDS.mastercard]) expect(t.logLines.join('\n')).not.toContain(pan);
    expect((await postCallback(callbackOf(token), fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'successful' });
  });

  it('a declined authentication rewritten as passed (Status is the MPI\u2019s, unsigned): the VPOS refuses the CAVV, the payment fails 3ds_failed, no money moves', async () => {
    const { token, orderId, redirectUrl } = await start();
    const { fields } = await answerPayflexAcs(redirectUrl, 'decline');
    const back = await postCallback(callbackOf(token), { ...fields, Status: 'Y', Eci: '05', Cavv: 'AAABBBBBBBBBBBBBBBIIIIII=' });
    expect(back.status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: '9030' });
    expect(await txnsOf(orderId)).toEqual([{ type: 'Sale', code: '9030', amount: 10_025 }]);
    expect((await payflexOrder(payflex.emulator, orderId))!.charged).toBe(0);
  });

  it('another payment\u2019s sealed answer posted to this payment\u2019s address: an error page, neither payment touched', async () => {
    const mine = await start();
    const other = await start();
    await answerPayflexAcs(mine.redirectUrl, 'approve').catch(() => undefined);
    const others = await answerPayflexAcs(other.redirectUrl, 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };
    await expectRefused(callbackOf(mine.token), others.fields);
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);
    expect([...(await txnsOf(mine.orderId)), ...(await txnsOf(other.orderId))]).toEqual([]);
    const [rejection] = await t.gateway.services.db.callbackRejection.findMany({ where: { paymentId: mine.token } });
    expect(rejection).toMatchObject({ cause: 'order' });
  });

  it('a replay after completion: 409, the settlement unchanged, one sale at the bank', async () => {
    const { token, orderId, redirectUrl } = await start();
    const { fields } = await answerPayflexAcs(redirectUrl, 'approve');
    expect((await postCallback(callbackOf(token), fields)).status).toBe(200);
    const settled = await snapshot(token);
    const replayed = await postCallback(callbackOf(token), fields);
    expect(replayed.status).toBe(409);
    expect(await snapshot(token)).toEqual(settled);
    expect(await txnsOf(orderId)).toHaveLength(1);
  });
});

describe('3-D answers PayFlex lost', () => {
  it('a 3-D sale answered too late: unresolved, then the reconcile job\u2019s search finds the sale: successful', async () => {
    const m = await seedPayflexMerchant(t, payflex.emulator, { timeoutMs: 1_000 });
    const res = await m.call('secure-payment', paymentBody(m, { card: { number: PAYFLEX_CARDS.approved }, transaction: { channel_reference: `VF3D-${reference++}`, callback_url: `${shop.url}/payment-return` } }));
    const token = res.body.transaction.token as string;
    const { fields } = await answerPayflexAcs(res.body.result.redirect_url as string, 'approve');
    await setPayflexBehaviour(payflex.emulator, { mode: 'slow', count: 1, delayMs: 2_500 });
    expect((await postCallback(callbackOf(token), fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'unresolved', errorCode: 'provider_timeout' });
    await expect.poll(() => txnsOf(orderOf(token)), { timeout: 5_000 }).toEqual([{ type: 'Sale', code: '0000', amount: 10_000 }]);

    t.clock.advance(RECONCILE_TRIES_MS[0]! + 5_000);
    await runJobsDueBy(t);
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: `${orderOf(token)}:${orderOf(token)}` });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
  });

  it('a page answered only by a forged callback: the 3D timer asks the search before giving up; no sale there, payment_abandoned_3ds', async () => {
    const { token, orderId, redirectUrl } = await start();
    const { fields } = await answerPayflexAcs(redirectUrl, 'approve');
    await expectRefused(callbackOf(token), { ...fields, PurchAmount: '1' });
    t.clock.advance(THREE_DS_ABANDON_MS + 1_000);
    await runJobsDueBy(t);
    expect(bankCalls(t, 'payflex', 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(1);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'payment_abandoned_3ds' });
    expect(await txnsOf(orderId)).toEqual([]);
  });
});
