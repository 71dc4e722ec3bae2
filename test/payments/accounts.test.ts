// Which payment account takes a payment (contract convention 10: the account token, else the
// first routing rule that matches, else the default) and currency conversion by an account that does not take the payment's currency.
import { describe, expect, it } from 'vitest';
import { addRoutingRule, createPaymentAccount } from '../../src/domain/workspaces.ts';
import type { PaymentAccount } from '../../src/generated/prisma/client.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, type MessageCode } from '../helpers/messages.ts';
import { CARDS, completeThreeDs, paymentBody } from '../helpers/payments.ts';
import { rowCounts } from '../helpers/rows.ts';

const { t, seed, merchants } = useGateway({
  // A TRY-only account that converts: USD:TRY=32.50 and EUR:TRY=35.10 from CONVERSION_RATES.
  merchants: { converting: { currencies: ['TRY'], capabilities: { conversion: true } } },
});
let reference = 600;

const db = () => t.gateway.services.db;
const accountOf = async (token: string) => (await db().payment.findUniqueOrThrow({ where: { id: token } })).paymentAccountId;
const newAccount = (m: Merchant, name: string, extra: Omit<Parameters<typeof createPaymentAccount>[2], 'name'> = {}): Promise<PaymentAccount> =>
  createPaymentAccount(db(), m.team, { name, ...extra });

async function pay(m: Merchant, over: { transaction?: Record<string, unknown>; card?: Record<string, unknown> } = {}, kind = 'regular-payment') {
  const res = await m.call(kind, paymentBody(m, { transaction: { channel_reference: `ACC-${reference++}`, ...over.transaction }, card: over.card }));
  return res;
}

describe('account selection', () => {
  it('uses the workspace default when no token is sent and no rule matches', async () => {
    const m = await seed();

    const res = await pay(m);

    expect(await accountOf(res.body.transaction.token)).toBe(m.accountToken);
  });

  it('uses the account named by payment_provider_token', async () => {
    const m = await seed();
    const second = await newAccount(m, 'Second');

    const res = await pay(m, { transaction: { payment_provider_token: second.id } });

    expect(res.body.result.successful).toBe(true);
    expect(await accountOf(res.body.transaction.token)).toBe(second.id);
  });

  it('routes by the card: the first matching rule wins, other cards go to the default', async () => {
    // Given rules: mastercard -> A, then mastercard -> B, then debit cards -> C
    const m = await seed();
    const [a, b, c] = [await newAccount(m, 'A'), await newAccount(m, 'B'), await newAccount(m, 'C')];
    await addRoutingRule(db(), m.team, { paymentAccountId: a.id, scheme: 'mastercard' });
    await addRoutingRule(db(), m.team, { paymentAccountId: b.id, scheme: 'mastercard' });
    await addRoutingRule(db(), m.team, { paymentAccountId: c.id, cardType: 'debit' });

    // When a mastercard credit, a troy debit and a visa credit card pay
    const mastercard = await pay(m, { card: { number: CARDS.mastercard } });
    const troy = await pay(m, { card: { number: CARDS.troy } });
    const visa = await pay(m, { card: { number: CARDS.approved } });

    // Then each went where its rule (or the default) says
    expect(await accountOf(mastercard.body.transaction.token)).toBe(a.id);
    expect(await accountOf(troy.body.transaction.token)).toBe(c.id);
    expect(await accountOf(visa.body.transaction.token)).toBe(m.accountToken);
  });

  it.each([
    ['BIN prefix', { binPrefix: '555555' }, { card: { number: CARDS.mastercard } }, { card: { number: CARDS.approved } }],
    ['issuer code', { issuerCode: '0002' }, { card: { number: CARDS.mastercard } }, { card: { number: CARDS.approved } }],
    ['currency', { currency: 'EUR' as const }, { transaction: { currency: 'EUR' } }, { transaction: { currency: 'TRY' } }],
    ['amount range', { minAmount: 100000n, maxAmount: 200000n }, { transaction: { amount: '1500.00' } }, { transaction: { amount: '2000.01' } }],
  ])('routes by %s', async (_name, rule, matching, notMatching) => {
    const m = await seed();
    const routed = await newAccount(m, 'Routed');
    await addRoutingRule(db(), m.team, { paymentAccountId: routed.id, ...rule });

    const yes = await pay(m, matching);
    const no = await pay(m, notMatching);

    expect(await accountOf(yes.body.transaction.token)).toBe(routed.id);
    expect(await accountOf(no.body.transaction.token)).toBe(m.accountToken);
  });

  it('lets an explicit payment_provider_token win over the rules', async () => {
    const m = await seed();
    const routed = await newAccount(m, 'Routed');
    const chosen = await newAccount(m, 'Chosen');
    await addRoutingRule(db(), m.team, { paymentAccountId: routed.id, scheme: 'visa' });

    const res = await pay(m, { transaction: { payment_provider_token: chosen.id } });

    expect(await accountOf(res.body.transaction.token)).toBe(chosen.id);
  });

  it('skips a rule whose account was deleted', async () => {
    const m = await seed();
    const gone = await newAccount(m, 'Gone');
    await addRoutingRule(db(), m.team, { paymentAccountId: gone.id, scheme: 'visa' });
    await db().paymentAccount.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });

    const res = await pay(m);

    expect(await accountOf(res.body.transaction.token)).toBe(m.accountToken);
  });

  it('routes without a default account, and answers 422 when nothing matches', async () => {
    const m = await seed({ defaultAccount: false });
    await addRoutingRule(db(), m.team, { paymentAccountId: m.accountToken, scheme: 'troy' });

    const troy = await pay(m, { card: { number: CARDS.troy } });
    const before = await rowCounts(t);
    const visa = await pay(m);

    expect(await accountOf(troy.body.transaction.token)).toBe(m.accountToken);
    expectFieldError(visa, 'transaction.payment_provider_token', 'no_default_account');
    expect(await rowCounts(t)).toEqual(before);
  });

  it.each([
    ['secure-payment', { secure: false }, 'account_no_secure'],
    ['regular-payment', { nonSecure: false }, 'account_no_non_secure'],
  ] as const)('%s through a default account without that payment type is 422', async (kind, capabilities, code: MessageCode) => {
    const m = await seed({ capabilities });
    const before = await rowCounts(t);

    const res = await pay(m, {}, kind);

    expectFieldError(res, 'transaction.payment_provider_token', code);
    expect(await rowCounts(t)).toEqual(before);
  });

  it('a default account that does not take the currency is 422 on transaction.currency', async () => {
    const m = await seed({ currencies: ['TRY'] });

    const res = await pay(m, { transaction: { currency: 'GBP' } });

    expectFieldError(res, 'transaction.currency', 'currency_not_supported');
  });
});

