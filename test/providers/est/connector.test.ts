// Each XML operation of the EST connector against a scripted bank: a real HTTP server on
// 127.0.0.1 that reads the CC5Request it is sent and answers a CC5Response sample of
// mewebstudio/pos (samples.ts) about the order it was asked about.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EstConnector } from '../../../src/providers/est/connector.ts';
import { ver3Hash } from '../../../src/providers/est/hash.ts';
import { bankOrderId } from '../../../src/providers/bank-order-id.ts';
import { parseEstSettings, type EstCredentials } from '../../../src/providers/est/settings.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';
import { ProviderTimeoutError, type CardData } from '../../../src/providers/types.ts';
import * as samples from './samples.ts';

type Request = Record<string, string | Record<string, string>>;
type Script = (request: Request) => string | 'hang';

const parser = new XMLParser({ parseTagValue: false, ignoreAttributes: true });
let server: Server;
let apiUrl: string;
let script: Script = () => 'hang';
const received: Array<{ body: string; request: Request }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const request = (parser.parse(body) as { CC5Request: Request }).CC5Request;
      received.push({ body, request });
      const answer = script(request);
      if (answer === 'hang') return; // never answers: the client's deadline decides
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=ISO-8859-9' });
      res.end(answer.replaceAll('{ORDER}', String(request.OrderId)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fim/api`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received.length = 0;
  logged.length = 0;
});

const credentials: EstCredentials = { client_id: '700655000200', store_key: 'TRPS0200', api_user: 'ISBANKAPI', api_password: 'ISBANK07' };
const logged: Array<Record<string, unknown>> = [];
const deps: ConnectorDeps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => logged.push(fields) };
const connector = (settings: Record<string, unknown> = {}) =>
  new EstConnector(credentials, parseEstSettings({ bank: 'isbank', api_url: apiUrl, gate_url: 'http://127.0.0.1:1/fim/est3Dgate', timeout_ms: 1000, ...settings }), deps, { rnd: () => 'RND123' });

const PAYMENT_ID = '0b6f1c7e-2f7a-4c59-9d3e-5a0f7f3b2c11';
const ORDER = 'algpbmhocphkemfjjndofkaphpdlcmbb';
const card: CardData = { holderName: 'Ahmet Yılmaz', number: '4355084355084358', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };
const chargeInput = { idempotencyKey: `${PAYMENT_ID}:charge`, amount: 10025n, currency: 'TRY' as const, installmentNumber: 1, card, shopper: { ip: '10.0.0.7' } };

const answering = (xml: string): Script => () => xml;

describe('EST connector over the XML API', () => {
  it('derives one order id per payment from its idempotency key', () => {
    expect(bankOrderId(`${PAYMENT_ID}:charge`)).toBe(ORDER);
    expect(bankOrderId(`${PAYMENT_ID}:authorise`)).toBe(ORDER);
    expect(bankOrderId('not-a-uuid:charge')).toMatch(/^[a-p]{32}$/);
  });

  it('charges a card (Auth) and names the order as the payment reference', async () => {
    script = answering(samples.PAYMENT_APPROVED);
    expect(await connector().charge(chargeInput)).toEqual({ status: 'succeeded', providerReference: ORDER });
    expect(received[0]!.request).toEqual({
      Name: 'ISBANKAPI',
      Password: 'ISBANK07',
      ClientId: '700655000200',
      Type: 'Auth',
      IPAddress: '10.0.0.7',
      OrderId: ORDER,
      Total: '100.25',
      Currency: '949',
      Taksit: '',
      Number: '4355084355084358',
      Expires: '12/30',
      Cvv2Val: '000',
      Mode: 'P',
    });
  });

  it('sends instalments and other currencies as EST numbers them', async () => {
    script = answering(samples.PAYMENT_APPROVED);
    await connector().charge({ ...chargeInput, amount: 100n, currency: 'EUR', installmentNumber: 3 });
    expect(received[0]!.request).toMatchObject({ Total: '1.00', Currency: '978', Taksit: '3' });
  });

  it("maps the bank's refusals to the gateway's codes and keeps the bank's own", async () => {
    script = answering(samples.PAYMENT_NO_FUNDS);
    expect(await connector().charge(chargeInput)).toEqual({ status: 'declined', code: 'insufficient_funds', message: 'Bakiyesi yetersiz', providerCode: '51:ISO8583-51', providerMessage: 'Bakiyesi yetersiz' });
    script = answering(samples.PAYMENT_WRONG_CVV);
    expect(await connector().charge(chargeInput)).toMatchObject({ status: 'declined', code: 'invalid_cvc', providerCode: '82:ISO8583-82' });
    script = answering(samples.PAYMENT_BAD_CARD_NUMBER);
    expect(await connector().charge(chargeInput)).toEqual({
      status: 'error',
      code: 'provider_error',
      message: 'Kredi karti numarasi gecerli formatta degil.',
      providerCode: '99:CORE-2012',
      providerMessage: 'Kredi karti numarasi gecerli formatta degil.',
    });
  });

  it('throws ProviderTimeoutError when no answer comes within the deadline, or one that is not a CC5Response', async () => {
    script = () => 'hang';
    await expect(connector().charge(chargeInput)).rejects.toBeInstanceOf(ProviderTimeoutError);
    script = () => '<html><body>502 Bad Gateway</body></html>';
    await expect(connector().charge(chargeInput)).rejects.toBeInstanceOf(ProviderTimeoutError);
    // An approval about another order is not this payment's.
    script = () => samples.PAYMENT_APPROVED.replaceAll('{ORDER}', 'someoneelse');
    await expect(connector().charge(chargeInput)).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(logged.map((l) => l.outcome)).toEqual(['no_answer', 'unreadable', 'answered']);
  });

  it('logs the exchange without the card, its expiry and CVV, or the API password', async () => {
    script = answering(samples.PAYMENT_APPROVED);
    await connector().charge(chargeInput);
    const text = JSON.stringify(logged);
    expect(text).not.toContain('4355084355084358');
    expect(text).not.toContain('ISBANK07');
    expect(text).not.toContain('12/30');
    expect(text).not.toContain('"000"');
    expect(text).not.toContain('TRPS0200');
    script = answering(samples.CREDIT_APPROVED);
    await connector().refund({ idempotencyKey: 'refund:r1', providerReference: ORDER, amount: 100n, currency: 'TRY' });
    expect(logged[1]).toMatchObject({ operation: 'refund', response: { extra: { CARDHOLDERNAME: '[redacted]' } } });
    expect(logged[0]).toMatchObject({ operation: 'charge', outcome: 'answered', httpStatus: 200, request: { Number: '************4358', Password: '[redacted]', Cvv2Val: '[redacted]', Expires: '[redacted]', OrderId: ORDER } });
  });

  it("hands out the bank's 3D gate form, signed with the ver3 hash", async () => {
    const result = await connector({ lang: 'en' }).start3D({ ...chargeInput, idempotencyKey: `${PAYMENT_ID}:authorise`, callbackUrl: 'https://pay.example/3ds/cb/1' });
    expect(result).toMatchObject({ status: 'redirect', providerReference: ORDER, redirect: { kind: 'form', action: 'http://127.0.0.1:1/fim/est3Dgate' } });
    if (result.status !== 'redirect' || result.redirect.kind !== 'form') throw new Error('no form');
    // The card travels apart: the gateway never stores it (it is sealed into the redirect address).
    expect(result.redirect.cardFields).toEqual({ pan: '4355084355084358', Ecom_Payment_Card_ExpDate_Month: '12', Ecom_Payment_Card_ExpDate_Year: '30', cv2: '000' });
    const { hash, ...signed } = { ...result.redirect.fields, ...result.redirect.cardFields };
    expect(Object.keys(result.redirect.fields)).not.toContain('pan');
    expect(signed).toEqual({
      clientid: '700655000200',
      storetype: '3d',
      amount: '100.25',
      oid: ORDER,
      okUrl: 'https://pay.example/3ds/cb/1',
      failUrl: 'https://pay.example/3ds/cb/1',
      rnd: 'RND123',
      lang: 'en',
      currency: '949',
      taksit: '',
      islemtipi: 'Auth',
      TranType: 'Auth',
      pan: '4355084355084358',
      Ecom_Payment_Card_ExpDate_Month: '12',
      Ecom_Payment_Card_ExpDate_Year: '30',
      cv2: '000',
      hashAlgorithm: 'ver3',
    });
    expect(hash).toBe(ver3Hash(signed, 'TRPS0200'));
    expect(received).toHaveLength(0);
    const pay = await connector({ model: '3d_pay' }).start3D({ ...chargeInput, callbackUrl: 'https://pay.example/cb' });
    expect(pay.status === 'redirect' && pay.redirect.kind === 'form' && pay.redirect.fields.storetype).toBe('3d_pay');
  });

  it('authorises a 3D payment over the API with the callback\'s md, xid, eci and cavv', async () => {
    script = answering(samples.PAYMENT_APPROVED);
    const payment = { startKey: `${PAYMENT_ID}:authorise`, providerReference: ORDER, amount: 101n, currency: 'TRY' as const };
    const data = { model: '3d', md: '435508:9716234382F9D9B6:3677:##190100000', xid: '2aeoSfQde3NyV2XjSeTL0sGNYSg=', eci: '05', cavv: 'ABABA##AEJI=', taksit: '2' };
    expect(await connector().complete3D({ idempotencyKey: `${PAYMENT_ID}:complete`, payment, data })).toEqual({ status: 'succeeded', providerReference: ORDER });
    expect(received[0]!.request).toEqual({
      Name: 'ISBANKAPI',
      Password: 'ISBANK07',
      ClientId: '700655000200',
      Type: 'Auth',
      IPAddress: '',
      OrderId: ORDER,
      Total: '1.01',
      Currency: '949',
      Taksit: '2',
      Number: data.md,
      PayerTxnId: data.xid,
      PayerSecurityLevel: '05',
      PayerAuthenticationCode: data.cavv,
      CardholderPresentCode: '13',
      Mode: 'P',
    });
    script = answering(samples.PAYMENT_WRONG_CVV);
    expect(await connector().complete3D({ idempotencyKey: 'k', payment, data })).toMatchObject({ status: 'declined', code: 'invalid_cvc' });
  });

  it('reads a 3D Pay charge from the verified callback without calling the bank', async () => {
    const payment = { startKey: 'k', providerReference: ORDER, amount: 101n, currency: 'TRY' as const };
    expect(await connector().complete3D({ idempotencyKey: 'k', payment, data: { model: '3d_pay', ProcReturnCode: '00', TransId: 't' } })).toEqual({ status: 'succeeded', providerReference: ORDER });
    expect(await connector().complete3D({ idempotencyKey: 'k', payment, data: { model: '3d_pay', ProcReturnCode: '51', ErrMsg: 'Yetersiz' } })).toMatchObject({ status: 'declined', code: 'insufficient_funds', providerCode: '51' });
    expect(received).toHaveLength(0);
  });

  it('refunds by order (Credit with Total) and cancels by order (Void)', async () => {
    script = answering(samples.CREDIT_APPROVED);
    expect(await connector().refund({ idempotencyKey: 'refund:r1', providerReference: ORDER, amount: 5050n, currency: 'TRY' })).toEqual({ status: 'succeeded', providerReference: '24138' });
    expect(received[0]!.request).toEqual({ Name: 'ISBANKAPI', Password: 'ISBANK07', ClientId: '700655000200', OrderId: ORDER, Currency: '949', Type: 'Credit', Total: '50.50' });
    script = answering(samples.CREDIT_REFUSED);
    expect(await connector().refund({ idempotencyKey: 'refund:r2', providerReference: ORDER, amount: 5050n, currency: 'TRY' })).toEqual({
      status: 'declined',
      code: 'refund_rejected',
      message: 'Iade yapilamaz, siparis gunsonuna girmemis.',
      providerCode: '99:CORE-2508',
      providerMessage: 'Iade yapilamaz, siparis gunsonuna girmemis.',
    });
    script = answering(samples.VOID_APPROVED);
    expect(await connector().cancel({ idempotencyKey: 'cancel:c1', providerReference: ORDER })).toEqual({ status: 'succeeded', providerReference: '22303MzZG10851' });
    expect(received[2]!.request).toEqual({ Name: 'ISBANKAPI', Password: 'ISBANK07', ClientId: '700655000200', OrderId: ORDER, Type: 'Void' });
  });

  it('asks ORDERSTATUS what became of a payment whose answer was lost', async () => {
    const input = { idempotencyKey: `${PAYMENT_ID}:charge`, providerReference: null, amount: 101n, currency: 'TRY' as const };
    script = answering(samples.STATUS_SOLD_101);
    expect(await connector().paymentStatus(input)).toEqual({ status: 'succeeded', providerReference: ORDER });
    expect(received[0]!.request).toEqual({ Name: 'ISBANKAPI', Password: 'ISBANK07', ClientId: '700655000200', Extra: { ORDERSTATUS: 'QUERY' }, OrderId: ORDER });
    // A sale of another amount is not this payment's: no answer yet.
    await expect(connector().paymentStatus({ ...input, amount: 100n })).rejects.toBeInstanceOf(ProviderTimeoutError);
    script = answering(samples.STATUS_NO_RECORD);
    expect(await connector().paymentStatus(input)).toEqual({ status: 'unknown' });
    script = answering(samples.STATUS_VOIDED_101);
    expect(await connector().paymentStatus(input)).toMatchObject({ status: 'declined', providerCode: 'TRANS_STAT:V' });
    // The latest transaction a credit: a sale was made before it.
    script = answering(samples.STATUS_CREDITED_201);
    expect(await connector().paymentStatus(input)).toEqual({ status: 'succeeded', providerReference: ORDER });
  });

  it('asks ORDERHISTORY what became of a lost refund or cancel (mewebstudio/pos order history samples)', async () => {
    const lost = { providerReference: ORDER, currency: 'TRY' as const, otherRefunds: [] };
    script = answering(samples.HISTORY_VOIDED_THEN_REFUSED);
    expect(await connector().refundStatus({ ...lost, idempotencyKey: 'cancel:c1', amount: 101n })).toEqual({ status: 'succeeded', providerReference: ORDER });
    expect(received[0]!.request).toEqual({ Name: 'ISBANKAPI', Password: 'ISBANK07', ClientId: '700655000200', OrderId: ORDER, Extra: { ORDERHISTORY: 'QUERY' } });
    expect(await connector().refundStatus({ ...lost, idempotencyKey: 'refund:r1', amount: 100n })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '99' });
    script = answering(samples.HISTORY_ONE_SALE);
    expect(await connector().refundStatus({ ...lost, idempotencyKey: 'cancel:c1', amount: 101n })).toEqual({ status: 'unknown' });
    expect(await connector().refundStatus({ ...lost, idempotencyKey: 'refund:r1', amount: 100n })).toEqual({ status: 'unknown' });
    script = answering(samples.HISTORY_NO_RECORD);
    await expect(connector().refundStatus({ ...lost, idempotencyKey: 'refund:r1', amount: 100n })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('quotes instalments from the account rates and answers BINs without facts', async () => {
    const c = connector();
    expect(await c.installments({ bin: '435508', amount: 10000n, currency: 'TRY', monthlyRatesBp: [0, 300] })).toHaveLength(12);
    expect((await c.installments({ bin: '435508', amount: 10000n, currency: 'TRY', monthlyRatesBp: [0, 300] }))[1]).toEqual({ number: 2, amount: 5150n, total: 10300n });
    expect(await c.binLookup('435508')).toEqual({ bin: '435508', issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null });
    expect(c.capabilities.has('card_storage')).toBe(false);
    expect(received).toHaveLength(0);
  });
});
