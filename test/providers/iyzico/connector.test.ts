// The iyzico connector against the iyzico emulator over real HTTP on 127.0.0.1: every method of
// the provider contract, the sandbox's test cards for each refusal, the 3D Secure round trip the
// way a browser makes it, and the emulator's failure modes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../../emulators/iyzico/server.ts';
import { IyzicoConnector } from '../../../src/providers/iyzico/connector.ts';
import { iyzicoProvider } from '../../../src/providers/iyzico/index.ts';
import { parseIyzicoSettings } from '../../../src/providers/iyzico/settings.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';
import {
  ProviderTimeoutError,
  type CardData,
  type ChargeInput,
  type Start3DInput,
  type ThreeDsPayment,
} from '../../../src/providers/types.ts';
import { formIn, postForm } from '../../emulators/iyzipay-client.ts';
import { answer, startFakeIyzico } from './fake-iyzico.ts';
import { iyzipaySignature } from './iyzipay-reference.ts';

const APPROVING = '5528790000000008';
const CVC = '987';
const CALLBACK = 'https://gateway.example/checkout/3ds/pay_1/callback';

let emulator: IyzicoEmulator;
const logged: Array<{ msg: string; fields: Record<string, unknown> }> = [];
const deps: ConnectorDeps = {
  now: () => new Date(),
  baseUrl: () => 'https://gateway.example',
  key: () => Buffer.alloc(32),
  log: (msg, fields) => logged.push({ msg, fields }),
};
let connector: IyzicoConnector;
let keys = 0;

const card = (number = APPROVING): CardData => ({ holderName: 'Ayşe Yılmaz', number, securityCode: CVC, expiryMonth: '12', expiryYear: '2030' });
const key = (what = 'pay') => `${what}_${++keys}`;
const chargeInput = (number = APPROVING, extra: Partial<ChargeInput> = {}): ChargeInput =>
  ({ idempotencyKey: key(), amount: 10_050n, currency: 'TRY', installmentNumber: 1, card: card(number), ...extra }) as ChargeInput;

function connect(timeoutMs?: number): IyzicoConnector {
  return new IyzicoConnector(
    { api_key: emulator.apiKey, secret_key: emulator.secretKey },
    parseIyzicoSettings({ base_url: emulator.url }),
    deps,
    timeoutMs === undefined ? {} : { timeoutMs },
  );
}

beforeAll(async () => {
  emulator = await startIyzicoEmulator({ apiKey: 'sandbox-connector-api', secretKey: 'sandbox-connector-secret' });
  connector = connect(5_000);
});
afterAll(() => emulator?.close());
afterEach(() => emulator.behaviour.clear());

/**
 * A call iyzico carries out but whose answer comes after the client gave up (the emulator's
 * 'slow' mode answers after 400 ms, the client waits 150): the caller gets ProviderTimeoutError,
 * and once the emulator has done the call its outcome is there to be asked for.
 */
async function answerLost(call: () => Promise<unknown>): Promise<void> {
  emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 400 });
  await expect(call()).rejects.toBeInstanceOf(ProviderTimeoutError);
  await new Promise((resolve) => setTimeout(resolve, 400));
}

async function paid(number = APPROVING, amount = 10_050n): Promise<string> {
  const result = await connector.charge(chargeInput(number, { amount }));
  if (result.status !== 'succeeded') throw new Error(`not paid: ${JSON.stringify(result)}`);
  return result.providerReference;
}

describe('iyzico connector: the provider definition', () => {
  it('registers iyzico with its capabilities and schemas, and connects an account', async () => {
    const def = iyzicoProvider(deps);
    expect(def).toMatchObject({ id: 'iyzico', label: 'iyzico' });
    expect([...def.capabilities].sort()).toEqual(['cancel', 'card_deletion', 'card_storage', 'conversion', 'hosted_page', 'non_secure', 'refund', 'secure']);
    const credentials = def.credentials.parse({ api_key: emulator.apiKey, secret_key: emulator.secretKey });
    const settings = def.settings.parse({ base_url: `${emulator.url}/` });
    expect(settings).toEqual({ base_url: emulator.url, timeout_ms: 60_000 });
    expect(def.settings.parse({})).toEqual({ base_url: 'https://sandbox-api.iyzipay.com', timeout_ms: 60_000 });
    expect(def.credentials.safeParse({ api_key: 'k' }).success).toBe(false);
    const account = def.connect({ id: 'acc_1', credentials, settings });
    expect(account.provider).toBe('iyzico');
    expect(await account.charge(chargeInput())).toMatchObject({ status: 'succeeded' });
  });
});