describe('conversion', () => {
  const m = merchants.converting;

  it('regular-payment in USD is charged in TRY at the configured rate and says so', async () => {
    const res = await pay(m, { transaction: { currency: 'USD', amount: '10.00' } });

    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.conversion).toEqual({ amount: '325.00', currency: 'TRY', rate: '32.50' });
    const retrieved = await m.call('retrieve-payment', { transaction: { token: res.body.transaction.token } });
    expect(retrieved.body.conversion).toEqual({ amount: '325.00', currency: 'TRY', rate: '32.50' });
  });

  it('rounds the converted amount half up to the kuruş', async () => {
    // 19.99 EUR x 35.10 = 701.649 TRY
    const res = await pay(m, { transaction: { currency: 'EUR', amount: '19.99' } });

    expect(res.body.conversion).toEqual({ amount: '701.65', currency: 'TRY', rate: '35.10' });
  });

  it('secure-payment shows the conversion at the start and the charged amount on the bank page', async () => {
    const res = await pay(m, { transaction: { currency: 'USD', amount: '2.00' } }, 'secure-payment');

    expect(res.body.conversion).toEqual({ amount: '65.00', currency: 'TRY', rate: '32.50' });
    const page = await completeThreeDs(res.body.result.redirect_url, 'approve');
    // The bank page formats money for its reader (Turkish by default: 65,00 TRY).
    expect(page.pageHtml).toContain('65,00 TRY');
  });

  it('is null when the account takes the payment currency', async () => {
    const res = await pay(m, { transaction: { currency: 'TRY' } });

    expect(res.body.conversion).toBeNull();
  });

  it('refunds in the charged currency: at most the converted amount, by default all of it', async () => {
    const paid = await pay(m, { transaction: { currency: 'USD', amount: '10.00' } });
    const token = paid.body.transaction.token;

    const tooMuch = await m.call('refund-payment', { transaction: { token }, amount: '325.01' });
    const part = await m.call('refund-payment', { transaction: { token }, amount: '300.00' });
    const rest = await m.call('refund-payment', { transaction: { token } });

    expectFieldError(tooMuch, 'amount', 'refund_exceeds');
    expect(part.body.refund).toEqual({ type: 'refund', amount: '300.00' });
    expect(rest.body.refund).toEqual({ type: 'refund', amount: '25.00' });
    expect(rest.body.conversion).toEqual({ amount: '325.00', currency: 'TRY', rate: '32.50' });
  });

  it('cancels the converted amount', async () => {
    const paid = await pay(m, { transaction: { currency: 'USD', amount: '10.00' } });

    const res = await m.call('cancel-payment', { transaction: { token: paid.body.transaction.token } });

    expect(res.body.refund).toEqual({ type: 'cancel', amount: '325.00' });
  });

  it('refuses installments on a USD payment even when it is charged in TRY', async () => {
    const res = await pay(m, { transaction: { currency: 'USD', installment_number: 2 } });

    expectFieldError(res, 'transaction.installment_number', 'installment_only_try');
  });

  it('allows installments on a TRY payment charged in TRY', async () => {
    const res = await pay(m, { transaction: { currency: 'TRY', installment_number: 6 } });

    expect(res.body.result.successful).toBe(true);
  });
});
