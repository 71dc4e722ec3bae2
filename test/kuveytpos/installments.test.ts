// Installments through KuveytPOS with the account's own rates (KuveytPOS quotes none): the plan
// set over GraphQL ({"3": "4.5"}), and a payment in 3 installments charges the surcharged total
// with InstallmentCount 3 (the non-3D sale, and both the 3-D enrollment and its provision); a
// single payment goes as "0".
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { orderOf } from '../helpers/bank-orders.ts';
import { seedBankMerchant } from '../helpers/bank.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { acsTrip, KUVEYT_CARDS, kuveytBankAccount, kuveytCalls, kuveytOrder, useKuveytEmulator } from './helpers.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const kuveyt = useKuveytEmulator();
let m: Merchant;

const PLAN = `mutation ($token: String!, $rates: JSON) {
  setInstallmentPlan(token: $token, rates: $rates) { result { successful } }
}`;

beforeAll(async () => {
  m = await seedBankMerchant(t, kuveytBankAccount(kuveyt.emulator));
  const accessToken = await createAccessToken(t.gateway.services.db, m.team, 'kuveytpos installments test');
  const res = await gql(t, accessToken, PLAN, { token: m.accountToken, rates: { '3': '4.5' } });
  expect(res.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: true } });
});

describe('installments through KuveytPOS at the account\u2019s own rates', () => {
  it('retrieve-bin quotes the plan, asking KuveytPOS nothing', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '45063491' }, transaction: { amount: '100.00' } });
    expect(res.body.installments).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 3, amount: '34.83', total: '104.50' },
    ]);
    expect(kuveytCalls(t)).toEqual([]);
  });

  it('regular-payment in 3 installments: InstallmentCount 3 and the surcharged total; a single payment goes as 0', async () => {
    const three = await m.call('regular-payment', paymentBody(m, { card: { number: KUVEYT_CARDS.approved }, transaction: { channel_reference: 'KTI-1', installment_number: 3, amount: '104.50' } }));
    expect(three.body.result, three.text).toEqual({ successful: true, message: null });
    expect(await kuveytOrder(kuveyt.emulator, orderOf(three.body.transaction.token as string))).toMatchObject({ installments: '3', amount: 10_450 });
    const one = await m.call('regular-payment', paymentBody(m, { card: { number: KUVEYT_CARDS.approved }, transaction: { channel_reference: 'KTI-2', installment_number: 1, amount: '100.00' } }));
    expect(await kuveytOrder(kuveyt.emulator, orderOf(one.body.transaction.token as string))).toMatchObject({ installments: '0', amount: 10_000 });
  });

  it('secure-payment in 3 installments: InstallmentCount 3 in the enrollment and again in the provision', async () => {
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: KUVEYT_CARDS.approved }, transaction: { channel_reference: 'KTI-3', installment_number: 3, amount: '104.50', callback_url: `${shop.url}/back` } }));
    const token = started.body.transaction.token as string;
    expect(kuveytCalls(t, 'start3D').at(-1)!.request).toMatchObject({ message: { InstallmentCount: '3', Amount: '10450' } });
    const trip = await acsTrip(started.body.result.redirect_url as string, 'approve');
    expect((await postCallback(trip.callbackUrl, trip.fields)).status).toBe(200);
    expect(kuveytCalls(t, 'complete3D').at(-1)!.request).toMatchObject({ message: { InstallmentCount: '3', Amount: '10450' } });
    expect(await kuveytOrder(kuveyt.emulator, orderOf(token))).toMatchObject({ responseCode: '00', installments: '3', amount: 10_450 });
  });
});