describe('iyzico connector: charges', () => {
  it('charges a card and answers iyzico\u2019s paymentId as the reference', async () => {
    const input = chargeInput();
    const result = await connector.charge(input);
    expect(result).toMatchObject({ status: 'succeeded', providerReference: expect.stringMatching(/^\d+$/) });
    const payment = [...emulator.state.payments.values()].find((p) => p.conversationId === input.idempotencyKey)!;
    expect(payment).toMatchObject({ status: 'SUCCESS', price: 10_050, paidPrice: 10_050, currency: 'TRY' });
    expect(result.status === 'succeeded' && result.providerReference).toBe(payment.paymentId);
  });

  it('sends the shopper and the basket to iyzico', async () => {
    const basket = [
      { id: 'sku-1', name: 'Book', price: 10_000n },
      { id: 'sku-2', name: 'Bookmark', price: 50n },
    ];
    const input = chargeInput(APPROVING, { basket, shopper: { email: 'ayse@example.com.tr', ip: '85.34.78.112' } });
    const result = await connector.charge(input);
    expect(result).toMatchObject({ status: 'succeeded', providerReference: expect.stringMatching(/^\d+$/) });
    const payment = [...emulator.state.payments.values()].find((p) => p.conversationId === input.idempotencyKey)!;
    expect(payment.items.map((i) => [i.itemId, i.price])).toEqual([['sku-1', 10_000], ['sku-2', 50]]);
    const sent = logged.find((l) => (l.fields.request as { conversationId?: string }).conversationId === input.idempotencyKey)!;
    expect(sent.fields.request).toMatchObject({ buyer: { ip: '85.34.78.112', email: '[redacted]' } });
  });

  // The sandbox's error cards: the gateway's code, iyzico's own code and text kept.
  it.each([
    ['4111111111111129', 'declined', 'insufficient_funds', '10051'],
    ['4129111111111111', 'declined', 'card_declined', '10005'],
    ['4128111111111112', 'declined', 'card_declined', '10012'],
    ['4127111111111113', 'declined', 'card_declined', '10043'],
    ['4126111111111114', 'declined', 'card_declined', '10043'],
    ['4125111111111115', 'declined', 'expired_card', '10054'],
    ['4124111111111116', 'declined', 'invalid_cvc', '10084'],
    ['4123111111111117', 'declined', 'card_declined', '10057'],
    ['4122111111111118', 'error', 'provider_error', '10058'],
    ['4121111111111119', 'declined', 'card_declined', '10034'],
    ['4120111111111110', 'declined', 'card_declined', '10041'],
    ['4130111111111118', 'error', 'provider_error', '10202'],
    ['4000000000000002', 'declined', 'invalid_card_number', '12'],
  ])('maps the refusal of card %s', async (number, status, code, providerCode) => {
    const result = await connector.charge(chargeInput(number));
    expect(result).toMatchObject({ status, code, providerCode, providerMessage: expect.any(String) });
  });

  it('pays with a saved card, which can no longer be charged once deleted', async () => {
    const stored = await connector.storeCard({ idempotencyKey: key('card'), card: card(), shopper: { email: 'ayse@example.com.tr' } });
    expect(stored).toMatchObject({ status: 'stored', scheme: 'mastercard' });
    if (stored.status !== 'stored') return;
    const saved = { idempotencyKey: key(), amount: 2_500n, currency: 'TRY' as const, installmentNumber: 1, savedCard: { cardReference: stored.cardReference } };
    expect(await connector.charge(saved)).toMatchObject({ status: 'succeeded' });
    expect(await connector.deleteCard({ cardReference: stored.cardReference })).toEqual({ status: 'deleted' });
    expect(emulator.state.cards.size).toBe(0);
    expect(await connector.charge({ ...saved, idempotencyKey: key() })).toMatchObject({ status: 'error', providerCode: '3003' });
    expect(await connector.deleteCard({ cardReference: stored.cardReference })).toMatchObject({ status: 'declined', code: 'card_storage_refused', providerCode: '3003' });
    expect(await connector.deleteCard({ cardReference: 'not-an-iyzico-card' })).toMatchObject({ status: 'error', code: 'provider_error' });
    const foreign = { ...saved, idempotencyKey: key(), savedCard: { cardReference: 'card_from_another_provider' } };
    expect(await connector.charge(foreign)).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(await connector.start3D({ ...foreign, callbackUrl: CALLBACK })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect([...emulator.state.payments.values()].some((p) => p.conversationId === foreign.idempotencyKey)).toBe(false);
  });

  it('keeps iyzico\u2019s refusal of a card it cannot store', async () => {
    expect(await connector.storeCard({ idempotencyKey: key('card'), card: card('4000000000000002') })).toMatchObject({ status: 'declined', providerCode: '12' });
  });
});

describe('iyzico connector: 3D Secure', () => {
  const start = (number = APPROVING): Start3DInput => ({ ...chargeInput(number), callbackUrl: CALLBACK });

  /** What the shopper's browser does: show iyzico's page (it posts to the ACS), answer the challenge, and post the result to the callback. */
  async function shopperAnswers(html: string, decision: 'approve' | 'decline'): Promise<Record<string, string>> {
    const toAcs = formIn(html);
    const challenge = await (await postForm(toAcs.action, toAcs.fields)).text();
    const answer = formIn(challenge, { decision });
    const back = formIn(await (await postForm(new URL(answer.action, toAcs.action).href, answer.fields)).text());
    expect(back.action).toBe(CALLBACK);
    return back.fields;
  }

  async function started(number = APPROVING): Promise<{ payment: ThreeDsPayment; html: string }> {
    const input = start(number);
    const result = await connector.start3D(input);
    if (result.status !== 'redirect' || result.redirect.kind !== 'html') throw new Error(`not started: ${JSON.stringify(result)}`);
    expect(result.providerReference).toMatch(/^\d+$/);
    return { payment: { startKey: input.idempotencyKey, providerReference: result.providerReference, amount: input.amount, currency: input.currency }, html: result.redirect.html };
  }

  it('starts, verifies the shopper\u2019s callback and completes the payment', async () => {
    const { payment, html } = await started();
    const fields = await shopperAnswers(html, 'approve');
    const check = connector.verifyCallback(payment, fields);
    expect(check).toEqual({ status: 'verified', authenticated: true, data: { paymentId: payment.providerReference, conversationData: expect.any(String) } });
    if (check.status !== 'verified' || !check.authenticated) return;
    const completed = await connector.complete3D({ idempotencyKey: `${payment.startKey}:complete`, payment, data: check.data });
    expect(completed).toEqual({ status: 'succeeded', providerReference: payment.providerReference });
    expect(emulator.state.payments.get(payment.providerReference)!.status).toBe('SUCCESS');
  });

  it('rejects a forged signature, another payment\u2019s callback and a wrong conversationId', async () => {
    const first = await started();
    const fields = await shopperAnswers(first.html, 'approve');
    const second = await started();
    expect(connector.verifyCallback(first.payment, { ...fields, signature: 'ab'.repeat(32) })).toMatchObject({ status: 'rejected' });
    expect(connector.verifyCallback(first.payment, { ...fields, signature: '' })).toMatchObject({ status: 'rejected' });
    expect(connector.verifyCallback(first.payment, { ...fields, mdStatus: '0' })).toMatchObject({ status: 'rejected' });
    expect(connector.verifyCallback(second.payment, fields)).toEqual({ status: 'rejected', cause: 'order', reason: 'callback is for another payment' });
    expect(connector.verifyCallback({ ...first.payment, startKey: 'pay_other' }, fields)).toMatchObject({ status: 'rejected', reason: expect.stringContaining('conversationId') });
    expect(connector.verifyCallback(first.payment, { hello: 'world' })).toMatchObject({ status: 'rejected' });
    const other = new IyzicoConnector({ api_key: emulator.apiKey, secret_key: 'another-secret' }, parseIyzicoSettings({ base_url: emulator.url }), deps);
    expect(other.verifyCallback(first.payment, fields)).toMatchObject({ status: 'rejected' });
    for (const check of [connector.verifyCallback(first.payment, { ...fields, signature: 'ab'.repeat(32) })]) {
      expect(JSON.stringify(check)).not.toContain(emulator.secretKey);
    }
  });

  it('verifies a failed 3D Secure as not authenticated, with the mdStatus', async () => {
    const declined = await started();
    expect(connector.verifyCallback(declined.payment, await shopperAnswers(declined.html, 'decline'))).toEqual({
      status: 'verified',
      authenticated: false,
      failure: { status: 'declined', code: '3ds_failed', message: expect.any(String), providerCode: 'mdStatus:0' },
    });
    const notEnrolled = await started('4141111111111115');
    expect(connector.verifyCallback(notEnrolled.payment, await shopperAnswers(notEnrolled.html, 'approve'))).toMatchObject({
      status: 'verified',
      authenticated: false,
      failure: { providerCode: 'mdStatus:4' },
    });
  });

  it('keeps iyzico\u2019s refusal of a 3D start', async () => {
    expect(await connector.start3D(start('4151111111111112'))).toMatchObject({ status: 'error', providerCode: '10219' });
  });

  it('finds a 3D payment whose completion answer was lost by its paymentId', async () => {
    const { payment, html } = await started();
    const check = connector.verifyCallback(payment, await shopperAnswers(html, 'approve'));
    if (check.status !== 'verified' || !check.authenticated) throw new Error('not verified');
    const completeKey = `${payment.startKey}:complete`;
    const status = { idempotencyKey: completeKey, providerReference: payment.providerReference, amount: payment.amount, currency: payment.currency };
    expect(await connector.paymentStatus(status)).toEqual({ status: 'unknown' }); // waiting for the completion
    await answerLost(() => connect(150).complete3D({ idempotencyKey: completeKey, payment, data: check.data }));
    expect(await connector.paymentStatus(status)).toEqual({ status: 'succeeded', providerReference: payment.providerReference });
  });
});

describe('iyzico connector: status of a lost payment call', () => {
  it('finds a charge whose answer was lost by its idempotency key', async () => {
    const input = chargeInput();
    await answerLost(() => connect(150).charge(input));
    const result = await connector.paymentStatus({ idempotencyKey: input.idempotencyKey, providerReference: null, amount: input.amount, currency: input.currency });
    expect(result).toMatchObject({ status: 'succeeded', providerReference: expect.stringMatching(/^\d+$/) });
  });

  it('answers unknown for a charge whose request never reached iyzico', async () => {
    const input = chargeInput();
    emulator.behaviour.set({ mode: 'timeout', count: 1 }); // the emulator drops the call unread
    await expect(connect(150).charge(input)).rejects.toBeInstanceOf(ProviderTimeoutError);
    const result = await connector.paymentStatus({ idempotencyKey: input.idempotencyKey, providerReference: null, amount: input.amount, currency: input.currency });
    expect(result).toEqual({ status: 'unknown' });
  });

  it('answers a declined charge as declined, a never-seen key as unknown, another amount as unknown', async () => {
    const input = chargeInput('4111111111111129');
    await connector.charge(input);
    const ask = { idempotencyKey: input.idempotencyKey, providerReference: null, amount: input.amount, currency: input.currency };
    expect(await connector.paymentStatus(ask)).toMatchObject({ status: 'declined' });
    expect(await connector.paymentStatus({ ...ask, idempotencyKey: 'pay_never_sent' })).toEqual({ status: 'unknown' });
    const ok = chargeInput();
    await connector.charge(ok);
    expect(await connector.paymentStatus({ ...ask, idempotencyKey: ok.idempotencyKey, amount: 1n })).toEqual({ status: 'unknown' });
  });

  it('asks again later when iyzico fails the inquiry', async () => {
    emulator.behaviour.set({ mode: 'fail', count: 1 });
    await expect(connector.paymentStatus({ idempotencyKey: key(), providerReference: null, amount: 1n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

const refundOf = (reference: string, amount: bigint, idempotencyKey = key('refund')) => connector.refund({ idempotencyKey, providerReference: reference, amount, currency: 'TRY' });
const refundedOf = (paymentId: string) => emulator.state.refunds.filter((r) => r.paymentId === paymentId && r.outcome.status === 'SUCCESS');

describe('iyzico connector: refunds and cancels', () => {
  it('refunds part, then the rest; refuses more than was paid', async () => {
    const reference = await paid();
    expect(await refundOf(reference, 3_000n)).toEqual({ status: 'succeeded', providerReference: reference });
    expect(await refundOf(reference, 7_051n)).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '5033' });
    expect(await refundOf(reference, 7_050n)).toMatchObject({ status: 'succeeded' });
    expect(refundedOf(reference).map((r) => r.price)).toEqual([3_000, 7_050]);
  });

  it('refunds a payment of several basket items partly twice, then fully, with one call each', async () => {
    const basket = [
      { id: 'sku-1', name: 'Book', price: 6_000n },
      { id: 'sku-2', name: 'Pen', price: 3_000n },
      { id: 'sku-3', name: 'Bookmark', price: 1_050n },
    ];
    const charged = await connector.charge(chargeInput(APPROVING, { basket }));
    if (charged.status !== 'succeeded') throw new Error('not paid');
    const reference = charged.providerReference;
    const [first, second, third] = [key('refund'), key('refund'), key('refund')];
    expect(await refundOf(reference, 2_500n, first)).toEqual({ status: 'succeeded', providerReference: reference });
    expect(await refundOf(reference, 5_000n, second)).toEqual({ status: 'succeeded', providerReference: reference });
    // A refund beyond what remains (2 550) is refused, and moves nothing.
    expect(await refundOf(reference, 2_551n)).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '5033' });
    expect(await refundOf(reference, 2_550n, third)).toEqual({ status: 'succeeded', providerReference: reference });
    expect(await refundOf(reference, 1n)).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '5033' });
    // iyzico spread them over the items itself, each under the refund's idempotency key.
    const items = emulator.state.payments.get(reference)!.items;
    expect(items.map((i) => i.refunded)).toEqual([6_000, 3_000, 1_050]);
    expect(refundedOf(reference).map((r) => [r.conversationId, r.price])).toEqual([
      [first, 2_500],
      [second, 3_500],
      [second, 1_500],
      [third, 1_500],
      [third, 1_050],
    ]);
    const sent = logged.filter((l) => l.fields.operation === 'refund' && (l.fields.request as { conversationId?: string }).conversationId === first);
    expect(sent.map((l) => [l.fields.method, l.fields.path, l.fields.request])).toEqual([
      ['POST', '/v2/payment/refund', { locale: 'en', conversationId: first, paymentId: reference, price: '25.0', currency: 'TRY', ip: '127.0.0.1' }],
    ]);
  });

  it('still refunds by references written in the older forms (with the items\u2019 transaction ids)', async () => {
    const reference = await paid();
    const transaction = emulator.state.payments.get(reference)!.items[0]!.paymentTransactionId;
    expect(await refundOf(`${reference}:${transaction}`, 1_000n)).toEqual({ status: 'succeeded', providerReference: reference });
    expect(await refundOf(`${reference}:${transaction},99999999`, 1_000n)).toEqual({ status: 'succeeded', providerReference: reference });
    expect(refundedOf(reference).map((r) => r.price)).toEqual([1_000, 1_000]);
  });

  it('keeps the bank\u2019s refusal of a refund, and refuses references it did not write without calling iyzico', async () => {
    const reference = await paid('5406670000000009');
    expect(await refundOf(reference, 100n)).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '10012' });
    const calls = logged.length;
    for (const foreign of ['a:b:c', 'not an id', '1:', '']) expect(await refundOf(foreign, 100n)).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(logged.length).toBe(calls);
  });

  it('cancels a payment once', async () => {
    const reference = await paid();
    expect(await connector.cancel({ idempotencyKey: key('cancel'), providerReference: reference })).toEqual({ status: 'succeeded', providerReference: reference });
    expect(await connector.cancel({ idempotencyKey: key('cancel'), providerReference: reference })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '5034' });
  });
});

