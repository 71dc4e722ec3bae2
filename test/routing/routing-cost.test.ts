// Routing by cost through a real gateway: three simulator accounts (a default, a PSP and a bank)
// with commission tables set over GraphQL; the cheaper account charges, routePreview says the
// same (order, reasons, costs, quotes), retrieve-bin quotes each installment count from the account
// that would charge it; bad cost tables are refused at their field paths and write nothing, over
// GraphQL and the CLI.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { cliOn } from '../helpers/cli.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addRoutingRule, createPaymentAccount } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

const { t, merchant: m } = useGateway({ merchant: true });
const db = () => t.gateway.services.db;
const cli = cliOn(t);
let token: string;
let psp: string;
let bank: string;

const COSTS = `mutation ($token: String!, $rates: JSON, $program: String, $cards: String, $fixedFee: AmountInput) {
  setAccountCosts(token: $token, rates: $rates, program: $program, cards: $cards, fixedFee: $fixedFee) {
    result { successful } paymentAccount { token costs { program cards rates fixedFee } } errors { code path }
  }
}`;
const PREVIEW = `query ($bin: String!, $amount: AmountInput!, $currency: String, $installmentCount: Int) {
  routePreview(bin: $bin, amount: $amount, currency: $currency, installmentCount: $installmentCount) {
    result { successful } card { program issuerCode }
    candidates { paymentAccount { token name } reason ruleId cost commissionRate fixedFee installment { number total } }
    errors { code path }
  }
}`;
const setCosts = async (variables: Record<string, unknown>) => (await gql(t, token, COSTS, variables)).body.data?.setAccountCosts;
const preview = async (variables: Record<string, unknown>) => (await gql(t, token, PREVIEW, { bin: '41111111', amount: '100.00', ...variables })).body.data?.routePreview;

beforeAll(async () => {
  token = await createAccessToken(db(), m.team, 'routing cost test');
  psp = (await createPaymentAccount(db(), m.team, { name: 'PSP', currencies: ['TRY'] })).id;
  bank = (await createPaymentAccount(db(), m.team, { name: 'Bank', currencies: ['TRY'] })).id;
  // The PSP's rule comes first: by rule order alone it would take every card.
  const pspRule = await addRoutingRule(db(), m.team, { paymentAccountId: psp });
  const bankRule = await addRoutingRule(db(), m.team, { paymentAccountId: bank });
  expect(pspRule.position).toBeLessThan(bankRule.position);
  // One payment: the bank is cheaper (1.79 % + 0.25 against 2.50 %); three installments: the PSP.
  expect(await setCosts({ token: psp, rates: { '1': '2.50', '3': '2' } })).toMatchObject({ result: { successful: true } });
  expect(await setCosts({ token: bank, rates: { '1': '1.79', '3': '3.10' }, fixedFee: '0.25' })).toMatchObject({
    result: { successful: true },
    paymentAccount: { costs: [{ program: null, cards: 'any', rates: { '1': '1.79', '3': '3.10' }, fixedFee: '0.25' }] },
  });
  // The bank's own installment rates tell its quotes apart (2: 2 % instead of 1.5 %, 3: 5 % instead of 3 %).
  await db().paymentAccount.update({ where: { id: bank }, data: { installmentRatesBp: [0, 200, 500] } });
  await t.gateway.admission.synced();
});

