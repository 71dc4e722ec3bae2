// secure-payment through Garanti without a browser, in both of GVP's 3D models: the redirect
// address answers the bank form (card fields joined from the sealed address, never stored), the
// emulator's gate leads to its ACS, whose signed callback completes the payment: model '3d' with
// the gateway's XML sale, model '3d_pay' from the charge GVP already made. Callbacks that are not
// GVP's answer for this payment (hash altered, replayed) show an error page, write nothing and
// make no sale.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiCalls, garantiState, seedGarantiMerchant, useGarantiEmulator } from '../helpers/garanti.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { paymentTimeline } from '../../src/domain/payments/timeline.ts';
import { THREE_DS_ABANDON_MS } from '../../src/domain/payments/three-ds.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const garanti = useGarantiEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let reference = 3000;

async function start(model: '3d' | '3d_pay', number: string = GARANTI_CARDS.approved) {
  const m = (merchants[model] ??= await seedGarantiMerchant(t, garanti.emulator, { model }));
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: '321' }, transaction: { channel_reference: `GVP3D-${reference++}`, amount: '100.25', callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  expect(res.body.result).toEqual({ successful: true, message: null, redirect_url: expect.stringContaining(`${t.gateway.baseUrl}/checkout/3ds/`) });
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const callbackOf = (id: string) => `${t.gateway.baseUrl}/checkout/3ds/callback/${id}`;
const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const ordersOf = async (orderId: string) => (await garantiState(garanti.emulator)).orders.filter((o) => o.orderId === orderId);
const sales = (orderId: string) => garantiCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId));
const stringify = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));

async function snapshot(id: string) {
  return { row: stringify(await row(id)), events: await eventsOf(t, id) };
}

describe.each(['3d', '3d_pay'] as const)('secure-payment through Garanti, model %s', (model) => {
  it('bank form -> gate -> ACS Approve -> callback -> transaction_token to the callback_url; one approved sale at GVP', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    // The stored redirect names the gate but holds no card data; the address carries it sealed.
    const stored = stringify((await row(token)).threeDsRedirect);
    expect(stored).toContain(garanti.emulator.gateUrl);
    expect(stored).not.toContain(GARANTI_CARDS.approved);
    expect(redirectUrl).not.toContain(GARANTI_CARDS.approved);

    const form = await bankFormOf(redirectUrl);
    expect(form.action).toBe(garanti.emulator.gateUrl);
    expect(form.fields).toMatchObject({ orderid: orderId, txnamount: '10025', txncurrencycode: '949', secure3dsecuritylevel: model === '3d' ? '3D' : '3D_PAY', successurl: callbackOf(token), errorurl: callbackOf(token), cardnumber: GARANTI_CARDS.approved });
    const answer = await answerGarantiAcs(form, 'approve');
    expect(answer.callbackUrl).toBe(callbackOf(token));
    expect(answer.fields.mdstatus).toBe('1');

    const back = await postCallback(answer.callbackUrl, answer.fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    const [order] = await ordersOf(orderId);
    expect(order!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 10_025 })]);
    expect(sales(orderId)).toHaveLength(model === '3d' ? 1 : 0);
    const p = await row(token);
    expect(p.providerReference).toBe(`${orderId}:${order!.txns[0]!.retrefNum}`);
    expect(stringify(p)).not.toContain(GARANTI_CARDS.approved);
    expect(t.logLines.join('\n')).not.toContain(GARANTI_CARDS.approved);
    // Nor the CVC (321) as a value, nor the expiry fields of the form.
    expect(t.logLines.join('\n')).not.toMatch(/[">:=]321\b/);
    expect(stringify(p)).not.toContain('"321"');
  });

  it('Decline on the ACS: failed 3ds_failed (mdStatus:0), transaction_token still returned, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'decline');
    expect(answer.fields.mdstatus).toBe('0');
    const back = await postCallback(answer.callbackUrl, answer.fields);
    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: token } });
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'mdStatus:0' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(await ordersOf(orderId)).toEqual([]);
    expect(sales(orderId)).toEqual([]);
  });

  it('a card whose ACS answers mdstatus 0 without a challenge: failed 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start(model, GARANTI_CARDS.mdStatus0);
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields.mdstatus).toBe('0');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'mdStatus:0' });
    expect(await ordersOf(orderId)).toEqual([]);
  });

  // GVP goes on with the half-secure mdstatus 2-4 (mewebstudio/pos GarantiPosResponseDataMapper::is3dAuthSuccess):
  // its 3D Pay gate charges the card, its 3D sale takes the attempt.
  it('a card whose ACS answers mdstatus 4 (attempt) without a challenge: successful, one sale at GVP', async () => {
    const { m, token, orderId, redirectUrl } = await start(model, GARANTI_CARDS.mdStatus4);
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields.mdstatus).toBe('4');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    const [order] = await ordersOf(orderId);
    expect(order!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 10_025 })]);
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: `${orderId}:${order!.txns[0]!.retrefNum}` });
  });

  it('insufficient funds after authentication: failed insufficient_funds, GVP\u2019s 51 kept', async () => {
    const { m, token, redirectUrl } = await start(model, GARANTI_CARDS.insufficientFunds);
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51' });
  });
});

