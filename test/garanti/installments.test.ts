// Installments through Garanti with the account's own rates (GVP quotes none): the plan set over
// GraphQL ({"3": "4.5"}), retrieve-bin lists it (GVP has no BIN service: the facts are unknown,
// the options are the plan's), and a payment in 3 installments charges the surcharged total with
// GVP's installment count 3 (InstallmentCnt in the XML sale, txninstallmentcount on the 3D form).
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerGarantiAcs, bankFormOf, GARANTI_CARDS, garantiCalls, garantiOrderOf, seedGarantiMerchant, useGarantiEmulator } from '../helpers/garanti.ts';

const { t, receiver: shop } = useGateway({ receiver: true });
const garanti = useGarantiEmulator();
let m: Merchant;
let accessToken: string;

const PLAN = `mutation ($token: String!, $rates: JSON) {
  setInstallmentPlan(token: $token, rates: $rates) { result { successful } paymentAccount { installmentPlan } errors { code path } }
}`;

beforeAll(async () => {
  m = await seedGarantiMerchant(t, garanti.emulator);
  accessToken = await createAccessToken(t.gateway.services.db, m.team, 'garanti installments test');
  const res = await gql(t, accessToken, PLAN, { token: m.accountToken, rates: { '3': '4.5' } });
  expect(res.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: true }, paymentAccount: { installmentPlan: { counts: [3], rates: { '3': '4.50' } } } });
});

describe('installments through Garanti at the account\u2019s own rates', () => {
  it('retrieve-bin: unknown card facts (GVP has no BIN service), one payment and the plan\u2019s 3 at 4.5 %', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '42822090' }, transaction: { amount: '100.00' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.card).toEqual({ bin: '42822090', issuer_name: null, issuer_code: null, scheme: null, type: null, program: null, is_commercial: null });
    expect(res.body.installments).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 3, amount: '34.83', total: '104.50' },
    ]);
    // Nothing asked of GVP for it.
    expect(garantiCalls(t)).toEqual([]);
  });

  it('regular-payment in 3 installments charges the surcharged total with InstallmentCnt 3', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: 'GVPI-1', installment_number: 3, amount: '104.50' } }));
    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    const token = res.body.transaction.token as string;
    const order = await garantiOrderOf(t, garanti.emulator, token);
    expect(order).toMatchObject({ installments: '3', charged: 10_450 });
    expect(order!.txns).toEqual([expect.objectContaining({ type: 'sales', code: '00', amount: 10_450 })]);
    expect(await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).toMatchObject({ amount: 10_450n, installmentNumber: 3 });
  });

  it('a single payment goes with no installment count', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: 'GVPI-2', installment_number: 1, amount: '100.00' } }));
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect((await garantiOrderOf(t, garanti.emulator, res.body.transaction.token as string))!.installments).toBe('');
  });

  it('a count the plan does not offer: 422 at transaction.installment_number, nothing sent to GVP', async () => {
    const before = garantiCalls(t).length;
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: 'GVPI-3', installment_number: 6, amount: '109.00' } }));
    expectFieldError(res, 'transaction.installment_number', 'installment_not_offered');
    expect(garantiCalls(t)).toHaveLength(before);
  });

  it('secure-payment in 3 installments: txninstallmentcount 3 on the bank form, the sale at GVP in 3', async () => {
    const started = await m.call('secure-payment', paymentBody(m, { card: { number: GARANTI_CARDS.approved }, transaction: { channel_reference: 'GVPI-4', installment_number: 3, amount: '104.50', callback_url: `${shop.url}/back` } }));
    expect(started.status, started.text).toBe(200);
    const token = started.body.transaction.token as string;
    const form = await bankFormOf(started.body.result.redirect_url as string);
    expect(form.fields).toMatchObject({ txnamount: '10450', txninstallmentcount: '3' });
    const answer = await answerGarantiAcs(form, 'approve');
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);
    expect((await m.call('retrieve-payment', { transaction: { token } })).body.result).toEqual({ successful: true, message: null });
    expect(await garantiOrderOf(t, garanti.emulator, token)).toMatchObject({ installments: '3', charged: 10_450 });
  });
});
