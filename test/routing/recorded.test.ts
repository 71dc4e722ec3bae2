// Why a payment's account was chosen, recorded on the payment row and shown as
// Payment.routingReason: the cheaper account by cost, a token, the default.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addRoutingRule, createPaymentAccount } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

const { t, merchant: m } = useGateway({ merchant: true });
const db = () => t.gateway.services.db;
let token: string;
let psp: string;
let bank: string;

const reasonOf = async (id: string) => (await gql(t, token, `{ payment(token: "${id}") { routingReason } }`)).body.data.payment.routingReason;

beforeAll(async () => {
  token = await createAccessToken(db(), m.team, 'routing recorded');
  psp = (await createPaymentAccount(db(), m.team, { name: 'PSP', currencies: ['TRY'] })).id;
  bank = (await createPaymentAccount(db(), m.team, { name: 'Bank', currencies: ['TRY'] })).id;
  const pspRule = await addRoutingRule(db(), m.team, { paymentAccountId: psp, scheme: 'visa' });
  await addRoutingRule(db(), m.team, { paymentAccountId: bank, scheme: 'visa' });
  await db().accountCost.create({ data: { workspaceId: m.workspaceId, paymentAccountId: psp, installmentCounts: [1, 3], commissionBp: [250, 200] } });
  await db().accountCost.create({ data: { workspaceId: m.workspaceId, paymentAccountId: bank, installmentCounts: [1, 3], commissionBp: [179, 310], fixedFee: 25n } });
  expect(pspRule).toBeTruthy();
});

describe('the recorded reason', () => {
  it('records cost with the rule and the cost for the cheaper account, per installment count', async () => {
    const one = await m.call('regular-payment', paymentBody(m));
    const row = await db().payment.findUniqueOrThrow({ where: { id: one.body.transaction.token } });
    expect(row).toMatchObject({ paymentAccountId: bank, routingReason: 'cost', routingDetail: { ruleId: expect.any(String), cost: 204 } });
    expect(await reasonOf(row.id)).toBe('cost');

    const three = await m.call('regular-payment', paymentBody(m, { transaction: { installment_number: 3, amount: '103.00' } }));
    expect((await db().payment.findUniqueOrThrow({ where: { id: three.body.transaction.token } })).paymentAccountId).toBe(psp);
  });

  it('records token and default', async () => {
    const named = await m.call('regular-payment', paymentBody(m, { transaction: { payment_provider_token: psp } }));
    expect(await db().payment.findUniqueOrThrow({ where: { id: named.body.transaction.token } })).toMatchObject({ routingReason: 'token', routingDetail: { ruleId: null, cost: 250 } });
    const mastercard = await m.call('regular-payment', paymentBody(m, { card: { number: '5555555555554444' } }));
    expect(await db().payment.findUniqueOrThrow({ where: { id: mastercard.body.transaction.token } })).toMatchObject({ paymentAccountId: m.accountToken, routingReason: 'default' });
  });
});