describe('the cheaper account charges', () => {
  it('sends a payment to the bank, which costs less for one payment, although the PSP rule comes first', async () => {
    const res = await m.call('regular-payment', paymentBody(m));

    expect(res.status).toBe(200);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } });
    expect(payment.paymentAccountId).toBe(bank);
  });

  it('answers routePreview with the same order, the reasons and the costs, charging nothing', async () => {
    const before = await db().payment.count({ where: { workspaceId: m.workspaceId } });

    const one = await preview({});

    expect(one.result.successful).toBe(true);
    expect(one.card).toEqual({ program: 'Simülasyon Bonus', issuerCode: '0001' });
    expect(one.candidates.map((c: { paymentAccount: { token: string }; reason: string; cost: string | null }) => [c.paymentAccount.token, c.reason, c.cost])).toEqual([
      [bank, 'cost', '2.04'],
      [psp, 'cost', '2.50'],
      [m.accountToken, 'fallback', null],
    ]);
    expect(one.candidates[0]).toMatchObject({ commissionRate: '1.79', fixedFee: '0.25', installment: { number: 1, total: '100.00' } });
    expect(await db().payment.count({ where: { workspaceId: m.workspaceId } })).toBe(before);

    const three = await preview({ installmentCount: 3 });
    expect(three.candidates.map((c: { paymentAccount: { token: string } }) => c.paymentAccount.token)).toEqual([psp, bank, m.accountToken]);
    expect(three.candidates[0]).toMatchObject({ cost: '2.00', installment: { number: 3, total: '103.00' } });
    expect(three.candidates[1]).toMatchObject({ cost: '3.35', installment: { number: 3, total: '105.00' } });
  });

  it('quotes retrieve-bin from the account that would charge each count', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00' } });

    expect(res.status).toBe(200);
    const byNumber = Object.fromEntries((res.body.installments as Array<{ number: number; total: string }>).map((o) => [o.number, o.total]));
    // 1: the bank (priced cheapest), 3: the PSP (3 % default surcharge, not the bank's 5 %)
    expect(byNumber['1']).toBe('100.00');
    expect(byNumber['3']).toBe('103.00');
    // 2: neither prices it, so both are unknown cost and the PSP's rule comes first: its 1.5 %
    expect(byNumber['2']).toBe('101.50');
  });

  it('goes back to rule order when the costs are removed', async () => {
    expect(await setCosts({ token: bank, rates: null })).toMatchObject({ result: { successful: true }, paymentAccount: { costs: [] } });
    // A cost table's write bumps the workspace's settings version like an account's (migration 0021)
    await t.gateway.admission.synced();
    const res = await m.call('regular-payment', paymentBody(m));
    expect((await db().payment.findUniqueOrThrow({ where: { id: res.body.transaction.token } })).paymentAccountId).toBe(psp);
    await setCosts({ token: bank, rates: { '1': '1.79', '3': '3.10' }, fixedFee: '0.25' });
    await t.gateway.admission.synced();
  });
});

