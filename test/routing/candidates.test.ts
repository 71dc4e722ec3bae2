// The ordered candidates of a payment (pure, no database): cheapest first, unknown costs after
// priced ones, ties in rule order, the program condition, weighted split groups (reproducible and
// close to their weights), accounts that cannot take the payment left out, a token alone.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountCost, RoutingRule } from '../../src/generated/prisma/client.ts';
import type { BinInfo } from '../../src/providers/types.ts';
import { routeCandidates, routingRecord, type RoutedAccount, type RouteRequest } from '../../src/domain/routing/candidates.ts';
import { costOf } from '../../src/domain/routing/costs.ts';
import { staticRates } from '../../src/domain/conversion.ts';

let position = 0;

function account(name: string, over: Partial<RoutedAccount> = {}): RoutedAccount {
  return {
    id: `acc-${name}`,
    workspaceId: 'w',
    name,
    provider: 'simulator',
    mode: 'test',
    currencies: ['TRY'],
    secure: true,
    nonSecure: true,
    cardStorage: true,
    cardDeletion: true,
    refund: true,
    cancel: true,
    hostedPage: true,
    conversion: false,
    installmentRatesBp: [],
    installmentCounts: [],
    installmentPrograms: [],
    credentials: null,
    settings: {},
    issuerCode: null,
    health: 'healthy',
    healthChangedAt: null,
    healthProbesLeft: 0,
    createdAt: new Date(0),
    deletedAt: null,
    routingRules: [],
    costs: [],
    ...over,
  };
}

function rule(a: RoutedAccount, over: Partial<RoutingRule> = {}): RoutingRule {
  const r: RoutingRule = {
    id: `rule-${++position}`,
    workspaceId: 'w',
    paymentAccountId: a.id,
    position,
    scheme: null,
    cardType: null,
    binPrefix: null,
    issuerCode: null,
    currency: null,
    minAmount: null,
    maxAmount: null,
    program: null,
    weight: null,
    createdAt: new Date(0),
    ...over,
  };
  a.routingRules.push(r);
  return r;
}

/** A cost table: `rates` count -> basis points. */
function cost(a: RoutedAccount, rates: Record<number, number>, over: Partial<AccountCost> = {}): void {
  const counts = Object.keys(rates).map(Number).sort((x, y) => x - y);
  a.costs.push({
    id: `cost-${a.costs.length}-${a.id}`,
    workspaceId: 'w',
    paymentAccountId: a.id,
    program: '',
    cards: 'any',
    installmentCounts: counts,
    commissionBp: counts.map((n) => rates[n]!),
    fixedFee: 0n,
    createdAt: new Date(0),
    ...over,
  });
}

const VISA: BinInfo = { bin: '41111111', issuerName: 'Simülasyon Bank', issuerCode: '0001', scheme: 'visa', type: 'credit', program: 'Bonus', isCommercial: false };

function route(accounts: RoutedAccount[], over: Partial<RouteRequest> = {}) {
  return routeCandidates({
    accounts,
    defaultAccountId: null,
    path: ['transaction', 'paymentProviderToken'],
    card: { bin: VISA, currency: 'TRY', amount: 100_00n },
    installmentCount: 1,
    splitKey: 'payment-1',
    ...over,
  });
}
const names = (list: ReturnType<typeof route>) => list.map((c) => `${c.account.name}:${c.reason}`);

