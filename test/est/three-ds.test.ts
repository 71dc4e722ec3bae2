// secure-payment through an EST account without a browser: the redirect address answers the
// gateway's auto-posting form "bank" to the emulator's 3D gate (the card joined from the sealed
// address, never kept in the payment row); the gate's ACS posts EST's signed callback to the
// gateway. A callback whose hash was altered, and one posted a second time, answer a 4xx error
// page, write nothing and never make the gateway ask the bank to authorise.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { paymentBody, postCallback, returnPostOf } from '../helpers/payments.ts';
import { eventsOf, rowCounts } from '../helpers/rows.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerEstAcs, EST_CARDS, estCalls, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';
import { orderOf } from '../helpers/bank-orders.ts';

const { t } = useGateway();
const est = useEstEmulator();
const merchants: Partial<Record<'3d' | '3d_pay', Merchant>> = {};
let reference = 3000;

const merchant = async (model: '3d' | '3d_pay') => (merchants[model] ??= await seedEstMerchant(t, est.emulator, { model }));
const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const authorisations = (token: string) => estCalls(t, 'complete3D').filter((c) => c.request.OrderId === orderOf(token));

async function start(model: '3d' | '3d_pay', number: string = EST_CARDS.approved, cvc = '987') {
  const m = await merchant(model);
  const res = await m.call('secure-payment', paymentBody(m, { card: { number, security_code: cvc }, transaction: { channel_reference: `EST3-${reference++}`, amount: '250.40' } }));
  expect(res.status, res.text).toBe(200);
  return { m, token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string };
}

describe.each(['3d', '3d_pay'] as const)('secure-payment in model %s', (model) => {
  it('the bank form posts the card to the gate; Approve on the ACS -> the callback -> successful, charged once at the emulator', async () => {
    const { m, token, redirectUrl } = await start(model, EST_CARDS.approved, '913');
    expect(redirectUrl).toMatch(new RegExp(`^${t.gateway.baseUrl}/checkout/3ds/[^?]+\\?card=`));
    const started = await row(token);
    expect(started.status).toBe('started');
    expect(JSON.stringify(started, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).not.toContain(EST_CARDS.approved);
    expect(JSON.stringify(started.threeDsRedirect)).not.toMatch(/"913"|4355084355084358/);

    const answer = await answerEstAcs(redirectUrl);
    expect(answer.bank).toMatchObject({ id: 'bank', action: est.emulator.gateUrl });
    expect(answer.bank.fields).toMatchObject({ pan: EST_CARDS.approved, cv2: '913', storetype: model, amount: '250.40', currency: '949', oid: orderOf(token) });
    expect(answer.callbackUrl).toBe(`${t.gateway.baseUrl}/checkout/3ds/callback/${token}`);
    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBe(200);
    expect(returnPostOf(back.html)).toEqual({ returnUrl: 'http://127.0.0.1:9/callback', returnToken: token });
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await row(token)).toMatchObject({ status: 'successful', securityType: 'secure', providerReference: orderOf(token) });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    const order = estOrderOf(est.emulator, token)!;
    expect(order.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 25_040 })]);
    expect(order.mdStatus).toBe('1');
    // Model 3d authorises over the XML API once; 3d_pay reads the charge the gate made.
    expect(authorisations(token)).toHaveLength(model === '3d' ? 1 : 0);
    // The emulator's own memory of the 3D visit (the gate's session and the order) holds no card number or CVV.
    const held = JSON.stringify({ sessions: [...est.emulator.state.sessions.values()], orders: [...est.emulator.state.orders.values()] });
    expect(held).toContain(orderOf(token));
    expect(held).not.toContain(EST_CARDS.approved);
    expect(held).not.toContain('"913"');
    expect(t.logLines.join('\n')).not.toContain(EST_CARDS.approved);
    expect(t.logLines.join('\n')).not.toMatch(/[":>]913\b/);
    expect(JSON.stringify(await t.gateway.services.db.payment.findMany({}), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).not.toContain(EST_CARDS.approved);
  });

  it('Decline on the ACS: 3ds_failed with mdStatus:0, nothing charged', async () => {
    const { m, token, redirectUrl } = await start(model);
    const answer = await answerEstAcs(redirectUrl, 'decline');
    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBe(200);
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'mdStatus:0' });
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    expect(authorisations(token)).toEqual([]);
    expect(estOrderOf(est.emulator, token)?.transactions.filter((tx) => tx.status === 'A') ?? []).toEqual([]);
  });

  it('a callback whose hash was altered: 4xx error page, nothing written, the bank not asked; the real one then completes it', async () => {
    const { token, redirectUrl } = await start(model);
    const answer = await answerEstAcs(redirectUrl);
    const before = { rows: await rowCounts(t), payment: await row(token) };
    const hash = answer.fields.HASH!;
    const forged = { ...answer.fields, HASH: `${hash.slice(0, -4)}${hash.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}` };

    const refused = await postCallback(answer.callbackUrl, forged);

    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.html).toMatch(/<html/i);
    expect(returnPostOf(refused.html)).toEqual({});
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(await row(token)).toEqual(before.payment);
    expect(authorisations(token)).toEqual([]);
    // In model 3d the bank's 3D session is still unused (3d_pay's gate has charged already).
    const session = [...est.emulator.state.sessions.values()].find((x) => x.oid === orderOf(token))!;
    if (model === '3d') expect(session.used).toBe(false);

    // A forged amount with the real hash is refused the same way.
    const cheaper = await postCallback(answer.callbackUrl, { ...answer.fields, amount: '1.00' });
    expect(cheaper.status).toBeGreaterThanOrEqual(400);
    expect(cheaper.status).toBeLessThan(500);
    expect(await row(token)).toEqual(before.payment);

    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect((await row(token)).status).toBe('successful');
  });

  it('another payment\u2019s genuine callback posted to this payment\u2019s address: 4xx, nothing written, the bank not asked', async () => {
    const mine = await start(model);
    const other = await start(model);
    const theirs = await answerEstAcs(other.redirectUrl);
    const before = { rows: await rowCounts(t), mine: await row(mine.token), other: await row(other.token) };

    const refused = await postCallback(`${t.gateway.baseUrl}/checkout/3ds/callback/${mine.token}`, theirs.fields);

    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(await row(mine.token)).toEqual(before.mine);
    expect(await row(other.token)).toEqual(before.other);
    expect(authorisations(mine.token)).toEqual([]);
    expect(authorisations(other.token)).toEqual([]);
  });

  it('the same callback posted again: 4xx error page, nothing written, the bank not asked again', async () => {
    const { token, redirectUrl } = await start(model);
    const answer = await answerEstAcs(redirectUrl);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const before = { rows: await rowCounts(t), payment: await row(token), calls: authorisations(token).length, order: JSON.stringify(estOrderOf(est.emulator, token)) };

    const replay = await postCallback(answer.callbackUrl, answer.fields);

    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.status).toBeLessThan(500);
    expect(returnPostOf(replay.html)).toEqual({});
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(await row(token)).toEqual(before.payment);
    expect(authorisations(token)).toHaveLength(before.calls);
    expect(JSON.stringify(estOrderOf(est.emulator, token))).toBe(before.order);
  });
});

