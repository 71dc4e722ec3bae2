// The iyzico emulator checked against iyzico's own Node client (npm iyzipay): if the emulator got
// the protocol wrong (signature, paths, field names, shapes), these calls would fail.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { formIn, iyzipay, iyzipayUtils, paymentRequest, postForm, type IyziClient, type IyziResult } from './iyzipay-client.ts';

const APPROVING = '5528790000000008';
const INSUFFICIENT_FUNDS = '4111111111111129';

let emulator: IyzicoEmulator;
let client: IyziClient;
let merchant: Receiver;

beforeAll(async () => {
  emulator = await startIyzicoEmulator({ apiKey: 'test-api-key', secretKey: 'test-secret-key' });
  client = iyzipay({ apiKey: emulator.apiKey, secretKey: emulator.secretKey, uri: emulator.url });
  merchant = await startReceiver();
});

afterAll(async () => {
  await emulator?.close();
  await merchant?.close();
});

beforeEach(() => emulator.behaviour.clear());

const signed = (result: IyziResult, fields: string[]) =>
  iyzipayUtils.calculateHmacSHA256Signature(fields.map((f) => result[f]), emulator.secretKey) === result.signature;
const PAYMENT_SIGNED_FIELDS = ['paymentId', 'currency', 'basketId', 'conversationId', 'paidPrice', 'price'];

async function pay(cardNumber = APPROVING, overrides: Record<string, unknown> = {}): Promise<IyziResult> {
  return client.call('payment', 'create', paymentRequest(cardNumber, overrides));
}

describe('authentication (IYZWSv2)', () => {
  it('answers the API test call with the right keys', async () => {
    const result = await client.call('apiTest', 'retrieve', {});
    expect(result).toMatchObject({ status: 'success', locale: 'tr' });
    expect(typeof result.systemTime).toBe('number');
  });

  it('refuses a wrong secret key as an invalid signature, and an unknown API key', async () => {
    const wrongSecret = iyzipay({ apiKey: emulator.apiKey, secretKey: 'not-the-secret', uri: emulator.url });
    expect(await wrongSecret.call('payment', 'create', paymentRequest(APPROVING))).toMatchObject({ status: 'failure', errorCode: '1000' });
    const wrongKey = iyzipay({ apiKey: 'someone-else', secretKey: emulator.secretKey, uri: emulator.url });
    expect(await wrongKey.call('binNumber', 'retrieve', { binNumber: '552879' })).toMatchObject({ status: 'failure', errorCode: '1001' });
    expect(emulator.state.payments.size).toBe(0);
  });

  it('signs the body: a header made for one body does not authorize another', async () => {
    const body = { locale: 'tr', binNumber: '552879' };
    const authorization = iyzipayUtils.generateAuthorizationHeaderV2('IYZWSv2', emulator.apiKey, ':', emulator.secretKey, '/payment/bin/check', body, '123456789');
    const send = (json: object, path = '/payment/bin/check') =>
      fetch(emulator.url + path, { method: 'POST', headers: { authorization, 'x-iyzi-rnd': '123456789', 'content-type': 'application/json' }, body: JSON.stringify(json) });
    expect((await (await send(body)).json()).status).toBe('success');
    const tampered = await send({ ...body, binNumber: '411111' });
    expect(tampered.status).toBe(200); // as iyzico: only the body says it failed
    expect(await tampered.json()).toMatchObject({ status: 'failure', errorCode: '1000' });
    // The path is signed too.
    expect(await (await send(body, '/payment/iyzipos/installment')).json()).toMatchObject({ errorCode: '1000' });
  });
});

