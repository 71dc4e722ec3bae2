// secure-payment through Akbank's virtual POS without a browser, in its three 3-D models: the
// redirect address answers the bank form, the emulator's gate leads to its ACS (in the 3D Host
// model after the bank's own card page), whose signed callback completes the payment: model '3d'
// with the gateway's sale carrying the authentication's secure data, models '3d_pay' and
// '3d_host' from the charge Akbank already made. Callbacks that are not Akbank's answer for this
// payment (outcome rewritten, hash altered or missing, another payment's, replayed) show an
// error page, write nothing and make no sale.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { bankThreeDsReads } from '../helpers/bank.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { AKBANK_CARDS, akbankCalls, answerAkbankAcs, bankFormOf, seedAkbankMerchant, txnsAt, useAkbankEmulator, type AkbankModel } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const akbank = useAkbankEmulator();
const merchants: Partial<Record<AkbankModel, Merchant>> = {};
let reference = 3000;

async function start(model: AkbankModel, number: string = AKBANK_CARDS.approved) {
  const m = (merchants[model] ??= await seedAkbankMerchant(t, akbank.emulator, { model }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '321' }, transaction: { channel_reference: `AK3D-${reference++}`, amount: '100.25', callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

/** The bank form, walked: in the 3D Host model the card is typed on the bank's page. */
const walkForm = (model: AkbankModel, form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline', number: string = AKBANK_CARDS.approved) =>
  answerAkbankAcs(form, decision, model === '3d_host' ? { creditCard: number, expiredDate: '1230', cvv: '321' } : undefined);
const walk = async (model: AkbankModel, redirectUrl: string, decision: 'approve' | 'decline', number?: string) => walkForm(model, await bankFormOf(redirectUrl), decision, number);

const { row, callbackOf, retrieve, stringify, snapshot, expectRefused } = bankThreeDsReads(t);
const txns = (orderId: string) => txnsAt(akbank.emulator, orderId);
const sales = (orderId: string) => akbankCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId));

const MODEL_NAMES = { '3d': '3D', '3d_pay': '3D_PAY', '3d_host': '3D_PAY_HOSTING' } as const;

describe.each(['3d', '3d_pay', '3d_host'] as const)('secure-payment through Akbank, model %s', (model) => {
  it('bank form -> gate -> ACS Approve -> signed callback -> transaction_token to the callback_url; one approved sale at Akbank', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    expect(stringify((await row(token)).threeDsRedirect)).not.toContain(AKBANK_CARDS.approved);
    const form = await bankFormOf(redirectUrl);
    expect(form.action).toBe(model === '3d_host' ? akbank.emulator.hostGateUrl : akbank.emulator.gateUrl);
    expect(form.fields).toMatchObject({ paymentModel: MODEL_NAMES[model], txnCode: '3000', orderId, amount: '100.25', currencyCode: '949', okUrl: callbackOf(token), failUrl: callbackOf(token) });
    expect(form.fields.creditCard).toBe(model === '3d_host' ? undefined : AKBANK_CARDS.approved);
    const answer = await walkForm(model, form, 'approve');
    expect(answer.callbackUrl).toBe(callbackOf(token));
    expect(answer.fields.responseCode).toBe('VPS-0000');

    const back = await postCallback(answer.callbackUrl, answer.fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(await txns(orderId)).toEqual(['1000:VPS-0000:10025']);
    expect(sales(orderId)).toHaveLength(model === '3d' ? 1 : 0);
    expect((await row(token)).providerReference).toBe(orderId);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(AKBANK_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(akbank.emulator.secretKey);
  });

  it('Decline on the ACS: failed 3ds_failed (VPS-1279), transaction_token still returned, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const answer = await walk(model, redirectUrl, 'decline');
    expect(answer.fields.responseCode).toBe('VPS-1279');
    const back = await postCallback(answer.callbackUrl, answer.fields);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'VPS-1279' });
    expect(await txns(orderId)).toEqual([]);
    expect(sales(orderId)).toEqual([]);
  });

  it('insufficient funds after authentication: failed insufficient_funds, Akbank\u2019s VPS-1005:51 kept', async () => {
    const { m, token, redirectUrl } = await start(model, AKBANK_CARDS.insufficientFunds);
    const answer = await walk(model, redirectUrl, 'approve', AKBANK_CARDS.insufficientFunds);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: 'VPS-1005:51' });
  });
});

describe('the "half secure" card', () => {
  it('the ACS answers an attempt (ECI 06): Akbank answers VPS-0000 and goes on, as mewebstudio/pos does; the sale is made', async () => {
    const { token, orderId, redirectUrl } = await start('3d', AKBANK_CARDS.halfSecure);
    const answer = await walk('3d', redirectUrl, 'approve', AKBANK_CARDS.halfSecure);
    expect(answer.fields).toMatchObject({ responseCode: 'VPS-0000', secureEcomInd: '06' });
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'successful' });
    expect(await txns(orderId)).toEqual(['1000:VPS-0000:10025']);
  });
});

describe('callbacks that are not Akbank\u2019s answer for the payment', () => {
  it('model 3d: a failed authentication rewritten as passed, the hash altered or missing, fewer fields signed: an error page, nothing written, no sale; the real answer still settles it', async () => {
    const { token, orderId, redirectUrl } = await start('3d');
    const answer = await walk('3d', redirectUrl, 'decline');
    const before = await snapshot(token);
    const hash = answer.fields.hash!;
    for (const forged of [
      { ...answer.fields, responseCode: 'VPS-0000', responseMessage: 'BAŞARILI' },
      { ...answer.fields, hash: `${hash.slice(0, -6)}${hash.slice(-6, -2) === 'AAAA' ? 'BBBB' : 'AAAA'}==` },
      { ...answer.fields, hash: '' },
      { ...answer.fields, hashParams: 'responseMessage' },
    ]) {
      await expectRefused(answer.callbackUrl, forged);
    }
    expect(await snapshot(token)).toEqual(before);
    expect(sales(orderId)).toEqual([]);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
  });

  it('model 3d_pay: a declined charge rewritten as approved: an error page, nothing written', async () => {
    const { token, redirectUrl } = await start('3d_pay', AKBANK_CARDS.insufficientFunds);
    const answer = await walk('3d_pay', redirectUrl, 'approve', AKBANK_CARDS.insufficientFunds);
    expect(answer.fields).toMatchObject({ responseCode: 'VPS-1005', hostResponseCode: '51' });
    const before = await snapshot(token);
    await expectRefused(answer.callbackUrl, { ...answer.fields, responseCode: 'VPS-0000', hostResponseCode: '00' });
    expect(await snapshot(token)).toEqual(before);
  });

  it('another payment\u2019s signed answer posted to this payment\u2019s address: an error page, neither payment touched', async () => {
    const mine = await start('3d');
    const other = await start('3d');
    await bankFormOf(mine.redirectUrl);
    const othersAnswer = await walk('3d', other.redirectUrl, 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };
    await expectRefused(callbackOf(mine.token), othersAnswer.fields);
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);
    expect([...(await txns(mine.orderId)), ...(await txns(other.orderId))]).toEqual([]);
  });

  it.each(['3d', '3d_pay'] as const)('model %s, a replay after completion: 409, the settlement unchanged, one sale at Akbank', async (model) => {
    const { token, orderId, redirectUrl } = await start(model);
    const answer = await walk(model, redirectUrl, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const settled = await snapshot(token);
    const replayed = await postCallback(answer.callbackUrl, answer.fields);
    expect(replayed.status).toBe(409);
    expect(await snapshot(token)).toEqual(settled);
    expect(await txns(orderId)).toHaveLength(1);
  });
});