describe.each(['3d', '3d_pay'] as const)('a card the bank refuses after 3-D Secure, model %s', (model) => {
  it('51 (authenticated, then refused): insufficient_funds with the catalog message, EST\u2019s code kept', async () => {
    const { m, token, redirectUrl } = await start(model, EST_CARDS.insufficientFunds);
    const answer = await answerEstAcs(redirectUrl);
    expect(answer.fields.mdStatus).toBe('1');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect((await row(token)).providerErrorCode).toMatch(/^51\b/);
    expect(await eventsOf(t, token)).toEqual(['transaction.failed']);
    // Model 3d asked the bank to authorise (and was refused); 3d_pay read the refusal from the callback.
    expect(authorisations(token)).toHaveLength(model === '3d' ? 1 : 0);
    expect(estOrderOf(est.emulator, token)!.transactions).toEqual([expect.objectContaining({ status: 'D', procReturnCode: '51' })]);
  });
});

// The ACS answers mdStatus 4 (attempt): the "3D" model does not authorise with it (the gateway's own
// 3-D policy), while the "3D Pay" gate charges with it before the gateway hears: then the signed
// answer's approved charge is the money's truth, and the payment is successful (src/providers/three-d-pay.ts).
describe('mdStatus 4 (card 4355080000000500): the payment\u2019s record agrees with the money the bank moved', () => {
  it('3d_pay: the gate charged 250.40, so the payment is successful, with one approved sale at the bank and no void', async () => {
    const { m, token, redirectUrl } = await start('3d_pay', EST_CARDS.mdStatus4);
    const answer = await answerEstAcs(redirectUrl);
    expect(answer.fields).toMatchObject({ mdStatus: '4', ProcReturnCode: '00' });
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await row(token)).toMatchObject({ status: 'successful', providerReference: orderOf(token), errorCode: null });
    expect(await eventsOf(t, token)).toEqual(['transaction.successful']);
    expect(estOrderOf(est.emulator, token)!.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 25_040 })]);
    expect(estCalls(t, 'cancel')).toEqual([]);
  });

  it('3d: the gateway does not authorise a half-secure answer: 3ds_failed, nothing charged at the bank', async () => {
    const { m, token, redirectUrl } = await start('3d', EST_CARDS.mdStatus4);
    const answer = await answerEstAcs(redirectUrl);
    expect(answer.fields.mdStatus).toBe('4');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toMatchObject({ successful: false, error_code: '3ds_failed' });
    expect(authorisations(token)).toEqual([]);
    expect(estOrderOf(est.emulator, token)?.transactions ?? []).toEqual([]);
  });
});

// Every mdStatus through the emulator's 3D Pay gate, which charges after 1-4 only: the payment's
// record agrees with the money (src/providers/three-d-pay.ts): successful with one sale, or failed with none.
const CARD_BY_MD_STATUS = [EST_CARDS.mdStatus0, EST_CARDS.approved, '4355081000000201', '4355081000000300', EST_CARDS.mdStatus4, '4355081000000508', '4355081000000607', '4355081000000706', '4355081000000805', '4355081000000904'];
describe.each(CARD_BY_MD_STATUS.map((card, mdStatus) => [String(mdStatus), card] as const))('3d_pay, the ACS answers mdStatus %s', (mdStatus, card) => {
  it(['1', '2', '3', '4'].includes(mdStatus) ? 'the gate charges: successful, one sale at the bank' : 'not authenticated: 3ds_failed, no sale', async () => {
    const { m, token, redirectUrl } = await start('3d_pay', card);
    const answer = await answerEstAcs(redirectUrl);
    expect(answer.fields.mdStatus).toBe(mdStatus);
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const sold = (estOrderOf(est.emulator, token)?.transactions ?? []).filter((tx) => tx.status === 'A');
    if (['1', '2', '3', '4'].includes(mdStatus)) {
      expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
      expect(sold).toEqual([expect.objectContaining({ chargeType: 'S', amountMinor: 25_040 })]);
    } else {
      expect(await row(token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: `mdStatus:${mdStatus}` });
      expect(sold).toEqual([]);
    }
  });
});