describe('iyzico connector: status of a lost refund or cancel (reporting)', () => {
  const status = (idempotencyKey: string, providerReference: string, on = connector) => on.refundStatus({ idempotencyKey, providerReference });

  it('finds a refund whose answer was lost: succeeded, and the payment knows it', async () => {
    const reference = await paid();
    const refundKey = key('refund:');
    await answerLost(() => connect(150).refund({ idempotencyKey: refundKey, providerReference: reference, amount: 4_000n, currency: 'TRY' }));
    expect(await status(refundKey, reference)).toEqual({ status: 'succeeded', providerReference: reference });
    // The same answer for a reference of the older form.
    const transaction = emulator.state.payments.get(reference)!.items[0]!.paymentTransactionId;
    expect(await status(refundKey, `${reference}:${transaction}`)).toEqual({ status: 'succeeded', providerReference: reference });
    const asked = logged.filter((l) => l.fields.operation === 'refundStatus').at(-1)!;
    expect(asked.fields).toMatchObject({ method: 'GET', path: '/v2/reporting/payment/details', outcome: 'answered', request: { paymentId: reference } });
  });

  it('answers unknown for a key iyzico never got, on a payment it knows', async () => {
    const reference = await paid();
    await refundOf(reference, 1_000n);
    expect(await status(key('refund:'), reference)).toEqual({ status: 'unknown' });
  });

  it('finds a cancel, and a refund the bank refused', async () => {
    const reference = await paid();
    const cancelKey = key('cancel:');
    await answerLost(() => connect(150).cancel({ idempotencyKey: cancelKey, providerReference: reference }));
    expect(emulator.state.payments.get(reference)!.cancelled).toBe(true);
    expect(await status(cancelKey, reference)).toEqual({ status: 'succeeded', providerReference: reference });

    const refused = await paid('5406670000000009');
    const refundKey = key('refund:');
    expect(await refundOf(refused, 500n, refundKey)).toMatchObject({ status: 'declined', providerCode: '10012' });
    expect(await status(refundKey, refused)).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '10012' });
  });

  it('throws ProviderTimeoutError when reporting does not answer, fails, or does not know the payment', async () => {
    const reference = await paid();
    emulator.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(status('refund:r1', reference, connect(150))).rejects.toBeInstanceOf(ProviderTimeoutError);
    emulator.behaviour.set({ mode: 'fail', count: 1 });
    await expect(status('refund:r1', reference)).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(status('refund:r1', '1')).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(status('refund:r1', 'a:b:c')).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('iyzico connector: card facts', () => {
  it('looks a BIN up, and answers nulls for one iyzico does not know', async () => {
    expect(await connector.binLookup('552879')).toEqual({
      bin: '552879',
      issuerName: 'Halkbank',
      issuerCode: '12',
      scheme: 'mastercard',
      type: 'credit',
      program: 'Paraf',
      isCommercial: false,
    });
    expect(await connector.binLookup('999999')).toEqual({ bin: '999999', issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null });
  });

  it('quotes iyzico\u2019s own instalments for TRY only', async () => {
    const options = await connector.installments({ bin: '552879', amount: 10_000n, currency: 'TRY', monthlyRatesBp: [0, 0, 0] });
    expect(options.map((o) => o.number)).toEqual([1, 2, 3, 6, 9, 12]);
    expect(options[0]).toEqual({ number: 1, amount: 10_000n, total: 10_000n });
    expect(options[2]).toEqual({ number: 3, amount: 3_485n, total: 10_454n });
    expect(await connector.installments({ bin: '552879', amount: 10_000n, currency: 'USD' })).toEqual([]);
    expect(await connector.installments({ bin: '999999', amount: 10_000n, currency: 'TRY' })).toEqual([]);
  });
});

describe('iyzico connector: when iyzico fails or is slow', () => {
  it('keeps iyzico\u2019s system error as a provider failure', async () => {
    emulator.behaviour.set({ mode: 'fail', count: 1 });
    expect(await connector.charge(chargeInput())).toMatchObject({ status: 'error', code: 'provider_error', providerCode: '1' });
  });

  it('throws ProviderTimeoutError when an answer comes after the deadline, and takes a slow one within it', async () => {
    emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 600 });
    await expect(connect(200).charge(chargeInput())).rejects.toBeInstanceOf(ProviderTimeoutError);
    emulator.behaviour.set({ mode: 'slow', count: 1, delayMs: 100 });
    expect(await connect(2_000).charge(chargeInput())).toMatchObject({ status: 'succeeded' });
  });

  it('throws ProviderTimeoutError for a BIN lookup nobody answers', async () => {
    emulator.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(connect(200).binLookup('552879')).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('never logs a card number or security code', () => {
    expect(logged.length).toBeGreaterThan(20);
    const text = JSON.stringify(logged);
    for (const number of [APPROVING, '4111111111111129', '5406670000000009']) expect(text).not.toContain(number);
    expect(text).not.toMatch(new RegExp(`"${CVC}"`));
    expect(text).not.toContain(emulator.secretKey);
    expect(logged.every((l) => l.msg === 'iyzico exchange')).toBe(true);
  });
});

describe('iyzico connector: answers it does not trust', () => {
  // iyzico's emulator answers honestly; a scripted server answers what iyzico must never be believed on.
  it('takes a paid answer for another amount, or with a bad signature, for no answer', async () => {
    const fake = await startFakeIyzico('sandbox-fake-api', 'sandbox-fake-secret');
    try {
      let paidPrice = '100.5';
      let signingKey = 'sandbox-fake-secret';
      fake.handle((req, res) => {
        const b = req.body as Record<string, string>;
        const signature = iyzipaySignature(['700001', 'TRY', b.basketId ?? 'pay-3d', b.conversationId, Number(paidPrice), Number(paidPrice)], signingKey);
        answer(res, `{"status":"success","paymentId":"700001","currency":"TRY","basketId":"${b.basketId ?? 'pay-3d'}","conversationId":"${b.conversationId}",
          "price":${paidPrice},"paidPrice":${paidPrice},"fraudStatus":1,"itemTransactions":[{"itemId":"payment","paymentTransactionId":"800001",
          "price":${paidPrice},"paidPrice":${paidPrice}}],"signature":"${signature}"}`);
      });
      const fakeConnector = new IyzicoConnector({ api_key: 'sandbox-fake-api', secret_key: 'sandbox-fake-secret' }, parseIyzicoSettings({ base_url: fake.url }), deps);
      const payment: ThreeDsPayment = { startKey: 'pay-3d', providerReference: '700001', amount: 10_050n, currency: 'TRY' };
      const complete = () => fakeConnector.complete3D({ idempotencyKey: 'pay-3d:complete', payment, data: { paymentId: '700001', conversationData: 'x' } });

      expect(await fakeConnector.charge(chargeInput())).toEqual({ status: 'succeeded', providerReference: '700001' });
      expect(await complete()).toEqual({ status: 'succeeded', providerReference: '700001' });
      paidPrice = '1.0';
      await expect(fakeConnector.charge(chargeInput())).rejects.toBeInstanceOf(ProviderTimeoutError);
      await expect(complete()).rejects.toBeInstanceOf(ProviderTimeoutError);
      paidPrice = '100.5';
      signingKey = 'not-the-secret';
      await expect(fakeConnector.charge(chargeInput())).rejects.toBeInstanceOf(ProviderTimeoutError);
      await expect(complete()).rejects.toBeInstanceOf(ProviderTimeoutError);
      signingKey = 'sandbox-fake-secret';
      const another = { ...payment, providerReference: '700002' };
      await expect(fakeConnector.complete3D({ idempotencyKey: 'pay-3d:complete', payment: another, data: {} })).rejects.toBeInstanceOf(ProviderTimeoutError);
    } finally {
      await fake.close();
    }
  });
});
