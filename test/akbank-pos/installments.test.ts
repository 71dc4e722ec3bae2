// Installments through Akbank with the account's own rates (Akbank quotes none): the plan set over
// GraphQL ({"3": "4.5"}), and a payment in 3 installments charges the surcharged total with
// Akbank's installCount 3 (API sale, 3-D form and the 3D model's sale after the callback, which
// the callback does not echo); a single payment goes as 1.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { AKBANK_CARDS, akbankCalls, akbankOrder, answerAkbankAcs, bankFormOf, seedAkbankMerchant, useAkbankEmulator } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const akbank = useAkbankEmulator();
let m: Merchant;

const PLAN = `mutation ($token: String!, $rates: JSON) {
  setInstallmentPlan(token: $token, rates: $rates) { result { successful } }
}`;

beforeAll(async () => {
  m = await seedAkbankMerchant(t, akbank.emulator);
  const accessToken = await createAccessToken(t.gateway.services.db, m.team, 'akbank installments test');
  const res = await gql(t, accessToken, PLAN, { token: m.accountToken, rates: { '3': '4.5' } });
  expect(res.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: true } });
});

describe('installments through Akbank at the account\u2019s own rates', () => {
  it('regular-payment in 3 installments: installCount 3 and the surcharged total; a single payment goes as 1', async () => {
    const three = await m.call('regular-payment', paymentBody(m, { card: { number: AKBANK_CARDS.approved }, transaction: { channel_reference: 'AKI-1', installment_number: 3, amount: '104.50' } }));
    expect(three.body.result, three.text).toEqual({ successful: true, message: null });
    expect(await akbankOrder(akbank.emulator, orderOf(three.body.transaction.token as string))).toMatchObject({ installCount: 3, charged: 10_450 });
    const one = await m.call('regular-payment', paymentBody(m, { card: { number: AKBANK_CARDS.approved }, transaction: { channel_reference: 'AKI-2', installment_number: 1, amount: '100.00' } }));
    expect(await akbankOrder(akbank.emulator, orderOf(one.body.transaction.token as string))).toMatchObject({ installCount: 1, charged: 10_000 });
  });

  it('secure-payment in 3 installments (model 3d): installCount 3 on the bank form and again in the sale after the callback', async () => {
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: AKBANK_CARDS.approved }, transaction: { channel_reference: 'AKI-3', installment_number: 3, amount: '104.50', callback_url: `${shop.url}/back` } }));
    const token = started.body.transaction.token as string;
    const form = await bankFormOf(started.body.result.redirect_url as string);
    expect(form.fields).toMatchObject({ amount: '104.50', installCount: '3' });
    // The count comes back with the payment, not packed into the bank's reference.
    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).providerReference).toBe(orderOf(token));
    const answer = await answerAkbankAcs(form, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await akbankOrder(akbank.emulator, orderOf(token))).toMatchObject({ installCount: 3, charged: 10_450 });
    expect(akbankCalls(t, 'complete3D').at(-1)!.request).toMatchObject({ transaction: { installCount: 3 } });
    expect((await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).providerReference).toBe(orderOf(token));
  });
});
