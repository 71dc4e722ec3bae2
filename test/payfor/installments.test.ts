// Installments through PayFor with the account's own rates (PayFor quotes none): the plan set over
// GraphQL ({"3": "4.5"}), and a payment in 3 installments charges the surcharged total with
// PayFor's InstallmentCount 3 (XML sale and 3D form); a single payment goes as "0".
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerPayforAcs, bankFormOf, PAYFOR_CARDS, payforCalls, payforOrder, seedPayforMerchant, usePayforEmulator } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const payfor = usePayforEmulator();
let m: Merchant;

const PLAN = `mutation ($token: String!, $rates: JSON) {
  setInstallmentPlan(token: $token, rates: $rates) { result { successful } }
}`;

beforeAll(async () => {
  m = await seedPayforMerchant(t, payfor.emulator);
  const accessToken = await createAccessToken(t.gateway.services.db, m.team, 'payfor installments test');
  const res = await gql(t, accessToken, PLAN, { token: m.accountToken, rates: { '3': '4.5' } });
  expect(res.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: true } });
});

describe('installments through PayFor at the account\u2019s own rates', () => {
  it('retrieve-bin quotes the plan, asking PayFor nothing', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '41556501' }, transaction: { amount: '100.00' } });
    expect(res.body.installments).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 3, amount: '34.83', total: '104.50' },
    ]);
    expect(payforCalls(t)).toEqual([]);
  });

  it('regular-payment in 3 installments: InstallmentCount 3 and the surcharged total; a single payment goes as 0', async () => {
    const three = await m.call('regular-payment', paymentBody(m, { card: { number: PAYFOR_CARDS.approved }, transaction: { channel_reference: 'PFI-1', installment_number: 3, amount: '104.50' } }));
    expect(three.body.result, three.text).toEqual({ successful: true, message: null });
    expect(await payforOrder(payfor.emulator, orderOf(three.body.transaction.token as string))).toMatchObject({ installments: '3', charged: 10_450 });
    const one = await m.call('regular-payment', paymentBody(m, { card: { number: PAYFOR_CARDS.approved }, transaction: { channel_reference: 'PFI-2', installment_number: 1, amount: '100.00' } }));
    expect(await payforOrder(payfor.emulator, orderOf(one.body.transaction.token as string))).toMatchObject({ installments: '0', charged: 10_000 });
  });

  it('secure-payment in 3 installments: InstallmentCount 3 on the bank form, the 3D sale in 3', async () => {
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: PAYFOR_CARDS.approved }, transaction: { channel_reference: 'PFI-3', installment_number: 3, amount: '104.50', callback_url: `${shop.url}/back` } }));
    const token = started.body.transaction.token as string;
    const form = await bankFormOf(started.body.result.redirect_url as string);
    expect(form.fields).toMatchObject({ PurchAmount: '104.5', InstallmentCount: '3' });
    const answer = await answerPayforAcs(form, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect(await payforOrder(payfor.emulator, orderOf(token))).toMatchObject({ installments: '3', charged: 10_450 });
  });
});