describe('malformed requests', () => {
  const raw = (path: string, body: string) => {
    const rnd = '42';
    const signature = createHmac('sha256', emulator.secretKey).update(rnd + path + body).digest('hex');
    const authorization = `IYZWSv2 ${Buffer.from(`apiKey:${emulator.apiKey}&randomKey:${rnd}&signature:${signature}`).toString('base64')}`;
    return fetch(emulator.url + path, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
  };

  it('a signed body that is not a JSON object answers 400 invalid request and writes nothing', async () => {
    const before = emulator.state.payments.size;
    for (const body of ['{"price":', '[1,2]', '"text"']) {
      const response = await raw('/payment/auth', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ status: 'failure', errorCode: '11' });
    }
    expect(emulator.state.payments.size).toBe(before);
  });

  it('an unknown path answers 404 in iyzico\'s failure shape', async () => {
    const response = await raw('/payment/nowhere', '{}');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 'failure', errorCode: '11' });
  });
});

describe('non-3DS payment (/payment/auth)', () => {
  it('charges an approving sandbox card and answers a signed payment with item transactions', async () => {
    const result = await pay();
    expect(result).toMatchObject({ status: 'success', price: 1, paidPrice: 1.2, currency: 'TRY', basketId: 'B67832', installment: 1, phase: 'AUTH' });
    expect(result.paymentId).toMatch(/^\d+$/);
    expect(result).toMatchObject({ binNumber: '552879', lastFourDigits: '0008', cardAssociation: 'MASTER_CARD', cardType: 'CREDIT_CARD' });
    expect(result.itemTransactions.map((i: IyziResult) => i.itemId)).toEqual(['BI101', 'BI102', 'BI103']);
    expect(result.itemTransactions.every((i: IyziResult) => /^\d+$/.test(i.paymentTransactionId))).toBe(true);
    // paidPrice (1.2) is spread over the items and adds up exactly.
    expect(result.itemTransactions.reduce((s: number, i: IyziResult) => s + Math.round(i.paidPrice * 100), 0)).toBe(120);
    expect(signed(result, PAYMENT_SIGNED_FIELDS)).toBe(true);
    expect(JSON.stringify(emulator.state.snapshot())).not.toContain(APPROVING);
  });

  it.each([
    [INSUFFICIENT_FUNDS, '10051', 'NOT_SUFFICIENT_FUNDS'],
    ['4129111111111111', '10005', 'DO_NOT_HONOUR'],
    ['4124111111111116', '10084', 'INVALID_CVC2'],
    ['4121111111111119', '10034', 'FRAUD_SUSPECT'],
  ])('declines error card %s with errorCode %s', async (card, errorCode, errorGroup) => {
    expect(await pay(card)).toMatchObject({ status: 'failure', errorCode, errorGroup });
  });

  it('refuses a card that is not a sandbox test card, an expired card and a basket that does not add up', async () => {
    expect(await pay('4242424242424242')).toMatchObject({ status: 'failure', errorCode: '12' });
    const expired = paymentRequest(APPROVING);
    expired.paymentCard.expireYear = '2020';
    expect(await client.call('payment', 'create', expired)).toMatchObject({ status: 'failure', errorCode: '17' });
    expect(await pay(APPROVING, { price: '2' })).toMatchObject({ status: 'failure', errorCode: '5005' });
    const noEmail = paymentRequest(APPROVING);
    delete (noEmail.buyer as Partial<typeof noEmail.buyer>).email;
    expect(await client.call('payment', 'create', noEmail)).toMatchObject({ status: 'failure', errorCode: '24', errorMessage: expect.stringContaining('buyer.email') });
  });
});

