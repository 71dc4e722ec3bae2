// retrieve-bin (contract: retrieve-bin, Errors, Limits; accounts, routing, the simulator's BINs),
// through a real gateway: every rule with its status, field path and Turkish message.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addRoutingRule, createPaymentAccount, type RoutingRuleInput } from '../../src/domain/workspaces.ts';
import type { CallResult } from '../helpers/client.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectFieldError, type MessageCode } from '../helpers/messages.ts';

const { t, merchant: m, seed } = useGateway({ merchant: true });

const binRequest = (bin: unknown, transaction: Record<string, unknown> = { amount: '100.00' }) => ({ card: { bin }, transaction });

/** A 422 whose only error is `code` at `path`, in Turkish, also given as the result message. */
const expectOnlyError = (res: CallResult, path: string, code: MessageCode) => expectFieldError(res, path, code, { only: true });

// 100.00 TRY at the simulator's default rates: 0 % for 1, then 1.5 % per extra month;
// total rounded to the kuruş, amount = total / number rounded half up.
const TRY_100_INSTALLMENTS = [
  { number: 1, amount: '100.00', total: '100.00' },
  { number: 2, amount: '50.75', total: '101.50' },
  { number: 3, amount: '34.33', total: '103.00' },
  { number: 4, amount: '26.13', total: '104.50' },
  { number: 5, amount: '21.20', total: '106.00' },
  { number: 6, amount: '17.92', total: '107.50' },
  { number: 7, amount: '15.57', total: '109.00' },
  { number: 8, amount: '13.81', total: '110.50' },
  { number: 9, amount: '12.44', total: '112.00' },
  { number: 10, amount: '11.35', total: '113.50' },
  { number: 11, amount: '10.45', total: '115.00' },
  { number: 12, amount: '9.71', total: '116.50' },
];

describe('card.bin', () => {
  it.each([
    ['fewer than 6 digits', '41111', 'bin_too_short'],
    ['empty', '', 'bin_too_short'],
    ['more than 8 digits', '411111111', 'bin_too_long'],
    ['a letter among digits', '4111a111', 'bin_digits_only'],
    ['a space', '411111 1', 'bin_digits_only'],
    ['a dash', '4111-11', 'bin_digits_only'],
    ['non-ASCII digits', '٤١١١١١', 'bin_digits_only'],
    ['a trailing newline', '411111\n', 'bin_digits_only'],
  ] as const)('rejects %s with 422 at card.bin', async (_label, bin, code) => {
    expectOnlyError(await m.call('retrieve-bin', binRequest(bin)), 'card.bin', code);
  });

  it('rejects a missing card.bin as required', async () => {
    expectOnlyError(await m.call('retrieve-bin', { card: {}, transaction: { amount: '100.00' } }), 'card.bin', 'required');
  });

  it('rejects a null card.bin as required', async () => {
    expectOnlyError(await m.call('retrieve-bin', binRequest(null)), 'card.bin', 'required');
  });

  it('rejects a missing card object as required', async () => {
    expectOnlyError(await m.call('retrieve-bin', { transaction: { amount: '100.00' } }), 'card', 'required');
  });

  it.each(['411111', '4111111', '41111111'])('accepts %s (6 to 8 digits)', async (bin) => {
    const res = await m.call('retrieve-bin', binRequest(bin));

    expect(res.status).toBe(200);
    expect(res.body.card.bin).toBe(bin);
  });
});

