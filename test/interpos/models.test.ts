// InterPOS beyond the shared contract, connector against emulator over real HTTP: the 3D Pay and
// 3D Host models (the gate charges; the callback decides), half-secure answers, the issuer's
// decline reasons as the gateway's error codes, instalments, refunds and voids the bank refuses,
// lost answers settled by the StatusHistory inquiry, and the emulator's latency.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startInterPosEmulator, type InterPosEmulator } from '../../emulators/interpos/server.ts';
import { interPosProvider } from '../../src/providers/interpos/index.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';
import { ProviderTimeoutError, type CardData, type Connector } from '../../src/providers/types.ts';
import { walkGate } from '../helpers/bank-contract.ts';
import { autoPostForm } from '../helpers/payments.ts';
import { INTERPOS_CARDS, interPosCredentials, interPosSettings } from './fixtures.ts';

let emulator: InterPosEmulator;
beforeAll(async () => {
  emulator = await startInterPosEmulator({ port: 0 });
});
afterEach(() => emulator.behaviour.clear());
afterAll(() => emulator.stop());

const deps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} };
const connect = (model: InterPosModel = '3d', settings: Record<string, unknown> = {}): Connector =>
  interPosProvider(deps).connect({ id: 'acc', credentials: interPosCredentials(emulator), settings: { ...interPosSettings(emulator, model), ...settings } });
const card = (number: string, expiryYear = '2030'): CardData => ({ holderName: 'Ayşe Kaya', number, securityCode: '592', expiryMonth: '12', expiryYear });
const key = (step = 'charge') => `${crypto.randomUUID()}:${step}`;
const payment = (number: string, amount = 10025n) => ({ idempotencyKey: key(), amount, currency: 'TRY' as const, installmentNumber: 1, card: card(number) });
const orderOf = (orderId: string) => emulator.state.orders.get(orderId);

async function threeDs(connector: Connector, number: string, decision: 'approve' | 'decline' = 'approve', installmentNumber = 1) {
  const input = { ...payment(number), idempotencyKey: key('authorise'), installmentNumber, callbackUrl: 'https://gateway.example/checkout/3ds/callback/p1' };
  const started = await connector.start3D(input);
  if (started.status !== 'redirect') throw new Error(JSON.stringify(started));
  const fields = await walkGate(started.redirect, decision);
  const threeDsPayment = { startKey: input.idempotencyKey, providerReference: started.providerReference, amount: input.amount, currency: input.currency };
  return { started, fields, threeDsPayment, check: await connector.verifyCallback(threeDsPayment, fields) };
}

describe('InterPOS 3D Pay: the gate charges, the signed callback says how it went', () => {
  it('charges an approved card at the gate; completion reads the charge, asks nothing', async () => {
    const connector = connect('3d_pay');
    expect(connector.chargesAtGate).toBe(true);
    const { check, threeDsPayment } = await threeDs(connector, INTERPOS_CARDS.approved);
    expect(check).toMatchObject({ status: 'verified', authenticated: true });
    const orderId = threeDsPayment.providerReference;
    expect(orderOf(orderId)?.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 10025 })]);
    if (check.status !== 'verified' || !check.authenticated) return;
    expect(await connector.complete3D({ idempotencyKey: 'p:complete', payment: threeDsPayment, data: check.data })).toEqual({ status: 'succeeded', providerReference: orderId });
    expect(orderOf(orderId)?.txns).toHaveLength(1);
  });

  it("a refused charge fails with the issuer's reason; a not-authenticated card is never charged", async () => {
    const connector = connect('3d_pay');
    const refused = await threeDs(connector, INTERPOS_CARDS.insufficientFunds);
    if (refused.check.status !== 'verified' || !refused.check.authenticated) throw new Error(JSON.stringify(refused.check));
    expect(await connector.complete3D({ idempotencyKey: 'p:complete', payment: refused.threeDsPayment, data: refused.check.data })).toMatchObject({ status: 'declined', code: 'insufficient_funds', providerCode: '51' });
    const notAuthenticated = await threeDs(connector, INTERPOS_CARDS.mdStatus0);
    expect(notAuthenticated.check).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: 'mdStatus:0' } });
    expect(orderOf(notAuthenticated.threeDsPayment.providerReference)).toBeUndefined();
  });

  it('a lost 3D Pay answer is settled by the inquiry: the charge the gate made is found', async () => {
    const connector = connect('3d_pay');
    const { threeDsPayment } = await threeDs(connector, INTERPOS_CARDS.approved);
    const status = await connector.paymentStatus({ idempotencyKey: threeDsPayment.startKey, providerReference: threeDsPayment.providerReference, amount: threeDsPayment.amount, currency: 'TRY' });
    expect(status).toEqual({ status: 'succeeded', providerReference: threeDsPayment.providerReference });
  });
});