describe('3-D Secure', () => {
  async function initialize(cardNumber = APPROVING) {
    const request = paymentRequest(cardNumber, { callbackUrl: `${merchant.url}/iyzico/callback` });
    const result = await client.call('threedsInitialize', 'create', request);
    return { request, result };
  }

  /** What the shopper's browser does: run the decoded HTML, answer the ACS, post back to the merchant. */
  async function throughAcs(result: IyziResult, decision: 'approve' | 'decline') {
    const html = Buffer.from(result.threeDSHtmlContent, 'base64').toString('utf8');
    const toAcs = formIn(html);
    expect(toAcs.action).toBe(`${emulator.url}/_emulator/acs/${result.paymentId}`);
    const acsPage = await (await postForm(toAcs.action, toAcs.fields)).text();
    const answer = formIn(acsPage, { decision });
    const back = await postForm(emulator.url + answer.action, answer.fields);
    expect(back.status).toBe(200);
    const callback = formIn(await back.text());
    expect(callback.action).toBe(`${merchant.url}/iyzico/callback`);
    const before = merchant.requests.length;
    await postForm(callback.action, callback.fields);
    const [received] = (await merchant.waitFor(before + 1)).slice(before);
    return Object.fromEntries(new URLSearchParams(received.body));
  }

  it('initialize answers base64 HTML that posts to the emulator ACS; approving calls back with signed fields; auth completes', async () => {
    const { request, result } = await initialize();
    expect(result).toMatchObject({ status: 'success', conversationId: request.conversationId });
    expect(signed(result, ['paymentId', 'conversationId'])).toBe(true);

    const callback = await throughAcs(result, 'approve');
    expect(callback).toMatchObject({ status: 'success', paymentId: result.paymentId, conversationId: request.conversationId, mdStatus: '1' });
    expect(callback.conversationData).toBeTruthy();
    const signature = iyzipayUtils.calculateHmacSHA256Signature(
      [callback.conversationData, callback.conversationId, callback.mdStatus, callback.paymentId, callback.status],
      emulator.secretKey,
    );
    expect(callback.signature).toBe(signature);

    const auth = await client.call('threedsPayment', 'create', {
      locale: 'en',
      conversationId: request.conversationId,
      paymentId: callback.paymentId,
      conversationData: callback.conversationData,
    });
    expect(auth).toMatchObject({ status: 'success', paymentId: result.paymentId, paidPrice: 1.2, mdStatus: 1 });
    expect(signed(auth, PAYMENT_SIGNED_FIELDS)).toBe(true);
    // Completing twice is refused.
    expect(await client.call('threedsPayment', 'create', { paymentId: result.paymentId, conversationData: callback.conversationData })).toMatchObject({ status: 'failure' });
  });

  it('auth before the shopper answered, or with the wrong conversationData, is refused', async () => {
    const { result } = await initialize();
    expect(await client.call('threedsPayment', 'create', { paymentId: result.paymentId })).toMatchObject({ status: 'failure', errorCode: '5035' });
    await throughAcs(result, 'approve');
    expect(await client.call('threedsPayment', 'create', { paymentId: result.paymentId, conversationData: 'forged' })).toMatchObject({ status: 'failure', errorCode: '11' });
  });

  it('a declined challenge calls back failure with mdStatus 0 and auth fails', async () => {
    const { result } = await initialize();
    const callback = await throughAcs(result, 'decline');
    expect(callback).toMatchObject({ status: 'failure', mdStatus: '0', paymentId: result.paymentId });
    expect(await client.call('threedsPayment', 'create', { paymentId: result.paymentId })).toMatchObject({ status: 'failure', errorCode: '10217' });
    // The ACS answers once.
    expect((await postForm(`${emulator.url}/_emulator/acs/${result.paymentId}/complete`, { decision: 'approve' })).status).toBe(404);
  });

  it('test card 4141111111111115 authenticates with mdStatus 4 whatever the shopper clicks; 4151111111111112 fails initialize', async () => {
    const { result } = await initialize('4141111111111115');
    expect(await throughAcs(result, 'approve')).toMatchObject({ status: 'failure', mdStatus: '4' });
    expect((await initialize('4151111111111112')).result).toMatchObject({ status: 'failure', errorCode: '10219' });
  });

  it('initialize without callbackUrl is refused', async () => {
    expect(await client.call('threedsInitialize', 'create', paymentRequest(APPROVING))).toMatchObject({ status: 'failure', errorCode: '23' });
  });
});

