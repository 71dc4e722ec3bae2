// secure-payment through iyzico without a browser: the redirect address serves iyzico's own page,
// whose form goes on to the emulator's ACS; the ACS's signed answer posted to the gateway's
// callback completes the payment with iyzico (payment/3dsecure/auth) or fails it (3ds_failed).
// Callbacks that are not iyzico's answer for this payment, while it waits, show an error page,
// write nothing and never make the gateway ask iyzico to complete.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { autoPostForm, paymentBody, postCallback } from '../helpers/payments.ts';
import { eventsOf } from '../helpers/rows.ts';
import { runJobsDueBy } from '../helpers/jobs.ts';
import { msg } from '../helpers/messages.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerIyzicoAcs, emulatorState, IYZICO_CARDS, iyzicoCalls, seedIyzicoMerchant, threeDsHtmlOf, useIyzicoEmulator } from '../helpers/iyzico.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const iyzico = useIyzicoEmulator();
let m: Merchant;
let reference = 3000;

async function start(number: string = IYZICO_CARDS.approved) {
  m ??= await seedIyzicoMerchant(t, iyzico.emulator);
  const body = paymentBody(m, { card: { number }, transaction: { channel_reference: `IYZ3D-${reference++}`, callback_url: `${shop.url}/payment-return` } });
  const res = await m.call('secure-payment', body);
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, redirectUrl: res.body.result.redirect_url as string, body: res.body };
}

/** Opens the redirect address as a browser does: iyzico's page, as iyzico sent it. */
async function openPage(redirectUrl: string): Promise<string> {
  const page = await fetch(redirectUrl);
  expect(page.status).toBe(200);
  return page.text();
}

const row = (id: string) => t.gateway.services.db.payment.findUniqueOrThrow({ where: { id } });
const callbackOf = (id: string) => `${t.gateway.baseUrl}/checkout/3ds/callback/${id}`;
const retrieve = async (token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result;

/** The emulator's payment a 3D start made (iyzico's paymentId is the payment's provider reference). */
async function emulatorPaymentOf(id: string) {
  const { providerReference } = await row(id);
  const held = (await emulatorState(iyzico.emulator)).payments.find((p) => p.paymentId === providerReference);
  if (!held) throw new Error(`the emulator has no payment for ${id}`);
  return held;
}

/** The gateway's payment/3dsecure/auth calls for one iyzico payment. */
const completions = (paymentId: string) => iyzicoCalls(t, 'complete3D').filter((c) => c.request.paymentId === paymentId);

/** Everything a callback could change: the row (status, 3D columns, settlement), its events. */
async function snapshot(id: string) {
  const p = await row(id);
  return { row: JSON.stringify(p, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)), events: await eventsOf(t, id) };
}

describe('secure-payment through iyzico, approved', () => {
  it('serves iyzico\u2019s page, completes with iyzico on the ACS answer and returns transaction_token to the callback_url', async () => {
    const started = await start();
    expect(started.body.result).toEqual({ successful: true, message: null, redirect_url: expect.stringMatching(new RegExp(`^${t.gateway.baseUrl}/checkout/3ds/`)) });
    const held = await emulatorPaymentOf(started.token);
    expect(held).toMatchObject({ status: 'INIT_THREEDS', threeDS: true, conversationId: `${started.token}:authorise`, callbackUrl: callbackOf(started.token), paidPrice: 10_000 });

    const html = await openPage(started.redirectUrl);
    expect(html).toBe(await threeDsHtmlOf(t, started.token));
    expect(autoPostForm(html)?.action).toBe(`${iyzico.emulator.url}/_emulator/acs/${held.paymentId}`);
    const answer = await answerIyzicoAcs(html, 'approve');
    expect(answer.callbackUrl).toBe(callbackOf(started.token));
    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', action: `${shop.url}/payment-return`, fields: { transaction_token: started.token } });
    expect(await retrieve(started.token)).toEqual({ successful: true, message: null });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
    expect((await emulatorPaymentOf(started.token)).status).toBe('SUCCESS');
    expect(completions(held.paymentId)).toHaveLength(1);
    expect(completions(held.paymentId)[0]!.request.conversationId).toBe(`${started.token}:complete`);
  });
});

describe('secure-payment through iyzico, refused on the 3D step', () => {
  it('the shopper declines on the ACS: failed 3ds_failed, back to the callback_url, iyzico not asked to complete', async () => {
    const started = await start();
    const answer = await answerIyzicoAcs(await openPage(started.redirectUrl), 'decline');
    expect(answer.fields).toMatchObject({ status: 'failure', mdStatus: '0' });
    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: started.token } });
    expect(await retrieve(started.token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
    expect(await row(started.token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'mdStatus:0' });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.failed']);
    const held = await emulatorPaymentOf(started.token);
    expect(held.status).toBe('CALLBACK_THREEDS');
    expect(completions(held.paymentId)).toEqual([]);
  });

  it('a card whose issuer answers mdStatus 4 even when approved: failed 3ds_failed', async () => {
    const started = await start(IYZICO_CARDS.mdStatus4);
    const answer = await answerIyzicoAcs(await openPage(started.redirectUrl), 'approve');
    expect(answer.fields.mdStatus).toBe('4');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    expect(await row(started.token)).toMatchObject({ status: 'failed', errorCode: '3ds_failed', providerErrorCode: 'mdStatus:4' });
    expect(await retrieve(started.token)).toEqual({ successful: false, message: msg('decline_3ds_failed'), error_code: '3ds_failed' });
  });

  it('the bank refuses the charge after 3D (insufficient funds): failed insufficient_funds, iyzico\u2019s code kept', async () => {
    const started = await start(IYZICO_CARDS.insufficientFunds);
    const answer = await answerIyzicoAcs(await openPage(started.redirectUrl), 'approve');
    const back = await postCallback(answer.callbackUrl, answer.fields);

    expect(back.status).toBe(200);
    expect(autoPostForm(back.html)).toMatchObject({ id: 'return', fields: { transaction_token: started.token } });
    expect(await retrieve(started.token)).toEqual({ successful: false, message: msg('decline_insufficient_funds'), error_code: 'insufficient_funds' });
    expect(await row(started.token)).toMatchObject({ status: 'failed', errorCode: 'insufficient_funds', providerErrorCode: '10051' });
    expect(await eventsOf(t, started.token)).toEqual(['transaction.failed']);
    expect((await emulatorPaymentOf(started.token)).status).toBe('FAILURE');
  });

  it('iyzico refuses to start 3D: successful false, no redirect_url', async () => {
    const started = await start(IYZICO_CARDS.threeDsInitFails);
    expect(started.body.result).toEqual({ successful: false, message: msg('decline_provider_error'), error_code: 'provider_error', redirect_url: null });
    expect(await row(started.token)).toMatchObject({ status: 'failed', providerErrorCode: '10219' });
  });
});