// Every mdstatus through the emulator's 3D Pay gate, which charges after 1-4 only: the payment's
// record agrees with the money (src/providers/three-d-pay.ts): successful with one sale, or failed with none.
const CARD_BY_MD_STATUS = ['4000000000990004', '4000000000991002', '4000000000992000', '4000000000993008', '4000000000994006', '4000000000995003', '4000000000996001', '4000000000997009', '4000000000998007', '4000000000999005'];
describe.each(CARD_BY_MD_STATUS.map((card, mdstatus) => [String(mdstatus), card] as const))('3d_pay, the ACS answers mdstatus %s', (mdstatus, card) => {
  it(['1', '2', '3', '4'].includes(mdstatus) ? 'the gate charges: successful, one sale at GVP' : 'not authenticated: 3ds_failed, no sale', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d_pay', card);
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields.mdstatus).toBe(mdstatus);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const sold = (await ordersOf(orderId)).flatMap((o) => o.txns).filter((tx) => tx.type === 'sales' && tx.code === '00');
    if (['1', '2', '3', '4'].includes(mdstatus)) {
      expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
      expect(sold).toEqual([expect.objectContaining({ amount: 10_025 })]);
    } else {
      expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: `mdStatus:${mdstatus}` });
      expect(sold).toEqual([]);
    }
  });
});