describe('refunds, cancel and retrieve', () => {
  it('refunds part of an item transaction, then the rest; more than paid fails', async () => {
    const payment = await pay();
    const item = payment.itemTransactions[1]; // paidPrice 0.6 of the 1.2 paid
    expect(item.paidPrice).toBe(0.6);
    const refund = (price: string) => client.call('refund', 'create', { locale: 'en', conversationId: 'r1', paymentTransactionId: item.paymentTransactionId, price, currency: 'TRY', ip: '85.34.78.112' });
    const first = await refund('0.25');
    expect(first).toMatchObject({ status: 'success', paymentId: payment.paymentId, paymentTransactionId: item.paymentTransactionId, price: 0.25, currency: 'TRY' });
    expect(signed(first, ['paymentId', 'price', 'currency', 'conversationId'])).toBe(true);
    expect(await refund('0.36')).toMatchObject({ status: 'failure', errorCode: '5033' });
    expect(await refund('0.35')).toMatchObject({ status: 'success', price: 0.35 });
    expect(await refund('0.01')).toMatchObject({ status: 'failure', errorCode: '5033' });
    expect(emulator.state.refunds.filter((r) => r.paymentTransactionId === item.paymentTransactionId).map((r) => r.price)).toEqual([25, 35]);

    const detail = await client.call('payment', 'retrieve', { paymentId: payment.paymentId });
    expect(detail).toMatchObject({ status: 'success', paymentId: payment.paymentId, paymentStatus: 'SUCCESS', _emulator: { refundedPrice: 0.6, cancelled: false } });
    expect(signed(detail, PAYMENT_SIGNED_FIELDS)).toBe(true);
  });

  it('refund of an unknown transaction fails', async () => {
    expect(await client.call('refund', 'create', { paymentTransactionId: '999', price: '1', currency: 'TRY' })).toMatchObject({ status: 'failure', errorCode: '5004' });
  });

  it('cancels a whole payment once; retrieve by paymentConversationId finds it', async () => {
    const payment = await pay(APPROVING, { conversationId: 'order-42' });
    expect(await client.call('cancel', 'create', { locale: 'en', conversationId: 'c1', paymentId: payment.paymentId, ip: '85.34.78.112' })).toMatchObject({
      status: 'success',
      paymentId: payment.paymentId,
      price: 1.2,
      currency: 'TRY',
    });
    expect(await client.call('cancel', 'create', { paymentId: payment.paymentId })).toMatchObject({ status: 'failure', errorCode: '5034' });
    const refundAfterCancel = await client.call('refund', 'create', { paymentTransactionId: payment.itemTransactions[0].paymentTransactionId, price: '0.1' });
    expect(refundAfterCancel).toMatchObject({ status: 'failure', errorCode: '5034' });
    expect(await client.call('payment', 'retrieve', { paymentConversationId: 'order-42' })).toMatchObject({ status: 'success', paymentId: payment.paymentId, _emulator: { cancelled: true } });
    expect(await client.call('payment', 'retrieve', { paymentId: '1' })).toMatchObject({ status: 'failure', errorCode: '5003' });
  });

  it('test card 5406670000000009 is paid but refuses cancel and refund', async () => {
    const payment = await pay('5406670000000009');
    expect(payment.status).toBe('success');
    expect(await client.call('cancel', 'create', { paymentId: payment.paymentId })).toMatchObject({ status: 'failure', errorCode: '10012' });
  });
});

