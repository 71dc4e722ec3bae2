// The gateway paying through InterPOS end to end, without a browser: secure-payment in each 3D
// model (bank form -> InterPOS's gate or 3D Host page -> ACS -> signed callback -> the gateway),
// callbacks that are not InterPOS's answer for the payment (altered, forged, another payment's,
// replayed) refused with nothing written and nothing charged, regular-payment with refunds
// (partial, then the rest) and a cancel, and no card number, CVV2 or API password in any log line.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { msg } from '../helpers/messages.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';
import { INTERPOS_CARDS } from './fixtures.ts';
import { answerInterPos, bankFormOf, interPosCalls, seedInterPosMerchant, useInterPosEmulator } from './gateway-support.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const interpos = useInterPosEmulator();
const merchants: Partial<Record<InterPosModel, Merchant>> = {};
let reference = 7000;
const CVV = '592';

const merchantFor = async (model: InterPosModel) => (merchants[model] ??= await seedInterPosMerchant(t, interpos.emulator, model));

async function start(model: InterPosModel, number: string = INTERPOS_CARDS.approved) {
  const m = await merchantFor(model);
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: CVV }, transaction: { channel_reference: `IPOS-${reference++}`, amount: '100.25', callback_url: `${shop.url}/payment-return` } }));
  expect(res.status, res.text).toBe(200);
  const token = res.body.transaction.token as string;
  return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const callbackOf = (id: string) => `${t.gateway.baseUrl}/checkout/3ds/callback/${id}`;
const retrieve = async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;
const stringify = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
const snapshot = async (id: string) => ({ row: stringify(await row(id)), events: await eventsOf(t, id) });
const typedCard = { Pan: INTERPOS_CARDS.approved, Expiry: '1230', Cvv2: CVV };

describe.each(['3d', '3d_pay', '3d_host'] as const)('secure-payment through InterPOS, model %s', (model) => {
  it('bank form -> InterPOS -> ACS Approve -> signed callback -> successful; one approved sale at the bank', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const stored = stringify((await row(token)).threeDsRedirect);
    expect(stored).not.toContain(INTERPOS_CARDS.approved);
    const form = await bankFormOf(redirectUrl);
    expect(form.action).toBe(model === '3d_host' ? interpos.emulator.hostUrl : interpos.emulator.gateUrl);
    expect(form.fields).toMatchObject({ OrderId: orderId, PurchAmount: '100.25', Currency: '949', OkUrl: callbackOf(token), FailUrl: callbackOf(token), SecureType: { '3d': '3DModel', '3d_pay': '3DPay', '3d_host': '3DHost' }[model] });
    // In 3D Host the card is typed on InterPOS's page: the bank form carries none.
    if (model === '3d_host') expect(form.fields.Pan).toBeUndefined();
    else expect(form.fields.Pan).toBe(INTERPOS_CARDS.approved);

    const answer = await answerInterPos(form, 'approve', typedCard);
    expect(answer.callbackUrl).toBe(callbackOf(token));
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: true, message: null });
    expect(interpos.emulator.state.orders.get(orderId)?.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 10025 })]);
    expect(interPosCalls(t, 'complete3D').filter((c) => JSON.stringify(c).includes(orderId))).toHaveLength(model === '3d' ? 1 : 0);
  });

  it('Decline on the ACS: failed 3ds_failed, nothing charged', async () => {
    const { m, token, orderId, redirectUrl } = await start(model);
    const answer = await answerInterPos(await bankFormOf(redirectUrl), 'decline', typedCard);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await retrieve(m, token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(interpos.emulator.state.orders.get(orderId)).toBeUndefined();
  });
});