describe('cost tables refused', () => {
  it('names every bad field over GraphQL and writes nothing', async () => {
    const before = await db().accountCost.findMany({ where: { workspaceId: m.workspaceId }, orderBy: { id: 'asc' } });

    const res = await setCosts({ token: psp, rates: { '13': '1', '1': 'abc', '2': '1.234', '3': '101' }, cards: 'mine', fixedFee: '0.001' });

    expect(res.result.successful).toBe(false);
    expect(res.errors.map((e: { path: string[]; code: string }) => [e.path.join('.'), e.code]).sort()).toEqual([
      ['cards', 'value_not_allowed'],
      ['fixedFee', 'amount_format'],
      ['rates.1', 'rate_format'],
      ['rates.13', 'installment_range'],
      ['rates.2', 'rate_format'],
      ['rates.3', 'rate_format'],
    ]);
    expect(await db().accountCost.findMany({ where: { workspaceId: m.workspaceId }, orderBy: { id: 'asc' } })).toEqual(before);
  });

  it('refuses a rule weight outside 1-1000 at its path', async () => {
    const rules = await db().routingRule.count({ where: { workspaceId: m.workspaceId } });
    const res = await gql(t, token, `mutation { addRoutingRule(input: { paymentProviderToken: "${psp}", weight: 0 }) { result { successful } errors { code path } } }`);
    expect(res.body.data.addRoutingRule).toEqual({ result: { successful: false }, errors: [{ code: 'weight_range', path: ['weight'] }] });
    expect(await db().routingRule.count({ where: { workspaceId: m.workspaceId } })).toBe(rules);
  });

  it('sets a program and on-us table from the CLI, and refuses a bad rate at its path writing nothing', async () => {
    const out = await cli.json<{ costs: unknown[] }>('account', 'costs', m.team, psp, '--rate', '1=1.5', '--rate', '6=4.25', '--program', 'simülasyon bonus', '--on-us', '--fixed', '0.10');
    expect(out.costs).toContainEqual({ program: 'simülasyon bonus', cards: 'on_us', rates: { '1': '1.50', '6': '4.25' }, fixedFee: '0.10' });
    const text = await cli.run(['account', 'costs', m.team, psp, '--rate', '1=1.5', '--rate', '6=4.25', '--program', 'simülasyon bonus', '--on-us', '--fixed', '0.10']);
    expect(text.stdout).toContain('simülasyon bonus, on_us cards: 1=1.50% 6=4.25% + 0.10');
    const before = await db().accountCost.findMany({ where: { workspaceId: m.workspaceId }, orderBy: { id: 'asc' } });

    await cli.fails(['account', 'costs', m.team, psp, '--rate', '1=abc'], 'rates.1: ');
    await cli.fails(['account', 'costs', m.team, psp, '--rate', '0=1'], 'rates.0: ');

    expect(await db().accountCost.findMany({ where: { workspaceId: m.workspaceId }, orderBy: { id: 'asc' } })).toEqual(before);
    const issuer = await cli.json<{ issuer_code: string | null }>('account', 'issuer', m.team, psp, '0001');
    expect(issuer.issuer_code).toBe('0001');
    // The simulator's visa (Simülasyon Bonus) is issued by 0001: on-us for the PSP now, whose
    // program table prices it at 1.50 % + 0.10, below the bank's 2.04
    const onUs = await preview({});
    expect(onUs.candidates[0]).toMatchObject({ paymentAccount: { token: psp }, reason: 'cost', cost: '1.60', commissionRate: '1.50' });
    // A mastercard is not on-us and has another program: the PSP's table for any card prices it
    const other = await preview({ bin: '55555555' });
    expect(other.candidates.map((c: { paymentAccount: { token: string }; cost: string }) => [c.paymentAccount.token, c.cost])).toEqual([[bank, '2.04'], [psp, '2.50'], [m.accountToken, null]]);
    await cli.json('account', 'issuer', m.team, psp, 'none');
    expect((await preview({})).candidates[0]).toMatchObject({ paymentAccount: { token: bank } });
  });
});

describe('rule program and weight from the CLI', () => {
  it('adds a rule with a card program and a weight, and refuses a weight outside 1-1000', async () => {
    const rule = await cli.json<{ program: string; weight: number; id: string }>('routing', 'add', m.team, '--account', psp, '--program', 'Simülasyon World', '--weight', '3');
    expect(rule).toMatchObject({ program: 'Simülasyon World', weight: 3 });
    await cli.fails(['routing', 'add', m.team, '--account', psp, '--weight', '0'], '--weight must be a whole number from 1 to 1000');
    await cli.json('routing', 'remove', m.team, rule.id);
  });
});

describe('Payment.routingReason', () => {
  it('shows the reason a payment row records, and null for a row without one', async () => {
    const paid = await m.call('regular-payment', paymentBody(m));
    const id = paid.body.transaction.token as string;
    const reason = async () => (await gql(t, token, `{ payment(token: "${id}") { routingReason } }`)).body.data.payment.routingReason;
    await db().payment.update({ where: { id }, data: { routingReason: null, routingDetail: undefined } });
    expect(await reason()).toBeNull();
    await db().payment.update({ where: { id }, data: { routingReason: 'cost', routingDetail: { ruleId: null, cost: 204 } } });
    expect(await reason()).toBe('cost');
  });
});