describe('refund v2 (/v2/payment/refund) and reporting (/v2/reporting/payment/details)', () => {
  const REFUND_SIGNED_FIELDS = ['paymentId', 'price', 'currency', 'conversationId'];
  const refundV2 = (paymentId: string, price: string, conversationId: string) =>
    client.call('refundV2', 'create', { locale: 'en', conversationId, paymentId, price, currency: 'TRY', ip: '85.34.78.112' });
  const report = (paymentConversationId: string, conversationId = 'report-1') =>
    client.call('reportingTransactionDetails', 'retrieve', { locale: 'en', conversationId, paymentConversationId });

  it('refunds by paymentId over the items in turn, never more than what remains', async () => {
    // The sample basket: prices 0.3 / 0.5 / 0.2, paid 1.2 in all, so 0.36 / 0.6 / 0.24 per item.
    const payment = await pay(APPROVING, { conversationId: 'v2-order' });
    const [a, b, c] = payment.itemTransactions.map((i: IyziResult) => i.paymentTransactionId as string);
    const first = await refundV2(payment.paymentId, '0.5', 'v2-r1');
    expect(first).toMatchObject({ status: 'success', conversationId: 'v2-r1', paymentId: payment.paymentId, price: 0.5, currency: 'TRY', authCode: payment.authCode });
    expect(signed(first, REFUND_SIGNED_FIELDS)).toBe(true);
    expect(await refundV2(payment.paymentId, '0.71', 'v2-r2')).toMatchObject({ status: 'failure', errorCode: '5033' });
    expect(await refundV2(payment.paymentId, '0.7', 'v2-r3')).toMatchObject({ status: 'success', price: 0.7 });
    expect(await refundV2(payment.paymentId, '0.01', 'v2-r4')).toMatchObject({ status: 'failure', errorCode: '5033' });
    const refunds = emulator.state.refunds.filter((r) => r.paymentId === payment.paymentId);
    expect(refunds.map((r) => [r.paymentTransactionId, r.price, r.conversationId])).toEqual([
      [a, 36, 'v2-r1'],
      [b, 14, 'v2-r1'],
      [b, 46, 'v2-r3'],
      [c, 24, 'v2-r3'],
    ]);

    const detail = await report('v2-order');
    expect(detail).toMatchObject({ status: 'success', locale: 'en', conversationId: 'report-1' });
    expect(detail.payments).toHaveLength(1);
    const [reported] = detail.payments;
    expect(reported).toMatchObject({ paymentId: Number(payment.paymentId), paymentStatus: 1, paymentRefundStatus: 'TOTALLY_REFUNDED', paymentConversationId: 'v2-order', price: 1, paidPrice: 1.2, currency: 'TRY', cancels: [] });
    expect(reported.itemTransactions.map((i: IyziResult) => [i.paymentTransactionId, i.refunds.map((r: IyziResult) => [r.refundConversationId, r.refundPrice, r.refundStatus])])).toEqual([
      [Number(a), [['v2-r1', 0.36, 1]]],
      [Number(b), [['v2-r1', 0.14, 1], ['v2-r3', 0.46, 1]]],
      [Number(c), [['v2-r3', 0.24, 1]]],
    ]);
  });

  it('refuses an unknown payment, a cancelled one, and lists a cancel with its conversationId', async () => {
    expect(await refundV2('1', '0.1', 'v2-unknown')).toMatchObject({ status: 'failure', errorCode: '5003' });
    const payment = await pay(APPROVING, { conversationId: 'v2-cancelled' });
    expect(await client.call('cancel', 'create', { locale: 'en', conversationId: 'v2-c1', paymentId: payment.paymentId, ip: '85.34.78.112' })).toMatchObject({ status: 'success' });
    expect(await refundV2(payment.paymentId, '0.1', 'v2-after-cancel')).toMatchObject({ status: 'failure', errorCode: '5034' });
    const [reported] = (await report('v2-cancelled')).payments;
    expect(reported.cancels).toEqual([expect.objectContaining({ cancelConversationId: 'v2-c1', refundPrice: 1.2, refundStatus: 1, currencyCode: 'TRY' })]);
    expect(reported.itemTransactions.flatMap((i: IyziResult) => i.refunds)).toEqual([]);
  });

  it('lists a refund and a cancel the bank refused, with the bank\u2019s error', async () => {
    const payment = await pay('5406670000000009', { conversationId: 'v2-no-reversal' });
    expect(await refundV2(payment.paymentId, '0.2', 'v2-refused')).toMatchObject({ status: 'failure', errorCode: '10012' });
    expect(await client.call('cancel', 'create', { conversationId: 'v2-cancel-refused', paymentId: payment.paymentId })).toMatchObject({ status: 'failure', errorCode: '10012' });
    const [reported] = (await report('v2-no-reversal')).payments;
    expect(reported.paymentRefundStatus).toBe('NOT_REFUNDED');
    expect(reported.itemTransactions[0].refunds).toEqual([expect.objectContaining({ refundConversationId: 'v2-refused', refundPrice: 0.2, refundStatus: 0, errorCode: '10012' })]);
    expect(reported.cancels).toEqual([expect.objectContaining({ cancelConversationId: 'v2-cancel-refused', refundStatus: 0, errorCode: '10012' })]);
  });

  it('reports by paymentId or paymentConversationId; an unknown payment or neither answers a failure', async () => {
    const payment = await pay(APPROVING, { conversationId: 'v2-twice' });
    await pay(INSUFFICIENT_FUNDS, { conversationId: 'v2-twice' });
    const both = await report('v2-twice');
    expect(both.payments.map((p: IyziResult) => p.paymentStatus)).toEqual([1, 0]);
    expect(both.payments[0].paymentId).toBe(Number(payment.paymentId));
    expect(await report('v2-never')).toMatchObject({ status: 'failure', errorCode: '5003', conversationId: 'report-1' });
    expect(await client.call('reportingTransactionDetails', 'retrieve', { locale: 'en' })).toMatchObject({ status: 'failure', errorCode: '24' });
  });

  it('checks a GET signed over the path alone (no query, no body), as iyzico\u2019s Java and PHP clients sign it', async () => {
    const payment = await pay(APPROVING, { conversationId: 'v2-get' });
    const path = '/v2/reporting/payment/details';
    const get = (signedPath: string, query: string) => {
      const authorization = iyzipayUtils.generateAuthorizationHeaderV2('IYZWSv2', emulator.apiKey, ':', emulator.secretKey, signedPath, {}, 'rnd-1');
      // generateAuthorizationHeaderV2 signs JSON.stringify({}) = "{}"; the Java form signs nothing after the path.
      const javaForm = `IYZWSv2 ${Buffer.from(`apiKey:${emulator.apiKey}&randomKey:rnd-1&signature:${createHmac('sha256', emulator.secretKey).update(`rnd-1${signedPath}`).digest('hex')}`).toString('base64')}`;
      return Promise.all(
        [authorization, javaForm].map(async (auth) => (await fetch(`${emulator.url}${path}?${query}`, { headers: { authorization: auth, 'x-iyzi-rnd': 'rnd-1' } })).json()),
      );
    };
    const byId = `locale=en&conversationId=q1&paymentId=${payment.paymentId}`;
    for (const answer of await get(path, byId)) expect(answer).toMatchObject({ status: 'success', conversationId: 'q1', payments: [{ paymentId: Number(payment.paymentId) }] });
    // The query is not part of what is signed: a signature over it does not match.
    for (const answer of await get(`${path}?${byId}`, byId)) expect(answer).toMatchObject({ status: 'failure', errorCode: '1000' });
    for (const answer of await get('/v2/reporting/payment/transactions', byId)) expect(answer).toMatchObject({ status: 'failure', errorCode: '1000' });
  });
});