describe('callbacks that are not GVP\u2019s answer for the payment (model 3d)', () => {
  it('the hash altered, or a signed field changed: an error page, nothing written, no sale; the real answer still completes it', async () => {
    const { token, orderId, redirectUrl } = await start('3d');
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    const before = await snapshot(token);
    const hash = answer.fields.hash!;
    const altered = `${hash.slice(0, -4)}${hash.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;

    for (const forged of [{ ...answer.fields, hash: altered }, { ...answer.fields, hash: '' }, { ...answer.fields, mdstatus: '1', cavv: 'forged' }, { ...answer.fields, txnamount: '1' }]) {
      const res = await postCallback(answer.callbackUrl, forged);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.html).not.toContain('transaction_token');
    }
    expect(await snapshot(token)).toEqual(before);
    expect(await ordersOf(orderId)).toEqual([]);
    expect(sales(orderId)).toEqual([]);

    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect((await row(token)).status).toBe('successful');
  });

  it('another payment\u2019s signed answer posted to this payment\u2019s address: an error page, neither payment touched, no sale', async () => {
    const mine = await start('3d');
    const other = await start('3d');
    await bankFormOf(mine.redirectUrl);
    const othersAnswer = await answerGarantiAcs(await bankFormOf(other.redirectUrl), 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };

    const crossed = await postCallback(callbackOf(mine.token), othersAnswer.fields);
    expect(crossed.status).toBeGreaterThanOrEqual(400);
    expect(crossed.status).toBeLessThan(500);
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);
    expect([...(await ordersOf(mine.orderId)), ...(await ordersOf(other.orderId))]).toEqual([]);
  });

  it('a replay after completion: 409, the settlement and its one event unchanged, one sale at GVP', async () => {
    const { token, orderId, redirectUrl } = await start('3d');
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const settled = await snapshot(token);
    expect(settled.events).toEqual(['transaction.successful']);

    const replayed = await postCallback(answer.callbackUrl, answer.fields);
    expect(replayed.status).toBe(409);
    expect(replayed.html).not.toContain('transaction_token');
    expect(await snapshot(token)).toEqual(settled);
    expect(sales(orderId)).toHaveLength(1);
    const [order] = await ordersOf(orderId);
    expect(order!.txns).toHaveLength(1);
  });
});

// GVP's own error form, as it posts it: no hash (mewebstudio/pos GarantiPosResponseDataMapperTest 'authFail').
const unsignedErrorForm = (orderId: string) => ({
  mdstatus: '7', mderrormessage: 'Sistem Hatasi', errmsg: 'Sistem Hatasi', clientid: garanti.emulator.terminalId, terminalid: garanti.emulator.terminalId,
  oid: orderId, orderid: orderId, response: 'Error', procreturncode: '99', txncurrencycode: '949', txnamount: '0',
});

describe('an unsigned error form posted to a payment\u2019s callback address (model 3d): it proves nothing, so it changes nothing', () => {
  it('an error page, the payment still waiting and no event; the refusal is on its timeline; the bank\u2019s real answer then completes it', async () => {
    const { token, orderId, redirectUrl } = await start('3d');
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    const before = await snapshot(token);

    const res = await postCallback(callbackOf(token), unsignedErrorForm(orderId));

    expect(res.status).toBe(400);
    expect(await snapshot(token)).toEqual(before);
    expect((await row(token)).status).toBe('started');
    const entries = (await paymentTimeline(t.gateway.services.db, await row(token))).entries;
    expect(entries).toContainEqual(expect.objectContaining({ kind: 'callback_rejected', status: 'unsigned', name: 'garanti', detail: 'callback is not signed' }));

    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect((await row(token)).status).toBe('successful');
  });

  it('left at that, the 3D timer asks the bank\u2019s order inquiry before giving the payment up', async () => {
    const { m, token, orderId, redirectUrl } = await start('3d');
    await bankFormOf(redirectUrl);
    expect((await postCallback(callbackOf(token), unsignedErrorForm(orderId))).status).toBe(400);
    const inquiries = () => garantiCalls(t, 'paymentStatus').filter((c) => JSON.stringify(c).includes(orderId));
    expect(inquiries()).toEqual([]);

    t.clock.advance(THREE_DS_ABANDON_MS + 1000);
    await runJobsDueBy(t);

    expect(inquiries()).toHaveLength(1);
    expect(await retrieve(m, token)).toMatchObject({ successful: false, error_code: 'payment_abandoned_3ds' });
    expect(await ordersOf(orderId)).toEqual([]);
  });
});

describe('callbacks that are not GVP\u2019s answer for the payment (model 3d_pay: the callback is the charge)', () => {
  it('a declined charge rewritten as approved (procreturncode 00, response Approved): an error page, nothing written', async () => {
    const { token, orderId, redirectUrl } = await start('3d_pay', GARANTI_CARDS.insufficientFunds);
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect(answer.fields.procreturncode).toBe('51');
    const before = await snapshot(token);

    const forged = await postCallback(answer.callbackUrl, { ...answer.fields, procreturncode: '00', response: 'Approved' });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    expect(forged.html).not.toContain('transaction_token');
    expect(await snapshot(token)).toEqual(before);

    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51' });
    expect((await ordersOf(orderId))[0]!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '51' })]);
  });

  it('a replay after completion: 409, the settlement unchanged, still one sale at GVP', async () => {
    const { token, orderId, redirectUrl } = await start('3d_pay');
    const answer = await answerGarantiAcs(await bankFormOf(redirectUrl), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const settled = await snapshot(token);
    const replayed = await postCallback(answer.callbackUrl, answer.fields);
    expect(replayed.status).toBe(409);
    expect(await snapshot(token)).toEqual(settled);
    expect((await ordersOf(orderId))[0]!.txns).toHaveLength(1);
  });
});
