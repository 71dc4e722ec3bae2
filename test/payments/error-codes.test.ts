// `error_code` on a failed payment's answer: the simulator's decline table in
// docs/decisions.md, card by card, over REST (result.error_code) and GraphQL (result.errorCode).
// A successful REST answer keeps the contract's bytes: no error_code key at all.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { msg } from '../helpers/messages.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { deepKeys, toCamel } from '../../src/rest/case.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let reference = 9000;
let token: string;

beforeAll(async () => {
  token = await createAccessToken(t.gateway.services.db, m.team, 'dashboard');
});

/** Each decline the simulator gives a payment without 3D: card, code, Turkish and English text. */
const DECLINES = [
  [CARDS.insufficientFunds, {}, 'insufficient_funds', 'Yetersiz bakiye', 'Insufficient funds'],
  [CARDS.expired, {}, 'expired_card', 'Kartın süresi dolmuş', 'The card has expired'],
  [CARDS.approved, { expiry_year: '2020' }, 'expired_card', 'Kartın süresi dolmuş', 'The card has expired'],
  [CARDS.providerError, {}, 'provider_error', 'Banka sistem hatası', 'Bank system error'],
  ['4111111111111112', {}, 'invalid_card_number', 'Geçersiz kart numarası', 'Invalid card number'],
  [CARDS.timeout, {}, 'provider_timeout', msg('provider_timeout'), msg('provider_timeout', {}, 'en')],
] as const;

function regularBody(number: string, card: Record<string, unknown> = {}) {
  const body = paymentBody(m, { transaction: { channel_reference: `CODE-${reference++}` }, card: { number, ...card } });
  delete (body.transaction as Record<string, unknown>).callback_url;
  return body;
}

const retrieve = (tokenOf: string, lang?: string) => m.call('retrieve-payment', { transaction: { token: tokenOf } }, lang ? { headers: { 'Accept-Language': lang } } : {});

describe('REST: result.error_code of a failed payment', () => {
  it.each(DECLINES)('regular-payment with card %s %j answers error_code %s', async (number, card, code, tr, en) => {
    const res = await m.call('regular-payment', regularBody(number, card));

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: tr, error_code: code });
    const paymentToken = res.body.transaction.token as string;
    expect((await retrieve(paymentToken)).body.result).toEqual({ successful: false, message: tr, error_code: code });
    // The code does not follow the language; the message does.
    expect((await retrieve(paymentToken, 'en')).body.result).toEqual({ successful: false, message: en, error_code: code });
  });

  it('secure-payment declined on the 3D page answers error_code 3ds_failed on retrieve-payment', async () => {
    const body = paymentBody(m, { transaction: { channel_reference: `CODE-${reference++}` } });
    const started = await m.call('secure-payment', body);
    expect(started.body.result).toEqual({ successful: true, message: null, redirect_url: expect.any(String) });

    await completeThreeDs(started.body.result.redirect_url, 'decline');

    const res = await retrieve(started.body.transaction.token);
    expect(res.body.result).toEqual({ successful: false, message: '3D doğrulama başarısız', error_code: '3ds_failed' });
  });

  it('secure-payment refused at the start answers error_code before redirect_url', async () => {
    const res = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `CODE-${reference++}` }, card: { expiry_year: '2020' } }));

    expect(res.text).toContain('"result":{"successful":false,"message":"Kartın süresi dolmuş","error_code":"expired_card","redirect_url":null}');
  });

  it.each([
    ['refund-payment', { amount: '10.00' }],
    ['cancel-payment', {}],
  ])('%s rejected by the provider answers error_code refund_rejected', async (operation, extra) => {
    const paid = await m.call('regular-payment', regularBody(CARDS.refundRejected));
    expect(paid.body.result).toEqual({ successful: true, message: null });

    const res = await m.call(operation, { transaction: { token: paid.body.transaction.token }, ...extra });

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: false, message: 'İade veya iptal isteği banka tarafından reddedildi', error_code: 'refund_rejected' });
  });

  it('leaves error_code out of successful answers and of a 3D payment still open', async () => {
    const paid = await m.call('regular-payment', regularBody(CARDS.approved));
    expect(paid.text).toContain('"result":{"successful":true,"message":null}');
    expect((await retrieve(paid.body.transaction.token)).text).toContain('"result":{"successful":true,"message":null}');

    const started = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `CODE-${reference++}` } }));
    expect(Object.keys(started.body.result)).toEqual(['successful', 'message', 'redirect_url']);
    expect((await retrieve(started.body.transaction.token)).body.result).toEqual({ successful: false, message: '' });
  });
});

describe('GraphQL: result.errorCode of a failed payment', () => {
  const PAY = `mutation Pay($input: PaymentInput!) {
    regularPayment(input: $input) { result { successful message errorCode } transaction { token } errors { code } }
  }`;
  const RETRIEVE = `query Get($input: RetrievePaymentInput!) { retrievePayment(input: $input) { result { successful message errorCode } } }`;

  it.each(DECLINES)('regularPayment with card %s %j answers errorCode %s', async (number, card, code, _tr, en) => {
    const input = deepKeys(regularBody(number, card), toCamel);

    const res = await gql(t, token, PAY, { input });

    expect(res.body.errors).toBeUndefined();
    const paid = res.body.data.regularPayment;
    expect(paid.errors).toEqual([]);
    expect(paid.result).toEqual({ successful: false, message: en, errorCode: code });
    const again = await gql(t, token, RETRIEVE, { input: { transaction: { token: paid.transaction.token } } });
    expect(again.body.data.retrievePayment.result).toEqual({ successful: false, message: en, errorCode: code });
  });

  it('answers errorCode null for a successful payment', async () => {
    const res = await gql(t, token, PAY, { input: deepKeys(regularBody(CARDS.approved), toCamel) });

    expect(res.body.data.regularPayment.result).toEqual({ successful: true, message: null, errorCode: null });
  });
});
