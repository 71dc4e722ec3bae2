// One ranking for quotes and payments: accounts are ranked on the amount asked, before the
// installment surcharge. The two accounts' tables cross between that amount and the surcharged
// total (3 % against 1 % + 20.50: A is cheaper on 1000.00, C on 1040.00), so ranking a payment on
// what it charges would send it to another account than the one retrieve-bin quoted from.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addRoutingRule, createPaymentAccount } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { setAccountCosts } from '../../src/domain/routing/cost-settings.ts';

const { t, merchant: m } = useGateway({ merchant: true });
const db = () => t.gateway.services.db;
let token: string;
let a: string;
let c: string;
let ruleA: string;

const PREVIEW = `query ($amount: AmountInput!) {
  routePreview(bin: "41111111", amount: $amount, installmentCount: 3) { candidates { paymentAccount { token } cost installment { total } } }
}`;
const previewAt = async (amount: string) =>
  ((await gql(t, token, PREVIEW, { amount })).body.data.routePreview.candidates as Array<{ paymentAccount: { token: string }; cost: string; installment: { total: string } | null }>).map((c) => [c.paymentAccount.token, c.cost]);

beforeAll(async () => {
  const ws = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  token = await createAccessToken(db(), m.team, 'quote agrees test');
  a = (await createPaymentAccount(db(), m.team, { name: 'A', currencies: ['TRY'] })).id;
  c = (await createPaymentAccount(db(), m.team, { name: 'C', currencies: ['TRY'] })).id;
  ruleA = (await addRoutingRule(db(), m.team, { paymentAccountId: a })).id;
  await addRoutingRule(db(), m.team, { paymentAccountId: c });
  await setAccountCosts(t.gateway.services, ws, a, { rates: { '3': '3' } });
  await setAccountCosts(t.gateway.services, ws, c, { rates: { '3': '1' }, fixedFee: '20.50' });
  // A surcharges 3 installments 4 % (1000.00 -> 1040.00), C the default 3 % (-> 1030.00).
  await db().paymentAccount.update({ where: { id: a }, data: { installmentRatesBp: [0, 200, 400] } });
  await t.gateway.admission.synced();
});

describe('a quote and the payment made from it', () => {
  it('rank differently on the two amounts: A on 1000.00, C on the surcharged 1040.00', async () => {
    expect((await previewAt('1000.00')).slice(0, 2)).toEqual([
      [a, '30.00'],
      [c, '30.50'],
    ]);
    expect((await previewAt('1040.00')).slice(0, 2)).toEqual([
      [c, '30.90'],
      [a, '31.20'],
    ]);
  });

  it('are the same account: retrieve-bin quotes 3 installments from A, and the payment sent as quoted is charged by A', async () => {
    const quote = await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '1000.00' } });
    expect(quote.status).toBe(200);
    const three = (quote.body.installments as Array<{ number: number; total: string }>).find((o) => o.number === 3);
    expect(three?.total).toBe('1040.00');

    const res = await m.call('regular-payment', paymentBody(m, { transaction: { amount: three!.total, base_amount: '1000.00', installment_number: 3 } }));

    expect(res.status).toBe(200);
    expect(res.body.result.successful).toBe(true);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
    expect(payment).toMatchObject({ paymentAccountId: a, amount: 104_000n, baseAmount: 100_000n, installmentNumber: 3, routingReason: 'cost', routingDetail: { ruleId: ruleA, cost: 3000 } });
  });

  it('a payment without base_amount asked 1040.00: ranked on that, C charges it', async () => {
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { amount: '1040.00', installment_number: 3, channel_reference: 'ORDER-1040' } }));
    const payment = await db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token as string } });
    expect(payment).toMatchObject({ paymentAccountId: c, routingReason: 'cost', routingDetail: { cost: 3090 } });
  });
});