describe('BIN, installments and card storage', () => {
  it('bin check and installment info describe the sandbox card', async () => {
    expect(await client.call('binNumber', 'retrieve', { locale: 'en', conversationId: 'b1', binNumber: '552879' })).toMatchObject({
      status: 'success',
      conversationId: 'b1',
      binNumber: '552879',
      cardType: 'CREDIT_CARD',
      cardAssociation: 'MASTER_CARD',
      bankName: 'Halkbank',
    });
    expect(await client.call('binNumber', 'retrieve', { binNumber: '999999' })).toMatchObject({ status: 'failure' });
    const installments = await client.call('installmentInfo', 'retrieve', { binNumber: '552879', price: '100' });
    expect(installments.status).toBe('success');
    const [detail] = installments.installmentDetails;
    expect(detail).toMatchObject({ binNumber: '552879', price: 100, cardAssociation: 'MASTER_CARD' });
    expect(detail.installmentPrices[0]).toEqual({ installmentNumber: 1, totalPrice: 100, installmentPrice: 100 });
    expect(detail.installmentPrices.map((p: IyziResult) => p.installmentNumber)).toEqual([1, 2, 3, 6, 9, 12]);
  });

  it('stores a card for a new user, lists it, pays with it, deletes it', async () => {
    const card = { cardAlias: 'my card', cardHolderName: 'John Doe', cardNumber: APPROVING, expireMonth: '12', expireYear: '2030' };
    const created = await client.call('card', 'create', { locale: 'en', conversationId: 's1', email: 'email@email.com', externalId: 'ext-1', card });
    expect(created).toMatchObject({ status: 'success', email: 'email@email.com', externalId: 'ext-1', binNumber: '552879', lastFourDigits: '0008', cardAlias: 'my card' });
    const { cardUserKey, cardToken } = created;
    expect(cardUserKey && cardToken).toBeTruthy();
    const second = await client.call('card', 'create', { cardUserKey, card: { ...card, cardNumber: '4603450000000000', cardAlias: 'visa' } });
    expect(second).toMatchObject({ status: 'success', cardUserKey });

    const list = await client.call('cardList', 'retrieve', { cardUserKey });
    expect(list.cardDetails.map((c: IyziResult) => c.cardToken)).toEqual([cardToken, second.cardToken]);

    const paid = await client.call('payment', 'create', paymentRequest('', { paymentCard: { cardUserKey, cardToken } }));
    expect(paid).toMatchObject({ status: 'success', lastFourDigits: '0008' });

    expect(await client.call('card', 'delete', { cardUserKey, cardToken })).toMatchObject({ status: 'success' });
    expect((await client.call('cardList', 'retrieve', { cardUserKey })).cardDetails).toHaveLength(1);
    expect(await client.call('card', 'delete', { cardUserKey, cardToken })).toMatchObject({ status: 'failure', errorCode: '3003' });
  });
});

