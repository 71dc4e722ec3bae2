// Installments through an EST account: banks do not quote, so the account carries its own plan.
// Set over GraphQL (rates {"3": "4.5"}), retrieve-bin lists one payment and 3 installments at the
// plan's surcharge (EST has no BIN facts), and a regular-payment in 3 installments charges the
// surcharged total at the bank with Taksit 3; a count the plan does not offer is a 422.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';
import { rowCounts } from '../helpers/rows.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { answerEstAcs, EST_CARDS, estCalls, estOrderOf, seedEstMerchant, useEstEmulator } from '../helpers/est.ts';

const { t } = useGateway();
const est = useEstEmulator();
let m: Merchant;

const PLAN = `mutation ($token: String!, $rates: JSON, $programs: [String!]) {
  setInstallmentPlan(token: $token, rates: $rates, programs: $programs) { result { successful } paymentAccount { installmentPlan } errors { code path } }
}`;

beforeAll(async () => {
  m = await seedEstMerchant(t, est.emulator);
  const access = await createAccessToken(t.gateway.services.db, m.team, 'EST installment plan');
  const res = await gql(t, access, PLAN, { token: m.accountToken, rates: { '3': '4.5' } });
  expect(res.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: true }, paymentAccount: { installmentPlan: { counts: [3], rates: { '3': '4.50' } } } });
});

describe('the account\u2019s own installment plan on EST', () => {
  it('retrieve-bin: no facts from the bank, one payment and 3 installments at 4.5 %', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '43550843' }, transaction: { amount: '100.00' } });

    expect(res.status, res.text).toBe(200);
    expect(res.body.card).toMatchObject({ bin: '43550843', issuer_name: null, scheme: null });
    expect(res.body.installments).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 3, amount: '34.83', total: '104.50' },
    ]);
  });

  it('a regular-payment in 3 installments charges 104.50 with Taksit 3 at the bank', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: 'EST-INST-1', installment_number: 3, amount: '104.50' } }));

    expect(res.body.result, res.text).toEqual({ successful: true, message: null });
    const token = res.body.transaction.token as string;
    expect(await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: token } })).toMatchObject({ status: 'successful', installmentNumber: 3, amount: 10_450n });
    const order = estOrderOf(est.emulator, token)!;
    expect(order.installments).toBe('3');
    expect(order.transactions).toEqual([expect.objectContaining({ chargeType: 'S', status: 'A', amountMinor: 10_450 })]);
    expect(estCalls(t, 'charge').find((c) => c.request.OrderId === order.oid)?.request).toMatchObject({ Total: '104.50', Taksit: '3' });
  });

  it('a secure-payment in 3 installments: the bank form carries taksit 3, the 3D authorisation Taksit 3', async () => {
    const res = await m.call('secure-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: 'EST-INST-2', installment_number: 3, amount: '104.50' } }));
    expect(res.status, res.text).toBe(200);
    const token = res.body.transaction.token as string;
    const answer = await answerEstAcs(res.body.result.redirect_url as string);
    expect(answer.bank.fields).toMatchObject({ taksit: '3', amount: '104.50' });
    expect((await postCallback(answer.callbackUrl, answer.fields)).status).toBe(200);

    const order = estOrderOf(est.emulator, token)!;
    expect(order).toMatchObject({ installments: '3', mdStatus: '1' });
    expect(order.transactions).toEqual([expect.objectContaining({ status: 'A', amountMinor: 10_450 })]);
  });

  it('a count the plan does not offer: 422 at transaction.installment_number, nothing written, nothing sent', async () => {
    const before = { rows: await rowCounts(t), calls: estCalls(t).length };
    const refused = await m.call('regular-payment', paymentBody(m, { card: { number: EST_CARDS.approved }, transaction: { channel_reference: 'EST-INST-3', installment_number: 6, amount: '109.00' } }));
    expectFieldError(refused, 'transaction.installment_number', 'installment_not_offered');
    expect(await rowCounts(t)).toEqual(before.rows);
    expect(estCalls(t)).toHaveLength(before.calls);
  });
});