describe('costs', () => {
  it('rounds the commission half up to the minor unit and adds the fixed fee', () => {
    const a = account('psp');
    cost(a, { 1: 179 }, { fixedFee: 25n });
    // 1.79 % of 100.50 = 1.79895 -> 1.80, plus 0.25
    expect(costOf(a, VISA, 100_50n, 1)?.total).toBe(2_05n);
    // 1.79 % of 0.50 = 0.00895 -> 0.01 (half up on the kuruş: 0.895 kuruş -> 1)
    expect(costOf(a, VISA, 50n, 1)?.total).toBe(25n + 1n);
    expect(costOf(a, VISA, 100_00n, 3)).toBeNull();
  });

  it('takes the most specific table that prices the count: program, then on-us, then any', () => {
    const bank = account('bank', { issuerCode: '0001' });
    cost(bank, { 1: 200, 3: 300 });
    cost(bank, { 1: 150 }, { cards: 'on_us' });
    cost(bank, { 1: 100 }, { program: 'bonus' });
    expect(costOf(bank, VISA, 100_00n, 1)?.commissionBp).toBe(100);
    expect(costOf(bank, { ...VISA, program: 'World' }, 100_00n, 1)?.commissionBp).toBe(150);
    expect(costOf(bank, { ...VISA, program: 'World', issuerCode: '0062' }, 100_00n, 1)?.commissionBp).toBe(200);
    // the program table does not price 3: the table for any card does
    expect(costOf(bank, VISA, 100_00n, 3)?.commissionBp).toBe(300);
  });
});

describe('ordering', () => {
  it('puts the cheapest matching account first, whatever the rule order', () => {
    const psp = account('psp');
    const bank = account('bank');
    rule(psp);
    rule(bank);
    cost(psp, { 1: 250 });
    cost(bank, { 1: 179 });

    const list = route([psp, bank]);

    expect(names(list)).toEqual(['bank:cost', 'psp:cost']);
    expect(list[0]!.cost?.total).toBe(1_79n);
    expect(routingRecord(list[0]!)).toEqual({ routingReason: 'cost', routingDetail: { ruleId: bank.routingRules[0]!.id, cost: 179 } });
  });

  it('prices by installment count: the cheapest for 6 may not be the cheapest for 1', () => {
    const psp = account('psp');
    const bank = account('bank');
    rule(psp);
    rule(bank);
    cost(psp, { 1: 250, 6: 400 });
    cost(bank, { 1: 179, 6: 590 });

    expect(names(route([psp, bank], { installmentCount: 6 }))).toEqual(['psp:cost', 'bank:cost']);
  });

  it('keeps rule order between equal costs, and puts unpriced accounts after priced ones', () => {
    const a = account('a');
    const b = account('b');
    const unpriced = account('unpriced');
    const c = account('c');
    rule(unpriced);
    rule(a);
    rule(b);
    rule(c);
    cost(a, { 1: 200 });
    cost(b, { 1: 200 });
    cost(c, { 1: 100 });

    expect(names(route([a, b, unpriced, c]))).toEqual(['c:cost', 'a:cost', 'b:cost', 'unpriced:rule']);
  });

  it('follows the rules with the default as fallback, and takes the default alone when no rule matches', () => {
    const psp = account('psp');
    const fallback = account('default');
    rule(psp, { scheme: 'visa' });

    expect(names(route([psp, fallback], { defaultAccountId: fallback.id }))).toEqual(['psp:rule', 'default:fallback']);
    const mastercard = route([psp, fallback], { defaultAccountId: fallback.id, card: { bin: { ...VISA, scheme: 'mastercard' }, currency: 'TRY', amount: 1n } });
    expect(names(mastercard)).toEqual(['default:default']);
  });

  it('matches a rule on the card program, case-insensitively', () => {
    const bonus = account('bonus');
    const fallback = account('default');
    rule(bonus, { program: 'BONUS' });

    expect(names(route([bonus, fallback], { defaultAccountId: fallback.id }))[0]).toBe('bonus:rule');
    const world = route([bonus, fallback], { defaultAccountId: fallback.id, card: { bin: { ...VISA, program: 'World' }, currency: 'TRY', amount: 1n } });
    expect(names(world)).toEqual(['default:default']);
  });

  it('answers the 422s of no account at all', () => {
    expect(() => route([account('a')])).toThrowError(expect.objectContaining({ issues: [expect.objectContaining({ code: 'no_default_account', path: ['transaction', 'paymentProviderToken'] })] }));
  });
});

