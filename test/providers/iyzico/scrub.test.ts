import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IyzicoClient, type IyzicoExchange } from '../../../src/providers/iyzico/client.ts';
import { paymentRequest, storeCardRequest, threeDSInitializeRequest } from '../../../src/providers/iyzico/requests.ts';
import { scrub } from '../../../src/providers/iyzico/scrub.ts';
import { isReferenceField } from '../../../src/domain/card-masking.ts';
import { luhnValid } from '../../../src/domain/cards.ts';
import { IYZICO_PATHS } from '../../../src/providers/iyzico/wire.ts';
import type { CardData } from '../../../src/providers/types.ts';
import { answer, startFakeIyzico, type FakeIyzico } from './fake-iyzico.ts';

const apiKey = 'sandbox-scrub-api-key';
/** `body` and the one check digit that makes it pass the Luhn check. */
const withCheckDigit = (body: string): string => [...'0123456789'].map((d) => body + d).find(luhnValid)!;
const secretKey = 'sandbox-scrub-SECRET-0f9e8d7c';
const card: CardData = { holderName: 'Zeynep Kaya', number: '4543590000000006', securityCode: '739', expiryMonth: '07', expiryYear: '2031' };
let iyzico: FakeIyzico;

beforeAll(async () => {
  iyzico = await startFakeIyzico(apiKey, secretKey);
});
afterAll(() => iyzico.close());

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value !== null && typeof value === 'object') Object.entries(value).forEach(([k, v]) => (out.push(k), strings(v, out)));
  return out;
}

/** Nothing a logger receives may carry the card, its CVC, the secret or the signed header. */
function expectClean(exchanges: IyzicoExchange[], authorizations: string[]): void {
  const text = JSON.stringify(exchanges);
  expect(text).not.toContain(card.number);
  expect(text).not.toContain(secretKey);
  expect(text).not.toContain('IYZWSv2');
  for (const header of authorizations) expect(text).not.toContain(header.slice('IYZWSv2 '.length));
  const values = strings(exchanges);
  expect(values).not.toContain(card.securityCode);
  expect(values.filter((v) => v.includes(card.holderName))).toEqual([]);
}

describe('what the iyzico client hands to a logger', () => {
  it('never contains card data, the secret key or the Authorization header', async () => {
    // A 3D answer whose page embeds the card number, as some issuers' pages do.
    const page = Buffer.from(`<form><input name="pan" value="${card.number}"><input name="cvv" value="739"></form>`).toString('base64');
    iyzico.handle((req, res) => {
      if (req.path === IYZICO_PATHS.cardStorage) {
        answer(res, JSON.stringify({ status: 'success', cardUserKey: 'u', cardToken: 't', binNumber: '454359', lastFourDigits: '0006', cardAlias: 'card 0006' }));
      } else if (req.path === IYZICO_PATHS.threeDSInitialize) {
        answer(res, JSON.stringify({ status: 'success', paymentId: '1', threeDSHtmlContent: page }));
      } else {
        // An answer echoing the card where it should not (defence in depth).
        answer(res, JSON.stringify({ status: 'failure', errorCode: '12', errorMessage: `Invalid card number ${card.number}` }));
      }
    });
    const exchanges: IyzicoExchange[] = [];
    const client = new IyzicoClient({ baseUrl: iyzico.url, apiKey, secretKey, timeoutMs: 2_000, onExchange: (e) => exchanges.push(e) });
    const ctx = { locale: 'tr' as const };
    const input = { idempotencyKey: 'pay-scrub', amount: 1000n, currency: 'TRY' as const, installmentNumber: 1, card };
    const before = iyzico.seen.length;
    await client.call('charge', 'POST', IYZICO_PATHS.payment, paymentRequest(input, ctx));
    await client.call('authorise3D', 'POST', IYZICO_PATHS.threeDSInitialize, threeDSInitializeRequest(input, 'https://gw.example/cb', ctx));
    await client.call('storeCard', 'POST', IYZICO_PATHS.cardStorage, storeCardRequest({ idempotencyKey: 's', card }, ctx));
    const seen = iyzico.seen.slice(before);

    // The requests did carry the card (so the test means something), and every exchange was reported.
    expect(seen.every((r) => r.signatureValid && r.rawBody.includes(card.number))).toBe(true);
    expect(exchanges.map((e) => [e.operation, e.outcome])).toEqual([['charge', 'answered'], ['authorise3D', 'answered'], ['storeCard', 'answered']]);
    expectClean(exchanges, seen.map((r) => r.authorization));
    // What stays is what support needs.
    expect(exchanges[0]).toMatchObject({ path: '/payment/auth', httpStatus: 200, request: { conversationId: 'pay-scrub', price: '10.0', paymentCard: { cardNumber: '************0006' } }, response: { errorCode: '12' } });
    expect(exchanges[1]!.response).toMatchObject({ paymentId: '1', threeDSHtmlContent: `[${page.length} characters]` });
  });

  it('scrubs the request of a call that got no answer', async () => {
    iyzico.handle((_req, res) => {
      setTimeout(() => answer(res, '{"status":"success"}'), 2_000).unref();
    });
    const exchanges: IyzicoExchange[] = [];
    const client = new IyzicoClient({ baseUrl: iyzico.url, apiKey, secretKey, timeoutMs: 200, onExchange: (e) => exchanges.push(e) });
    const before = iyzico.seen.length;
    await expect(client.call('charge', 'POST', IYZICO_PATHS.payment, paymentRequest({ idempotencyKey: 'k', amount: 1n, currency: 'TRY', installmentNumber: 1, card }, { locale: 'tr' }))).rejects.toThrow();
    expect(exchanges).toMatchObject([{ outcome: 'no_answer', httpStatus: null, response: null }]);
    expectClean(exchanges, iyzico.seen.slice(before).map((r) => r.authorization));
  });

  it('masks any card number in any field, as iyzico sent it or typed with spaces', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11,18}$/), fc.string({ maxLength: 10 }), fc.string({ minLength: 1, maxLength: 10 }), (body, around, key) => {
        // Digits right beside the number would make it another (longer) one; references are kept by name.
        fc.pre(!isReferenceField(key) && !/^\d|\d$/.test(around));
        const digits = withCheckDigit(body);
        const typed = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
        const scrubbed = JSON.stringify(scrub({ [key]: `${around}${digits}${around}`, nested: [{ note: typed }] }));
        expect(scrubbed).not.toContain(digits);
        expect(scrubbed).not.toContain(typed);
      }),
    );
  });
});
