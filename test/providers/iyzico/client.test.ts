import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromIyzicoPrice } from '../../../src/providers/iyzico/amount.ts';
import { IyzicoClient, MAX_TIMEOUT_MS } from '../../../src/providers/iyzico/client.ts';
import { mapFailure, type CallFamily } from '../../../src/providers/iyzico/codes.ts';
import { IYZICO_PATHS, type PaymentAnswer } from '../../../src/providers/iyzico/wire.ts';
import { ProviderTimeoutError } from '../../../src/providers/types.ts';
import { answer, startFakeIyzico, type FakeIyzico } from './fake-iyzico.ts';

const apiKey = 'sandbox-test-api-key';
const secretKey = 'sandbox-test-secret-key';
let iyzico: FakeIyzico;

beforeAll(async () => {
  iyzico = await startFakeIyzico(apiKey, secretKey);
});
afterAll(() => iyzico.close());

const client = (options: Partial<ConstructorParameters<typeof IyzicoClient>[0]> = {}) =>
  new IyzicoClient({ baseUrl: iyzico.url, apiKey, secretKey, timeoutMs: 2_000, ...options });

const body = { locale: 'tr', conversationId: 'idem-1', paymentId: '12345' };

// The shape of iyzico's payment/auth answer (docs and iyzipay samples), amounts as iyzico writes them.
const PAID = `{"status":"success","locale":"tr","systemTime":1700000000000,"conversationId":"idem-1",
"price":1.0,"paidPrice":1.20,"installment":1,"paymentId":"12345","fraudStatus":1,"merchantCommissionRate":0E-8,
"iyziCommissionRateAmount":0.02940000,"cardType":"CREDIT_CARD","cardAssociation":"MASTER_CARD","binNumber":"552879",
"lastFourDigits":"0008","basketId":"idem-1","currency":"TRY","itemTransactions":[{"itemId":"payment",
"paymentTransactionId":"67890","transactionStatus":2,"price":1.0,"paidPrice":1.20}],"authCode":"123456","phase":"AUTH",
"signature":"abc"}`;

const failure = (code: string, group: string | null, message = 'bank said no') =>
  JSON.stringify({ status: 'failure', errorCode: code, errorMessage: message, ...(group ? { errorGroup: group } : {}), locale: 'tr', systemTime: 1700000000000, conversationId: 'idem-1' });