describe('callbacks that are not InterPOS\u2019s answer for the payment', () => {
  it('altered, unsigned, forged as approved or for another amount: an error page, nothing written, no sale; the real answer still completes it', async () => {
    const { token, orderId, redirectUrl } = await start('3d');
    const answer = await answerInterPos(await bankFormOf(redirectUrl), 'approve');
    const before = await snapshot(token);
    const hash = answer.fields.HASH!;
    for (const forged of [{ ...answer.fields, HASH: `${hash.slice(0, -4)}AAAA` }, { ...answer.fields, HASH: '' }, { ...answer.fields, PurchAmount: '1,00' }, { ...answer.fields, mdStatus: '0', '3DStatus': '0' }]) {
      const res = await postCallback(answer.callbackUrl, forged);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.html).not.toContain('transaction_token');
    }
    expect(await snapshot(token)).toEqual(before);
    expect(interpos.emulator.state.orders.get(orderId)).toBeUndefined();
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect((await row(token)).status).toBe('successful');
  });

  it('a declined 3D Pay charge rewritten as approved: an error page, nothing written', async () => {
    const { token, redirectUrl } = await start('3d_pay', INTERPOS_CARDS.insufficientFunds);
    const answer = await answerInterPos(await bankFormOf(redirectUrl), 'approve');
    const before = await snapshot(token);
    const forged = await postCallback(answer.callbackUrl, { ...answer.fields, ProcReturnCode: '00', TxnResult: 'Success' });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.status).toBeLessThan(500);
    expect(await snapshot(token)).toEqual(before);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const failed = await row(token);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '51' });
  });

  it('another payment\u2019s signed answer: neither payment touched; a replay after completion: 409, one sale', async () => {
    const mine = await start('3d');
    const other = await start('3d');
    const othersAnswer = await answerInterPos(await bankFormOf(other.redirectUrl), 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };
    const crossed = await postCallback(callbackOf(mine.token), othersAnswer.fields);
    expect(crossed.status).toBeGreaterThanOrEqual(400);
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);

    expect((await postCallback(othersAnswer.callbackUrl, othersAnswer.fields)).status).toBe(200);
    const settled = await snapshot(other.token);
    expect((await postCallback(othersAnswer.callbackUrl, othersAnswer.fields)).status).toBe(409);
    expect(await snapshot(other.token)).toEqual(settled);
    expect(interpos.emulator.state.orders.get(other.orderId)?.txns).toHaveLength(1);
  });
});

describe('regular-payment, refunds and cancels through InterPOS', () => {
  const tick = () => t.clock.advance(1000);
  async function pay(m: Merchant, amount = '100.00') {
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: INTERPOS_CARDS.approved, security_code: CVV }, transaction: { channel_reference: `IPOSR-${reference++}`, amount } }));
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    return res.body.transaction.token as string;
  }

  it('a partial refund, then the rest: two InterPOS refunds on the order; refunded', async () => {
    const m = await merchantFor('3d');
    const token = await pay(m);
    tick();
    expect((await m.call('refund-payment', { transaction: { token }, amount: '30.00' })).body.result).toEqual({ successful: true, message: null });
    tick();
    expect((await m.call('refund-payment', { transaction: { token } })).body.refund).toEqual({ type: 'refund', amount: '70.00' });
    expect((await row(token)).paymentStatus).toBe('refunded');
    expect(interpos.emulator.state.orders.get(orderOf(token))?.txns.map((x) => [x.type, x.code, x.amount])).toEqual([
      ['Auth', '00', 10000],
      ['Refund', '00', 3000],
      ['Refund', '00', 7000],
    ]);
  });

  it('a cancel voids the sale', async () => {
    const m = await merchantFor('3d');
    const token = await pay(m, '40.00');
    tick();
    const res = await m.call('cancel-payment', { transaction: { token } });
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    expect(interpos.emulator.state.orders.get(orderOf(token))?.voidDate).not.toBe('');
  });

  it('no card number, CVV2, expiry or API password in any log line; the order ids stay readable', () => {
    const lines = t.logLines.join('\n');
    expect(interPosCalls(t).length).toBeGreaterThan(5);
    for (const number of Object.values(INTERPOS_CARDS)) expect(lines).not.toContain(number);
    expect(lines).not.toMatch(/"Cvv2":"\d/);
    expect(lines).not.toMatch(/"Expiry":"\d/);
    expect(lines).not.toContain(`"UserPass":"${interpos.emulator.userPassword}"`);
    expect(lines).toContain('"Pan":"************0057"');
  });

  it("nor in the payments' rows and their provider attempts, which keep InterPOS's codes readable", async () => {
    const db = t.gateway.services.db;
    await t.gateway.services.attempts.drain();
    const workspaces = Object.values(merchants).map((m) => m!.workspaceId);
    const rows = stringify([await db.payment.findMany({ where: { workspaceId: { in: workspaces } } }), await db.providerAttempt.findMany({ where: { workspaceId: { in: workspaces } } })]);
    for (const number of Object.values(INTERPOS_CARDS)) expect(rows).not.toContain(number);
    expect(rows).not.toContain('UserPass');
    expect(rows).not.toContain(interpos.emulator.storeKey);
    expect(rows).toContain('"providerCode":"51"');
  });
});