describe('callbacks that are not iyzico\u2019s answer for the payment', () => {
  it('a forged signature: an error page, nothing written, iyzico not asked; the real answer still completes it', async () => {
    const started = await start();
    const answer = await answerIyzicoAcs(await openPage(started.redirectUrl), 'approve');
    const held = await emulatorPaymentOf(started.token);
    const before = await snapshot(started.token);

    for (const forged of [{ ...answer.fields, signature: 'ab'.repeat(32) }, { ...answer.fields, signature: '' }, { ...answer.fields, mdStatus: '1', status: 'success', conversationData: 'other' }]) {
      const res = await postCallback(answer.callbackUrl, forged);
      expect(res.status).toBe(400);
      expect(res.html).not.toContain('transaction_token');
    }
    expect(await snapshot(started.token)).toEqual(before);
    expect((await emulatorPaymentOf(started.token)).status).toBe('CALLBACK_THREEDS');
    expect(completions(held.paymentId)).toEqual([]);

    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect((await row(started.token)).status).toBe('successful');
  });

  it('another payment\u2019s signed answer posted to this payment\u2019s address: an error page, neither payment touched', async () => {
    const mine = await start();
    const other = await start();
    await openPage(mine.redirectUrl);
    const othersAnswer = await answerIyzicoAcs(await openPage(other.redirectUrl), 'approve');
    const before = { mine: await snapshot(mine.token), other: await snapshot(other.token) };

    const crossed = await postCallback(callbackOf(mine.token), othersAnswer.fields);

    expect(crossed.status).toBe(400);
    expect(crossed.html).not.toContain('transaction_token');
    expect({ mine: await snapshot(mine.token), other: await snapshot(other.token) }).toEqual(before);
    expect((await emulatorPaymentOf(mine.token)).status).toBe('INIT_THREEDS');
    expect((await emulatorPaymentOf(other.token)).status).toBe('CALLBACK_THREEDS');
    expect(iyzicoCalls(t, 'complete3D').filter((c) => [mine.token, other.token].some((id) => String(c.request.conversationId).startsWith(id)))).toEqual([]);
  });

  it('a replay after completion: 409, the settlement and its one event unchanged, iyzico asked once', async () => {
    const started = await start();
    const answer = await answerIyzicoAcs(await openPage(started.redirectUrl), 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    const settled = await snapshot(started.token);
    expect(settled.events).toEqual(['transaction.successful']);
    const held = await emulatorPaymentOf(started.token);

    const replayed = await postCallback(answer.callbackUrl, answer.fields);

    expect(replayed.status).toBe(409);
    expect(replayed.html).not.toContain('transaction_token');
    expect(await snapshot(started.token)).toEqual(settled);
    expect(completions(held.paymentId)).toHaveLength(1);
  });

  it('the same answer posted twice at once: one completes (iyzico asked once), the other is refused', async () => {
    const started = await start();
    const answer = await answerIyzicoAcs(await openPage(started.redirectUrl), 'approve');
    const held = await emulatorPaymentOf(started.token);

    const posts = await Promise.all([postCallback(answer.callbackUrl, answer.fields), postCallback(answer.callbackUrl, answer.fields)]);

    expect(posts.map((p) => p.status).sort()).toEqual([200, 409]);
    expect(posts.filter((p) => p.html.includes('name="transaction_token"'))).toHaveLength(1);
    expect(completions(held.paymentId)).toHaveLength(1);
    expect(await eventsOf(t, started.token)).toEqual(['transaction.successful']);
  });

  it('a callback after the payment expired: 410, nothing written, iyzico not asked', async () => {
    const started = await start();
    // The shopper's page, answered at the bank, but the gateway's address was never opened in time.
    const answer = await answerIyzicoAcs(await threeDsHtmlOf(t, started.token), 'approve');
    t.clock.advance(15 * 60 * 1000 + 1000);
    await runJobsDueBy(t);
    const expired = await snapshot(started.token);
    expect((await row(started.token)).status).toBe('expired');
    const held = await emulatorPaymentOf(started.token);

    const late = await postCallback(answer.callbackUrl, answer.fields);

    expect(late.status).toBe(410);
    expect(late.html).not.toContain('transaction_token');
    expect(await snapshot(started.token)).toEqual(expired);
    expect((await emulatorPaymentOf(started.token)).status).toBe('CALLBACK_THREEDS');
    expect(completions(held.paymentId)).toEqual([]);
  });
});