describe('transaction.amount', () => {
  it('rejects a missing amount as required', async () => {
    expectOnlyError(await m.call('retrieve-bin', binRequest('411111', {})), 'transaction.amount', 'required');
  });

  it('rejects a missing transaction object as required', async () => {
    expectOnlyError(await m.call('retrieve-bin', { card: { bin: '411111' } }), 'transaction', 'required');
  });

  it.each(['1,00', '1.234', '-5', 'abc', '', ' 100', '100.', '.50', '1e3'])('rejects %j with the amount format message', async (amount) => {
    expectOnlyError(await m.call('retrieve-bin', binRequest('411111', { amount })), 'transaction.amount', 'amount_format');
  });

  it.each(['0', '0.00'])('rejects a zero amount %j as not positive', async (amount) => {
    expectOnlyError(await m.call('retrieve-bin', binRequest('411111', { amount })), 'transaction.amount', 'amount_positive');
  });

  it.each([
    ['100', '100.00'],
    ['100.1', '100.10'],
    ['100.10', '100.10'],
    [100, '100.00'],
    [12.5, '12.50'],
  ])('accepts %j as %s', async (amount, formatted) => {
    const res = await m.call('retrieve-bin', binRequest('411111', { amount }));

    expect(res.status).toBe(200);
    expect(res.body.installments[0]).toEqual({ number: 1, amount: formatted, total: formatted });
  });
});