describe('test controls', () => {
  const control = async (rule: object) => {
    const response = await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', body: JSON.stringify(rule) });
    expect(response.status).toBe(200);
  };

  it('decline makes the next payment fail with a bank decline, then cards behave again', async () => {
    await control({ mode: 'decline' });
    expect(await client.call('binNumber', 'retrieve', { binNumber: '552879' })).toMatchObject({ status: 'success' }); // not a payment call
    expect(await pay()).toMatchObject({ status: 'failure', errorCode: '10005', errorGroup: 'DO_NOT_HONOUR' });
    expect(await pay()).toMatchObject({ status: 'success' });
  });

  it('fail answers a system error for the next calls', async () => {
    await control({ mode: 'fail', count: 2 });
    expect(await pay()).toMatchObject({ status: 'failure', errorCode: '1' });
    expect(await client.call('payment', 'retrieve', { paymentId: '1' })).toMatchObject({ status: 'failure', errorCode: '1' });
    expect(await pay()).toMatchObject({ status: 'success' });
  });

  it('timeout never answers; slow answers after the delay', async () => {
    await control({ mode: 'timeout' });
    const pending = pay();
    const outcome = await Promise.race([pending.then(() => 'answered', () => 'errored'), new Promise((r) => setTimeout(() => r('still waiting'), 800))]);
    expect(outcome).toBe('still waiting');
    pending.catch(() => undefined); // settles when the emulator closes

    await control({ mode: 'slow', delayMs: 600 });
    const started = Date.now();
    expect(await pay()).toMatchObject({ status: 'success' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it('rejects a malformed control and exposes state', async () => {
    const bad = await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', body: JSON.stringify({ mode: 'explode' }) });
    expect(bad.status).toBe(400);
    const state = await (await fetch(`${emulator.url}/_emulator/state`)).json();
    expect(state.payments.length).toBe(emulator.state.payments.size);
    expect(Array.isArray(state.refunds)).toBe(true);
  });
});
