// An account's installment plan (banks' virtual POS do not quote installments): the counts it
// offers with its own surcharge, and the card programs that may pay in installments. Set over
// GraphQL (422s on the field paths, nothing written), then read by retrieve-bin, the order page's
// installments and the payment attempts (a count the plan does not offer is a 422).
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { expectFieldError } from '../helpers/messages.ts';
import { paymentBody } from '../helpers/payments.ts';
import { orderBody } from '../helpers/orders.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { rowCounts } from '../helpers/rows.ts';

const { t, merchant: m } = useGateway({ merchant: true });
let token: string;

const PLAN = `mutation ($token: String!, $rates: JSON, $programs: [String!]) {
  setInstallmentPlan(token: $token, rates: $rates, programs: $programs) { result { successful } paymentAccount { installmentPlan } errors { code path } }
}`;
const setPlan = (variables: Record<string, unknown>) => gql(t, token, PLAN, { token: m.accountToken, ...variables });
const account = () => t.gateway.services.db.paymentAccount.findUniqueOrThrow({ where: { id: m.accountToken } });
const installmentsFor = async (bin: string) => (await m.call('retrieve-bin', { card: { bin }, transaction: { amount: '100.00' } })).body.installments as Array<{ number: number; total: string }>;

beforeAll(async () => {
  token = await createAccessToken(t.gateway.services.db, m.team, 'installment plan test');
});

describe('setting the plan', () => {
  it('refuses a count outside 2-12 and a rate that is not a percent, at their paths, and writes nothing', async () => {
    const before = await account();
    const res = await setPlan({ rates: { '13': '5', '3': '4.555', '1': '0' }, programs: ['Bonus'] });
    expect(res.body.data?.setInstallmentPlan).toMatchObject({ result: { successful: false } });
    const errors = (res.body.data?.setInstallmentPlan as { errors: Array<{ code: string; path: string[] }> }).errors;
    expect(errors.map((e) => [e.path.join('.'), e.code]).sort()).toEqual([
      ['rates.1', 'installment_range'],
      ['rates.13', 'installment_range'],
      ['rates.3', 'rate_format'],
    ]);
    expect(await account()).toEqual(before);
  });

  it('keeps the counts given with their rates, and the programs', async () => {
    const res = await setPlan({ rates: { '3': '4.5', '6': '9' }, programs: ['Simülasyon Bonus'] });
    expect(res.body.data?.setInstallmentPlan).toMatchObject({
      result: { successful: true },
      paymentAccount: { installmentPlan: { counts: [3, 6], rates: { '3': '4.50', '6': '9.00' }, programs: ['Simülasyon Bonus'] } },
    });
    const a = await account();
    expect(a.installmentRatesBp[2]).toBe(450);
    expect(a.installmentRatesBp[5]).toBe(900);
  });
});

describe('the plan at work', () => {
  beforeAll(async () => {
    await setPlan({ rates: { '3': '4.5', '6': '9' }, programs: ['Simülasyon Bonus'] });
  });

  it('retrieve-bin offers one payment and the plan\u2019s counts at its rates, for a card of an allowed program', async () => {
    // 411111: Simülasyon Bonus (the simulator's BIN facts).
    expect(await installmentsFor('41111111')).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 3, amount: '34.83', total: '104.50' },
      { number: 6, amount: '18.17', total: '109.00' },
    ]);
  });

  it('offers a card of another program a single payment only', async () => {
    // 555555: Simülasyon World.
    expect((await installmentsFor('55555555')).map((o) => o.number)).toEqual([1]);
  });

  it('refuses a regular-payment in a count the plan does not offer, writing nothing; takes one it offers', async () => {
    const before = await rowCounts(t);
    const refused = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'PLAN-1', installment_number: 2, amount: '104.50' } }));
    expectFieldError(refused, 'transaction.installment_number', 'installment_not_offered');
    expect(await rowCounts(t)).toEqual(before);

    const wrongProgram = await m.call('regular-payment', paymentBody(m, { card: { number: '5555555555554444' }, transaction: { channel_reference: 'PLAN-2', installment_number: 3, amount: '104.50' } }));
    expectFieldError(wrongProgram, 'transaction.installment_number', 'installment_not_offered');

    const taken = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'PLAN-3', installment_number: 3, amount: '104.50' } }));
    expect(taken.body.result).toEqual({ successful: true, message: null });
  });

  it('the order page lists the plan\u2019s options and charges the chosen one at its rate', async () => {
    const res = await m.call('order-payment', orderBody(m, { order: { channel_reference: 'ORD-PLAN-1' } }));
    const checkoutUrl = res.body.order.checkout_url as string;
    const quote = await (await fetch(`${checkoutUrl}/installments?bin=41111111`)).json() as { installments: Array<{ number: number }> };
    expect(quote.installments.map((o) => o.number)).toEqual([1, 3, 6]);
    const other = await (await fetch(`${checkoutUrl}/installments?bin=55555555`)).json() as { installments: Array<{ number: number }> };
    expect(other.installments.map((o) => o.number)).toEqual([1]);
  });
});