describe('transaction.currency', () => {
  it.each(['XYZ', 'try', 'TL', ''])('rejects %j as an invalid currency', async (currency) => {
    expectOnlyError(await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', currency })), 'transaction.currency', 'currency_invalid');
  });

  it('defaults to TRY when the currency is omitted or null', async () => {
    const omitted = await m.call('retrieve-bin', binRequest('411111'));
    const nulled = await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', currency: null }));

    expect(omitted.body.installments).toEqual(TRY_100_INSTALLMENTS);
    expect(nulled.body.installments).toEqual(TRY_100_INSTALLMENTS);
  });

  it('rejects a currency the account does not take with 422 at transaction.currency', async () => {
    // Given a workspace whose default account only takes TRY
    const tryOnly = await seed({ currencies: ['TRY'] });

    // When USD is asked for
    const res = await tryOnly.call('retrieve-bin', binRequest('411111', { amount: '100.00', currency: 'USD' }));

    // Then the currency is refused
    expectOnlyError(res, 'transaction.currency', 'currency_not_supported');
  });
});

describe('transaction.payment_provider_token', () => {
  it('rejects a token that is not a UUID', async () => {
    const res = await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', payment_provider_token: 'acct-1' }));

    expectOnlyError(res, 'transaction.payment_provider_token', 'invalid_uuid');
  });

  it('rejects an unknown token as not found', async () => {
    const res = await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', payment_provider_token: randomUUID() }));

    expectOnlyError(res, 'transaction.payment_provider_token', 'account_not_found');
  });

  it("answers another workspace's account token exactly like an unknown one", async () => {
    // Given another workspace's real account
    const other = await seed();

    // When its token is sent here
    const foreign = await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', payment_provider_token: other.accountToken }));
    const unknown = await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', payment_provider_token: randomUUID() }));

    // Then the answer cannot be told apart from an unknown token
    expectOnlyError(foreign, 'transaction.payment_provider_token', 'account_not_found');
    expect(foreign.text).toBe(unknown.text);
  });

  it('uses the account named by the token', async () => {
    const res = await m.call('retrieve-bin', binRequest('411111', { amount: '100.00', payment_provider_token: m.accountToken }));

    expect(res.status).toBe(200);
  });

  it('rejects a request without a token when the workspace has no default account', async () => {
    // Given a workspace with an account that is not the default
    const noDefault = await seed({ defaultAccount: false });

    // When no token is sent
    const res = await noDefault.call('retrieve-bin', binRequest('411111'));

    // Then there is no account to ask
    expectOnlyError(res, 'transaction.payment_provider_token', 'no_default_account');
    // And naming the account explicitly works
    const named = await noDefault.call('retrieve-bin', binRequest('411111', { amount: '100.00', payment_provider_token: noDefault.accountToken }));
    expect(named.status).toBe(200);
  });
});

describe('installments', () => {
  it('lists 12 TRY installments with exact amounts and totals for 100.00', async () => {
    const res = await m.call('retrieve-bin', binRequest('41111111', { amount: '100.00', currency: 'TRY' }));

    expect(res.status).toBe(200);
    expect(res.body.installments).toEqual(TRY_100_INSTALLMENTS);
  });

  it.each(['USD', 'EUR', 'GBP'])('gives no installments in %s', async (currency) => {
    const res = await m.call('retrieve-bin', binRequest('41111111', { amount: '100.00', currency }));

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(res.body.installments).toEqual([]);
  });

  it('computes installments on the converted TRY amount when a TRY account converts USD', async () => {
    // Given the default account takes only TRY and converts (USD:TRY=32.50 in the default rates)
    const converting = await seed({ currencies: ['TRY'], capabilities: { conversion: true } });

    // When 10.00 USD is asked for
    const res = await converting.call('retrieve-bin', binRequest('41111111', { amount: '10.00', currency: 'USD' }));

    // Then the card would be charged 325.00 TRY, so TRY installments apply to that amount
    expect(res.status).toBe(200);
    expect(res.body.installments).toHaveLength(12);
    expect(res.body.installments[0]).toEqual({ number: 1, amount: '325.00', total: '325.00' });
    expect(res.body.installments[1]).toEqual({ number: 2, amount: '164.94', total: '329.88' });
    expect(res.body.installments[11]).toEqual({ number: 12, amount: '31.55', total: '378.63' });
  });

  it('gives no installments when a USD account converts a TRY amount', async () => {
    const converting = await seed({ currencies: ['USD'], capabilities: { conversion: true } });

    const res = await converting.call('retrieve-bin', binRequest('41111111', { amount: '1000.00', currency: 'TRY' }));

    expect(res.status).toBe(200);
    expect(res.body.installments).toEqual([]);
  });

  it('rejects a conversion whose rate is unknown at transaction.currency', async () => {
    // Given no EUR:USD rate in the rate table
    const converting = await seed({ currencies: ['USD'], capabilities: { conversion: true } });

    const res = await converting.call('retrieve-bin', binRequest('41111111', { amount: '10.00', currency: 'EUR' }));

    expectOnlyError(res, 'transaction.currency', 'conversion_rate_unavailable');
  });

  it('uses the rates configured on the account', async () => {
    // Given an account with its own monthly rates: 0 % for 1, 10 % for 2, default after that
    await createPaymentAccount(t.gateway.services.db, m.team, { name: 'Own rates', installmentRatesBp: [0, 1000] });
    const own = await t.gateway.services.db.paymentAccount.findFirstOrThrow({ where: { workspaceId: m.workspaceId, name: 'Own rates' } });
    await t.gateway.admission.synced();

    const res = await m.call('retrieve-bin', binRequest('41111111', { amount: '100.00', payment_provider_token: own.id }));

    expect(res.body.installments[1]).toEqual({ number: 2, amount: '55.00', total: '110.00' });
    expect(res.body.installments[2]).toEqual(TRY_100_INSTALLMENTS[2]);
  });
});

describe('the BIN card object', () => {
  it('describes a known 8-digit BIN', async () => {
    const res = await m.call('retrieve-bin', binRequest('41111111'));

    expect(res.body.card).toEqual({
      bin: '41111111',
      issuer_name: 'Simülasyon Bank',
      issuer_code: '0001',
      scheme: 'visa',
      type: 'credit',
      program: 'Simülasyon Bonus',
      is_commercial: false,
    });
  });

  it('describes a known 6-digit BIN', async () => {
    const res = await m.call('retrieve-bin', binRequest('555555'));

    expect(res.body.card).toEqual({
      bin: '555555',
      issuer_name: 'Simülasyon Katılım Bankası',
      issuer_code: '0002',
      scheme: 'mastercard',
      type: 'credit',
      program: 'Simülasyon World',
      is_commercial: false,
    });
  });

  it('returns the digits sent as bin when only their 6-digit range is known', async () => {
    const res = await m.call('retrieve-bin', binRequest('9792039'));

    expect(res.body.card).toMatchObject({ bin: '9792039', scheme: 'troy', type: 'debit' });
  });

  it('answers an unknown BIN with every field null except bin', async () => {
    const res = await m.call('retrieve-bin', binRequest('12345678'));

    expect(res.status).toBe(200);
    expect(res.body.card).toEqual({
      bin: '12345678',
      issuer_name: null,
      issuer_code: null,
      scheme: null,
      type: null,
      program: null,
      is_commercial: null,
    });
    expect(res.body.installments).toEqual(TRY_100_INSTALLMENTS);
  });

  it('answers with exactly result, card and installments', async () => {
    const res = await m.call('retrieve-bin', binRequest('41111111'));

    expect(Object.keys(res.body)).toEqual(['result', 'card', 'installments']);
    expect(res.body.result).toEqual({ successful: true, message: null });
    expect(Object.keys(res.body.card)).toEqual(['bin', 'issuer_name', 'issuer_code', 'scheme', 'type', 'program', 'is_commercial']);
    expect(Object.keys(res.body.installments[0])).toEqual(['number', 'amount', 'total']);
  });
});

describe('routing rules choose the account when no token is sent', () => {
  /**
   * A workspace whose default account takes only TRY, plus a EUR-only account that `rule` routes
   * to. A EUR request therefore succeeds exactly when it is routed to the EUR account.
   */
  async function routedWorkspace(...rules: Array<Omit<RoutingRuleInput, 'paymentAccountId'>>) {
    const merchant = await seed({ currencies: ['TRY'] });
    const euro = await createPaymentAccount(t.gateway.services.db, merchant.team, { name: 'Euro', currencies: ['EUR'] });
    for (const rule of rules) await addRoutingRule(t.gateway.services.db, merchant.team, { paymentAccountId: euro.id, ...rule });
    const eur = (bin: string, amount = '100.00') => merchant.call('retrieve-bin', binRequest(bin, { amount, currency: 'EUR' }));
    return { merchant, euro, eur };
  }

  it('routes a BIN matching a binPrefix rule to the rule account', async () => {
    const { eur } = await routedWorkspace({ binPrefix: '555555' });

    const routed = await eur('55555555');

    expect(routed.status).toBe(200);
    expect(routed.body.installments).toEqual([]);
  });

  it('falls back to the default account when no rule matches', async () => {
    const { eur } = await routedWorkspace({ binPrefix: '555555' });

    expectOnlyError(await eur('41111111'), 'transaction.currency', 'currency_not_supported');
  });

  it('matches a binPrefix on the digits sent, even beyond the range the provider knows', async () => {
    // Given a 7-digit prefix rule inside the known 6-digit range 411111
    const { eur } = await routedWorkspace({ binPrefix: '4111112' });

    // Then a BIN starting with it is routed, and a sibling in the same range is not
    expect((await eur('41111129')).status).toBe(200);
    expectOnlyError(await eur('41111139'), 'transaction.currency', 'currency_not_supported');
  });

  it('routes by scheme', async () => {
    const { eur } = await routedWorkspace({ scheme: 'mastercard' });

    expect((await eur('555555')).status).toBe(200);
    expect((await eur('510510')).status).toBe(200);
    expectOnlyError(await eur('411111'), 'transaction.currency', 'currency_not_supported');
  });

  it('routes by card type and issuer code together', async () => {
    const { eur } = await routedWorkspace({ cardType: 'debit', issuerCode: '0001' });

    expect((await eur('979203')).status).toBe(200);
    expectOnlyError(await eur('510510'), 'transaction.currency', 'currency_not_supported');
    expectOnlyError(await eur('411111'), 'transaction.currency', 'currency_not_supported');
  });

  it('routes by amount range (bounds included)', async () => {
    const { eur } = await routedWorkspace({ minAmount: 5000n, maxAmount: 10000n });

    expect((await eur('411111', '50.00')).status).toBe(200);
    expect((await eur('411111', '100.00')).status).toBe(200);
    expectOnlyError(await eur('411111', '100.01'), 'transaction.currency', 'currency_not_supported');
    expectOnlyError(await eur('411111', '49.99'), 'transaction.currency', 'currency_not_supported');
  });

  it('routes by currency', async () => {
    const { merchant } = await routedWorkspace({ currency: 'EUR' });

    expect((await merchant.call('retrieve-bin', binRequest('411111', { amount: '100.00', currency: 'EUR' }))).status).toBe(200);
    expect((await merchant.call('retrieve-bin', binRequest('411111', { amount: '100.00', currency: 'TRY' }))).status).toBe(200);
  });

  it('passes over a routed account that cannot take the currency (TRY to the EUR-only account goes to the default)', async () => {
    const { merchant } = await routedWorkspace({ binPrefix: '555555' });

    const res = await merchant.call('retrieve-bin', binRequest('555555'));

    expect(res.status).toBe(200);
    expect(res.body.installments).toEqual(TRY_100_INSTALLMENTS);
  });

  it('takes the first matching rule among accounts that can take the payment and cost the same', async () => {
    // Given a first rule sending mastercard to a second EUR account that offers no installments,
    // then a rule sending 555555 to the EUR account of the workspace (neither has a cost table)
    const { merchant, eur, euro } = await routedWorkspace();
    const single = await createPaymentAccount(t.gateway.services.db, merchant.team, { name: 'Euro single', currencies: ['EUR', 'TRY'] });
    // (a 1 % surcharge on one payment tells its quote apart)
    await t.gateway.services.db.paymentAccount.update({ where: { id: single.id }, data: { installmentCounts: [1], installmentRatesBp: [100] } });
    await addRoutingRule(t.gateway.services.db, merchant.team, { paymentAccountId: single.id, scheme: 'mastercard' });
    await addRoutingRule(t.gateway.services.db, merchant.team, { paymentAccountId: euro.id, binPrefix: '555555' });
    expect((await eur('555555')).status).toBe(200);

    // Then the first rule wins the single payment; the counts its plan does not offer are
    // quoted by the account that would charge them, the default
    const res = await merchant.call('retrieve-bin', binRequest('555555'));
    expect(res.body.installments).toEqual([{ number: 1, amount: '101.00', total: '101.00' }, ...TRY_100_INSTALLMENTS.slice(1)]);
  });

  it('ignores routing when a token names the account', async () => {
    const { merchant, eur } = await routedWorkspace({ binPrefix: '555555' });
    expect((await eur('555555')).status).toBe(200);

    const res = await merchant.call('retrieve-bin', binRequest('555555', { amount: '100.00', currency: 'EUR', payment_provider_token: merchant.accountToken }));

    expectOnlyError(res, 'transaction.currency', 'currency_not_supported');
  });

  it('routes even when the workspace has no default account', async () => {
    const merchant = await seed({ defaultAccount: false, currencies: ['EUR'] });
    await addRoutingRule(t.gateway.services.db, merchant.team, { paymentAccountId: merchant.accountToken, scheme: 'visa' });

    const routed = await merchant.call('retrieve-bin', binRequest('411111', { amount: '1.00', currency: 'EUR' }));
    const unrouted = await merchant.call('retrieve-bin', binRequest('555555', { amount: '1.00', currency: 'EUR' }));

    expect(routed.status).toBe(200);
    expectOnlyError(unrouted, 'transaction.payment_provider_token', 'no_default_account');
  });
});

describe('writes', () => {
  it('writes nothing, for valid and invalid requests alike', async () => {
    const db = t.gateway.services.db;
    const counts = () =>
      Promise.all([db.customer.count(), db.payment.count(), db.idempotencyRecord.count(), db.outboxEvent.count(), db.paymentAccount.count(), db.routingRule.count()]);
    const before = await counts();

    await m.call('retrieve-bin', binRequest('41111111'));
    await m.call('retrieve-bin', binRequest('4111'));
    await m.call('retrieve-bin', binRequest('41111111', { amount: 'abc', payment_provider_token: randomUUID() }));
    await m.call('retrieve-bin', binRequest('41111111', { amount: '100.00', currency: 'USD' }));

    expect(await counts()).toEqual(before);
    expect(await db.customer.count()).toBe(0);
  });
});
