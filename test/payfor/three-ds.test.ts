// secure-payment through QNB Finansbank's PayFor without a browser, in both of its 3D models: the
// redirect address answers the bank form, the emulator's gate leads to its ACS, whose signed
// callback completes the payment: model '3d' (PayFor's 3DModel) with the gateway's 3DModelPayment
// sale, model '3d_pay' (3DPay) from the charge PayFor already made. Callbacks that are not PayFor's
// answer for this payment (outcome rewritten, hash altered or missing, another payment's,
// replayed) show an error page, write nothing and make no sale.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { bankThreeDsReads } from '../helpers/bank.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { answerPayforAcs, bankFormOf, PAYFOR_CARDS, payforCalls, payforOrder, seedPayforMerchant, usePayforEmulator } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const payfor = usePayforEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let reference = 3000;

async function start(model: '3d' | '3d_pay', number: string = PAYFOR_CARDS.approved) {
  const m = (merchants[model] ??= await seedPayforMerchant(t, payfor.emulator, { model }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '321' }, transaction: { channel_reference: `PF3D-${reference++}`, amount: '100.25', callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const { row, callbackOf, retrieve, stringify, snapshot, expectRefused } = bankThreeDsReads(t);
const txnsOf = async (orderId: string) => (await payforOrder(payfor.emulator, orderId))?.txns.map((x) => ({ type: x.type, code: x.code, amount: x.amount })) ?? [];
const sales = (orderId: string) => payforCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId));

describe.each(['3d', '3d_pay'] as const)('secure-payment through PayFor, model %s', (model) => {
  it('bank form -> gate -> ACS Approve -> signed callback -> transaction_token to the callback_url; one approved sale at PayFor', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    expect(stringify((await row(token)).threeDsRedirect)).not.toContain(PAYFOR_CARDS.approved);
    const form = await bankFormOf(redirectUrl);
    expect(form.action).toBe(payfor.emulator.gateUrl);
    expect(form.fields).toMatchObject({ MbrId: '5', OrderId: orderId, PurchAmount: '100.25', Currency: '949', SecureType: model === '3d' ? '3DModel' : '3DPay', OkUrl: callbackOf(token), FailUrl: callbackOf(token), Pan: PAYFOR_CARDS.approved });
    const answer = await answerPayforAcs(form, 'approve');
    expect(answer.callbackUrl).toBe(callbackOf(token));
    expect(answer.fields['3DStatus']).toBe('1');

    const back = await postCallback(answer.callbackUrl, answer.fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(await txnsOf(orderId)).toEqual([{ type: 'Auth', code: '00', amount: 10_025 }]);
    expect(sales(orderId)).toHaveLength(model === '3d' ? 1 : 0);
    expect((await row(token)).providerReference).toBe(orderId);
    const logs = t.logLines.join('\n');
    expect(logs).not.toContain(PAYFOR_CARDS.approved);
    expect(logs).not.toMatch(/[">:=]321\b/);
    expect(logs).not.toContain(payfor.emulator.userPassword);
  });

  it('Decline on the ACS: failed 3ds_failed (3DStatus:-1), transaction_token still returned, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'decline');
    expect(answer.fields['3DStatus']).toBe('-1');
    const back = await postCallback(answer.callbackUrl, answer.fields);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: '3DStatus:-1' });
    expect(await txnsOf(orderId)).toEqual([]);
    expect(sales(orderId)).toEqual([]);
  });

  it('insufficient funds after authentication: failed insufficient_funds, PayFor\u2019s 51 kept', async () => {
    const { m, token, redirectUrl } = await start(model, PAYFOR_CARDS.insufficientFunds);
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51' });
  });
});

describe('a "half secure" card (the ACS answers 3DStatus 4, an attempt)', () => {
  it('model 3d stops as mewebstudio/pos does (only 3DStatus 1 goes on): 3ds_failed, no sale', async () => {
    const { token, orderId, redirectUrl } = await start('3d', PAYFOR_CARDS.halfSecure);
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields['3DStatus']).toBe('4');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: '3DStatus:4' });
    expect(sales(orderId)).toEqual([]);
  });

  it('model 3d_pay: the gate charged, so the payment is successful (the money is the truth)', async () => {
    const { token, orderId, redirectUrl } = await start('3d_pay', PAYFOR_CARDS.halfSecure);
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields).toMatchObject({ '3DStatus': '4', ProcReturnCode: '00' });
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'successful' });
    expect(await txnsOf(orderId)).toEqual([{ type: 'Auth', code: '00', amount: 10_025 }]);
  });
});

describe('callbacks that are not PayFor\u2019s answer for the payment', () => {
  it('model 3d: a failed authentication rewritten as passed, the hash altered or missing: an error page, nothing written, no sale; the real answer still settles it', async () => {
    const { token, orderId, redirectUrl } = await start('3d');
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'decline');
    const before = await snapshot(token);
    const hash = answer.fields.ResponseHash!;
    for (const forged of [
      { ...answer.fields, '3DStatus': '1', ProcReturnCode: 'V033' },
      { ...answer.fields, ResponseHash: `${hash.slice(0, -5)}${hash.slice(-5, -1) === 'AAAA' ? 'BBBB' : 'AAAA'}=` },
      { ...answer.fields, ResponseHash: '' },
      { ...answer.fields, PurchAmount: '1.00' },
    ]) {
      await expectRefused(answer.callbackUrl, forged);
    }
    expect(await snapshot(token)).toEqual(before);
    expect(sales(orderId)).toEqual([]);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed' });
  });

  it('model 3d_pay: a declined charge rewritten as approved: an error page, nothing written', async () => {
    const { token, redirectUrl } = await start('3d_pay', PAYFOR_CARDS.insufficientFunds);
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields.ProcReturnCode).toBe('51');
    const before = await snapshot(token);
    await expectRefused(answer.callbackUrl, { ...answer.fields, ProcReturnCode: '00', ErrMsg: 'Onaylandı', TxnResult: 'Success' });
    expect(await snapshot(token)).toEqual(before);
  });

  it('another payment\u2019s signed answer posted to this payment\u2019s address: an error page, neither payment touched', async () => {
    const mine = await start('3d');
    const other = await start('3d');
    await bankFormOf(mine.redirectUrl);
    const othersAnswer = await answerPayforAcs(await bankFormOf(other.redirectUrl), 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };
    await expectRefused(callbackOf(mine.token), othersAnswer.fields);
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);
    expect([...(await txnsOf(mine.orderId)), ...(await txnsOf(other.orderId))]).toEqual([]);
  });

  it.each(['3d', '3d_pay'] as const)('model %s, a replay after completion: 409, the settlement unchanged, one sale at PayFor', async (model) => {
    const { token, orderId, redirectUrl } = await start(model);
    const answer = await answerPayforAcs(await bankFormOf(redirectUrl), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const settled = await snapshot(token);
    const replayed = await postCallback(answer.callbackUrl, answer.fields);
    expect(replayed.status).toBe(409);
    expect(await snapshot(token)).toEqual(settled);
    expect(await txnsOf(orderId)).toHaveLength(1);
  });
});