describe('eligibility', () => {
  it('leaves out an account that cannot take the currency (conversion only with a rate)', () => {
    const eur = account('eur', { currencies: ['EUR'] });
    const converting = account('converting', { currencies: ['TRY'], conversion: true });
    const tr = account('tr');
    rule(eur);
    rule(converting);
    rule(tr);

    const usd = { card: { bin: VISA, currency: 'USD' as const, amount: 100n } };
    expect(names(route([eur, converting, tr], { ...usd, rates: staticRates('USD:TRY=32.50') }))).toEqual(['converting:rule']);
    expect(names(route([eur, converting, tr], { ...usd, rates: staticRates('EUR:TRY=35.10'), defaultAccountId: tr.id }))).toEqual(['tr:default']);
  });

  it('leaves out an account without a capability the payment needs', () => {
    const no3d = account('no3d', { secure: false });
    const full = account('full');
    rule(no3d);
    rule(full);
    cost(no3d, { 1: 100 });
    cost(full, { 1: 300 });

    expect(names(route([no3d, full], { needs: ['secure'] }))).toEqual(['full:rule']);
    expect(names(route([no3d, full], { needs: ['non_secure'] }))).toEqual(['no3d:cost', 'full:cost']);
    // The provider's own word counts too (a provider without 3D at all)
    expect(names(route([no3d, full], { needs: ['non_secure'], supports: (a) => a.name !== 'no3d' }))).toEqual(['full:rule']);
  });

  it('leaves out an account that does not offer the installment count on this card', () => {
    const world = account('world', { installmentPrograms: ['World'] });
    const six = account('six', { installmentCounts: [2, 3] });
    const any = account('any');
    rule(world);
    rule(six);
    rule(any);
    cost(world, { 1: 100, 6: 100 });

    expect(names(route([world, six, any], { installmentCount: 6 }))).toEqual(['any:rule']);
    // A single payment is always offered
    expect(names(route([world, six, any]))[0]).toBe('world:cost');
  });

  it('lists a token alone, whatever the rules and costs', () => {
    const cheap = account('cheap');
    const named = account('named');
    rule(cheap);
    cost(cheap, { 1: 1 });
    cost(named, { 1: 900 });

    const list = route([cheap, named], { token: named.id });

    expect(names(list)).toEqual(['named:token']);
    expect(routingRecord(list[0]!)).toEqual({ routingReason: 'token', routingDetail: { ruleId: null, cost: 900 } });
    expect(() => route([cheap, named], { token: randomUUID() })).toThrowError(expect.objectContaining({ issues: [expect.objectContaining({ code: 'account_not_found' })] }));
  });
});

describe('weighted split', () => {
  function split() {
    const a = account('a');
    const b = account('b');
    const after = account('after');
    rule(a, { weight: 70 });
    rule(b, { weight: 30 });
    rule(after);
    return [a, b, after];
  }

  it('picks the same rule for the same payment id, and the others follow in order', () => {
    const accounts = split();
    for (const key of ['p-1', 'p-2', 'p-3', 'p-4']) {
      const first = names(route(accounts, { splitKey: key }));
      expect(names(route(accounts, { splitKey: key }))).toEqual(first);
      expect(first.slice().sort()).toEqual(['a:rule', 'after:rule', 'b:rule']);
      expect(first[2]).toBe('after:rule');
    }
  });

  it('splits 1000 payment ids close to the weights', () => {
    const accounts = split();
    let a = 0;
    for (let i = 0; i < 1000; i++) if (route(accounts, { splitKey: `payment-${i}` })[0]!.account.name === 'a') a++;
    // 70 % of 1000 with a generous margin (the standard deviation is about 14.5)
    expect(a).toBeGreaterThan(640);
    expect(a).toBeLessThan(760);
  });

  it('splits only among accounts of equal cost: a cheaper one wins whatever the pick', () => {
    const [a, b, after] = split();
    cost(b!, { 1: 100 });
    cost(a!, { 1: 200 });
    for (const key of ['p-1', 'p-2', 'p-3']) expect(route([a!, b!, after!], { splitKey: key })[0]!.account.name).toBe('b');
  });

  it('picks among the rules of the group that match the card only', () => {
    const a = account('a');
    const b = account('b');
    rule(a, { weight: 99, scheme: 'mastercard' });
    rule(b, { weight: 1 });
    for (let i = 0; i < 20; i++) expect(route([a, b], { splitKey: `k-${i}` })[0]!.account.name).toBe('b');
  });
});