describe('InterPOS 3D Host: the card is typed on the bank\'s page', () => {
  it('posts a form without the card to 3DHost.aspx; the page takes the card, the ACS approves, the gate charges', async () => {
    const connector = connect('3d_host');
    const input = { idempotencyKey: key('authorise'), amount: 5000n, currency: 'TRY' as const, installmentNumber: 1, card: card(INTERPOS_CARDS.approved), callbackUrl: 'https://gateway.example/cb' };
    const started = await connector.start3D(input);
    if (started.status !== 'redirect' || started.redirect.kind !== 'form') throw new Error(JSON.stringify(started));
    expect(started.redirect.action).toBe(emulator.hostUrl);
    expect(started.redirect.fields).toMatchObject({ SecureType: '3DHost', PurchAmount: '50' });
    expect(started.redirect.cardFields).toEqual({});
    const page = await (await post(started.redirect.action, started.redirect.fields)).text();
    const cardForm = /<form id="interpos-card" method="post" action="([^"]+)">/.exec(page)?.[1];
    expect(cardForm).toBeDefined();
    const acs = await (await post(cardForm!, { Pan: INTERPOS_CARDS.approved, Expiry: '1230', Cvv2: '592' })).text();
    const approve = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="decision" value="approve">/.exec(acs)?.[1];
    const back = autoPostForm(await (await post(approve!.replace(/&amp;/g, '&'), { decision: 'approve' })).text());
    const threeDsPayment = { startKey: input.idempotencyKey, providerReference: started.providerReference, amount: 5000n, currency: 'TRY' as const };
    const check = await connector.verifyCallback(threeDsPayment, back!.fields);
    expect(check).toMatchObject({ status: 'verified', authenticated: true });
    if (check.status !== 'verified' || !check.authenticated) return;
    expect(await connector.complete3D({ idempotencyKey: 'p:complete', payment: threeDsPayment, data: check.data })).toMatchObject({ status: 'succeeded' });
    // The callback shows the card masked only; the gate charged once.
    expect(back!.fields.Pan).toBe('409070******0057');
    expect(orderOf(started.providerReference)?.txns).toEqual([expect.objectContaining({ type: 'Auth', code: '00', amount: 5000 })]);
  });
});

describe('InterPOS 3D model', () => {
  it('goes on with a half-secure answer (mdStatus 2 and 4), as InterPOS does', async () => {
    const connector = connect('3d');
    for (const number of [INTERPOS_CARDS.mdStatus2, INTERPOS_CARDS.mdStatus4]) {
      const { check, threeDsPayment } = await threeDs(connector, number);
      expect(check).toMatchObject({ status: 'verified', authenticated: true });
      if (check.status !== 'verified' || !check.authenticated) return;
      expect(await connector.complete3D({ idempotencyKey: 'p:complete', payment: threeDsPayment, data: check.data })).toMatchObject({ status: 'succeeded' });
    }
  });

  it('sends the instalments the gate signed with the 3D sale, and the authentication is spent once', async () => {
    const connector = connect('3d');
    const { check, threeDsPayment } = await threeDs(connector, INTERPOS_CARDS.approved, 'approve', 3);
    expect(threeDsPayment.providerReference).toMatch(/:3$/);
    if (check.status !== 'verified' || !check.authenticated) throw new Error(JSON.stringify(check));
    const complete = { idempotencyKey: 'p:complete', payment: threeDsPayment, data: check.data };
    expect(await connector.complete3D(complete)).toMatchObject({ status: 'succeeded' });
    expect(orderOf(threeDsPayment.providerReference.split(':')[0]!)).toMatchObject({ installments: '3' });
    expect(await connector.complete3D(complete)).toMatchObject({ status: 'error', code: 'provider_error', providerCode: 'E39' });
  });

  it('refuses a callback whose hash was made with another store key', async () => {
    const { fields, threeDsPayment, check } = await threeDs(connect('3d'), INTERPOS_CARDS.approved);
    expect(check).toMatchObject({ status: 'verified' });
    const other = interPosProvider(deps).connect({ id: 'acc', credentials: { ...interPosCredentials(emulator), store_key: 'wrong' }, settings: interPosSettings(emulator) });
    expect(other.verifyCallback(threeDsPayment, fields)).toMatchObject({ status: 'rejected', cause: 'signature' });
  });
});