describe('IyzicoClient', () => {
  it('signs each call as iyzipay does and returns the answer with amounts kept exact', async () => {
    iyzico.handle((_req, res) => answer(res, PAID));
    const before = iyzico.seen.length;
    const paid = await client().call<PaymentAnswer>('charge', 'POST', IYZICO_PATHS.payment, body);
    const seen = iyzico.seen.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/payment/auth', signatureValid: true, body });
    expect(seen[0]!.authorization).toMatch(/^IYZWSv2 /);
    expect(paid.status).toBe('success');
    expect(paid.price).toBe('1.0');
    expect(paid.paidPrice).toBe('1.20');
    expect(fromIyzicoPrice(paid.paidPrice)).toBe(120n);
    expect(fromIyzicoPrice(paid.itemTransactions![0]!.price)).toBe(100n);
    expect(paid.itemTransactions![0]!.paymentTransactionId).toBe('67890');
    expect(paid.installment).toBe(1);
  });

  it('signs a DELETE with a body (card storage) and a base URL with a trailing slash', async () => {
    iyzico.handle((_req, res) => answer(res, '{"status":"success","locale":"tr","systemTime":1700000000000}'));
    const before = iyzico.seen.length;
    const deleted = await client({ baseUrl: `${iyzico.url}/` }).call('deleteCard', 'DELETE', IYZICO_PATHS.cardStorage, { locale: 'tr', conversationId: 'c', cardUserKey: 'u', cardToken: 't' });
    expect(deleted.status).toBe('success');
    expect(iyzico.seen.slice(before)).toMatchObject([{ method: 'DELETE', path: '/cardstorage/card', signatureValid: true }]);
  });

  it('is told off by a server that checks signatures when the secret is wrong', async () => {
    iyzico.handle((_req, res) => answer(res, PAID));
    const refused = await client({ secretKey: 'not-the-secret' }).call('charge', 'POST', IYZICO_PATHS.payment, body);
    expect(refused).toMatchObject({ status: 'failure', errorCode: '1000' });
    expect(mapFailure(refused, 'payment')).toMatchObject({ kind: 'error', code: 'provider_error', providerCode: '1000' });
  });

  const failures: Array<[string, string | null, CallFamily, 'declined' | 'error', string]> = [
    ['10051', 'NOT_SUFFICIENT_FUNDS', 'payment', 'declined', 'insufficient_funds'],
    ['10054', 'EXPIRED_CARD', 'payment', 'declined', 'expired_card'],
    ['10005', 'DO_NOT_HONOUR', 'payment', 'declined', 'card_declined'],
    ['10034', 'FRAUD_SUSPECT', 'payment', 'declined', 'card_declined'],
    ['10043', 'STOLEN_CARD', 'payment', 'declined', 'card_declined'],
    ['10084', 'INVALID_CVC2', 'payment', 'declined', 'invalid_cvc'],
    ['10215', 'INVALID_CARD_NUMBER', 'payment', 'declined', 'invalid_card_number'],
    ['10217', 'DEBIT_CARDS_REQUIRES_3DS', 'payment', 'declined', '3ds_required'],
    ['10210', 'INVALID_CAVV', 'payment', 'declined', '3ds_failed'],
    ['10214', 'COMMUNICATION_OR_SYSTEM_ERROR', 'payment', 'error', 'provider_error'],
    ['10058', 'NOT_PERMITTED_TO_TERMINAL', 'payment', 'error', 'provider_error'],
    ['10051', null, 'payment', 'declined', 'insufficient_funds'],
    ['12', null, 'payment', 'declined', 'invalid_card_number'],
    ['17', null, 'payment', 'declined', 'invalid_expiry'],
    ['1001', null, 'payment', 'error', 'provider_error'],
    ['10999', 'SOMETHING_NEW', 'payment', 'declined', 'card_declined'],
    ['99', null, 'payment', 'error', 'provider_error'],
    ['10051', 'NOT_SUFFICIENT_FUNDS', 'refund', 'declined', 'refund_rejected'],
    ['5093', null, 'refund', 'declined', 'refund_rejected'],
    ['3001', null, 'card_storage', 'declined', 'card_storage_refused'],
    ['10999', null, 'lookup', 'declined', 'card_declined'],
    ['1', null, 'lookup', 'error', 'provider_error'],
  ];

  it.each(failures)('answers iyzico failure %s (%s, %s) as %s %s, keeping iyzico\u2019s own code and text', async (code, group, family, kind, mapped) => {
    // iyzico answers failures with 200 mostly, sometimes 4xx: the body decides, not the status.
    iyzico.handle((_req, res) => answer(res, failure(code, group), code === '99' ? 400 : 200));
    const failed = await client().call('op', 'POST', IYZICO_PATHS.payment, body);
    expect(failed.status).toBe('failure');
    expect(mapFailure(failed, family)).toEqual({ kind, code: mapped, providerCode: code, providerMessage: 'bank said no', providerGroup: group });
  });

  it('reads a numeric errorCode and a missing message', () => {
    expect(mapFailure({ errorCode: 10051 }, 'payment')).toEqual({ kind: 'declined', code: 'insufficient_funds', providerCode: '10051', providerMessage: '', providerGroup: null });
    expect(mapFailure({}, 'payment')).toMatchObject({ kind: 'error', code: 'provider_error', providerCode: '' });
  });

  it.each([
    ['cut-off JSON', '{"status":"success","paymentId":"1', 200],
    ['a proxy error page', '<html><body>502 Bad Gateway</body></html>', 502],
    ['JSON that is not an iyzico answer', '{"message":"Internal Server Error"}', 500],
    ['an empty body', '', 200],
  ])('takes %s for no answer (ProviderTimeoutError)', async (_name, text, status) => {
    iyzico.handle((_req, res) => answer(res, text, status));
    await expect(client().call('charge', 'POST', IYZICO_PATHS.payment, body)).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('gives up after its timeout when iyzico is slow', async () => {
    iyzico.handle((_req, res) => {
      setTimeout(() => answer(res, PAID), 3_000).unref();
    });
    const started = Date.now();
    const error = await client({ timeoutMs: 300 }).call('charge', 'POST', IYZICO_PATHS.payment, body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ providerId: 'iyzico', operation: 'charge' });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('takes a reset connection for no answer', async () => {
    iyzico.handle((_req, res) => res.socket?.destroy());
    await expect(client().call('charge', 'POST', IYZICO_PATHS.payment, body)).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('sends a GET (reporting) with its fields in the query, no body, signed over the path alone', async () => {
    iyzico.handle((_req, res) => answer(res, '{"status":"success","locale":"tr","systemTime":1700000000000,"payments":[]}'));
    const before = iyzico.seen.length;
    const query = { locale: 'tr', conversationId: 'report:1', paymentId: '12345' };
    const report = await client({ randomKey: () => 'rnd-1' }).call('refundStatus', 'GET', IYZICO_PATHS.paymentReport, query);
    expect(report.status).toBe('success');
    const [seen] = iyzico.seen.slice(before);
    expect(seen).toMatchObject({ method: 'GET', path: '/v2/reporting/payment/details?locale=tr&conversationId=report%3A1&paymentId=12345', rawBody: '' });
    // As iyzico's Java and PHP clients sign a GET: random key + path, no query, no body.
    const signature = createHmac('sha256', secretKey).update('rnd-1/v2/reporting/payment/details').digest('hex');
    expect(seen!.authorization).toBe(`IYZWSv2 ${Buffer.from(`apiKey:${apiKey}&randomKey:rnd-1&signature:${signature}`).toString('base64')}`);
  });

  it('takes a refused connection for a provider never reached (nothing was sent), still a kind of no answer', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const closed = new IyzicoClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey, secretKey, timeoutMs: 2_000 });
    const refused = closed.call('refund', 'POST', IYZICO_PATHS.refund, body);
    await expect(refused).rejects.toMatchObject({ name: 'ProviderUnreachableError', operation: 'refund' });
    await expect(refused).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('never waits longer than the contract allows', () => {
    expect(() => client({ timeoutMs: MAX_TIMEOUT_MS + 1 })).toThrow(RangeError);
    expect(() => client({ timeoutMs: 0 })).toThrow(RangeError);
    expect(() => client({ timeoutMs: MAX_TIMEOUT_MS })).not.toThrow();
  });
});

describe('IyzicoClient with a failing logger', () => {
  it('still returns the answer', async () => {
    iyzico.handle((_req, res) => answer(res, PAID));
    const logged = client({
      onExchange: () => {
        throw new Error('logger down');
      },
    });
    await expect(logged.call('charge', 'POST', IYZICO_PATHS.payment, body)).resolves.toMatchObject({ status: 'success', paymentId: '12345' });
  });
});