describe('InterPOS answers and error codes', () => {
  it.each([
    [INTERPOS_CARDS.doNotHonour, 'card_declined', '05'],
    [INTERPOS_CARDS.insufficientFunds, 'insufficient_funds', '51'],
    [INTERPOS_CARDS.expired, 'expired_card', '54'],
    [INTERPOS_CARDS.wrongCvv, 'invalid_cvc', '82'],
  ])('declines %s as %s (%s)', async (number, code, providerCode) => {
    expect(await connect().charge(payment(number))).toMatchObject({ status: 'declined', code, providerCode });
  });

  it('a past expiry is 54 whatever the card; wrong API credentials are the terminal\'s error, not the card\'s', async () => {
    expect(await connect().charge({ ...payment(INTERPOS_CARDS.approved), card: card(INTERPOS_CARDS.approved, '2020') })).toMatchObject({ status: 'declined', code: 'expired_card' });
    const wrong = interPosProvider(deps).connect({ id: 'acc', credentials: { ...interPosCredentials(emulator), user_password: 'nope' }, settings: interPosSettings(emulator) });
    expect(await wrong.charge(payment(INTERPOS_CARDS.approved))).toMatchObject({ status: 'error', code: 'provider_error', providerCode: '81/B810002' });
  });

  it('refuses a refund above what is left and a void after a refund, as refund_rejected; an order it does not know is a provider error', async () => {
    const connector = connect();
    const charged = await connector.charge(payment(INTERPOS_CARDS.approved, 3000n));
    if (charged.status !== 'succeeded') throw new Error(JSON.stringify(charged));
    const ref = charged.providerReference;
    expect(await connector.refund({ idempotencyKey: 'refund:a', providerReference: ref, amount: 3001n, currency: 'TRY' })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '13' });
    expect(await connector.refund({ idempotencyKey: 'refund:b', providerReference: ref, amount: 1000n, currency: 'TRY' })).toMatchObject({ status: 'succeeded' });
    expect(await connector.cancel({ idempotencyKey: 'cancel:c', providerReference: ref })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '12' });
    expect(await connector.refund({ idempotencyKey: 'refund:d', providerReference: 'abcdefabcdef', amount: 100n, currency: 'TRY' })).toMatchObject({ status: 'error', code: 'provider_error', providerCode: 'E39' });
    expect(orderOf(ref)?.txns.map((t) => [t.type, t.amount])).toEqual([['Auth', 3000], ['Refund', 1000]]);
  });

  it('a lost refund is found by the total refunded; one the bank never made is unknown; a partial answer cannot say', async () => {
    const connector = connect();
    const charged = await connector.charge(payment(INTERPOS_CARDS.approved, 10000n));
    if (charged.status !== 'succeeded') throw new Error(JSON.stringify(charged));
    const ref = charged.providerReference;
    await connector.refund({ idempotencyKey: 'refund:1', providerReference: ref, amount: 2500n, currency: 'TRY' });
    await connector.refund({ idempotencyKey: 'refund:2', providerReference: ref, amount: 1500n, currency: 'TRY' });
    const ask = (amount: bigint, others: Array<{ amount: bigint; status: 'succeeded' | 'declined' | 'pending' }>) =>
      connector.refundStatus({ idempotencyKey: 'refund:x', providerReference: ref, amount, currency: 'TRY', otherRefunds: others });
    // The second was lost: the first is the gateway's, the rest (1500) is the lost one.
    expect(await ask(1500n, [{ amount: 2500n, status: 'succeeded' }])).toMatchObject({ status: 'succeeded' });
    // Both recorded, a third of 700 lost: nothing unexplained, the bank never made it.
    expect(await ask(700n, [{ amount: 2500n, status: 'succeeded' }, { amount: 1500n, status: 'succeeded' }])).toEqual({ status: 'unknown' });
    // 4000 refunded, the gateway knows of none and asks about 1500: something else is there, keep asking.
    await expect(ask(1500n, [])).rejects.toBeInstanceOf(ProviderTimeoutError);
    // Without what the gateway knows, the rule cannot say.
    await expect(connector.refundStatus({ idempotencyKey: 'refund:x', providerReference: ref })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('a sale whose answer never came is found by the inquiry (timeout control), a declined one too, and an unreadable answer is no answer', async () => {
    const connector = connect('3d', { timeout_ms: 1000 });
    emulator.behaviour.set({ mode: 'timeout', count: 1 });
    const input = payment(INTERPOS_CARDS.approved);
    await expect(connector.charge(input)).rejects.toBeInstanceOf(ProviderTimeoutError);
    // The emulator never answered and never booked: the bank never received it.
    expect(await connector.paymentStatus({ idempotencyKey: input.idempotencyKey, providerReference: null, amount: input.amount, currency: 'TRY' })).toEqual({ status: 'unknown' });

    const declined = payment(INTERPOS_CARDS.doNotHonour);
    await connector.charge(declined);
    expect(await connector.paymentStatus({ idempotencyKey: declined.idempotencyKey, providerReference: null, amount: declined.amount, currency: 'TRY' })).toMatchObject({ status: 'declined', code: 'card_declined', providerCode: '05' });

    emulator.behaviour.set({ mode: 'fail', count: 1 });
    await expect(connector.charge(payment(INTERPOS_CARDS.approved))).rejects.toBeInstanceOf(ProviderTimeoutError);
    // Another amount than the one asked is not this payment: keep asking.
    const sold = payment(INTERPOS_CARDS.approved);
    await connector.charge(sold);
    await expect(connector.paymentStatus({ idempotencyKey: sold.idempotencyKey, providerReference: null, amount: 1n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('answers after the latency it was started with', async () => {
    const slow = await startInterPosEmulator({ port: 0, latency: { minMs: 150, maxMs: 150 } });
    try {
      const connector = interPosProvider(deps).connect({ id: 'acc', credentials: interPosCredentials(slow), settings: interPosSettings(slow) });
      const started = Date.now();
      expect(await connector.charge(payment(INTERPOS_CARDS.approved))).toMatchObject({ status: 'succeeded' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(145);
    } finally {
      await slow.stop();
    }
  });
});

const post = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
