// One payment attempt: the only way the gateway takes money, whoever asks for it (the API's
// secure/regular-payment, an order page, and next subscription pages and renewals and link
// pages). It asks routing for the payment's route (its account, and where it moves after a
// technical failure: src/domain/routing/route.ts), plans the charge (conversion, installments), writes the
// payment row with the card columns that may be stored, calls the bank (3D start or direct
// charge) and settles. What differs per owner comes in as data (`source`, `customer`, `claim`) and
// through the owner table (owners.ts): the events, the page after a failed 3D step. The API's
// payments take one statement to write and one to settle; owners with a claim or more to do at
// settlement take a transaction for either.
import { commitAfterBank, readAfterBank, refusedWhenBusy } from '../../db/busy.ts';
import { randomUUID } from 'node:crypto';
import { sealFor } from '../secrets.ts';
import { Prisma, type Customer, type Payment, type PaymentAccount } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { insertRow, insertRowCtes, insertRowUnder, updateRow, type Columns, type Upsert } from '../../db/rows.ts';
import type { Services } from '../services.ts';
import type { Currency } from '../money.ts';
import type { BasketItem, Redirect, Shopper } from '../../providers/types.ts';
import { allowsInstallments } from '../installment-plan.ts';
import { unknownBin } from '../bin-source.ts';
import { ProviderTimeoutError, ProviderUnreachableError } from '../../providers/types.ts';
import { covers } from '../plans.ts';
import { planCharge, type ChargePlan } from '../charge-currency.ts';
import { ValidationError } from '../errors.ts';
import { message } from '../messages.ts';
import { savePaymentCard } from '../saved-cards.ts';
import { loadPaymentView, paymentViewOf, VIEW_ROW_COLUMNS, type PaymentView, type ViewRow, type ViewRowColumn } from './view.ts';
import { refusal, settleAfterBank, type Final } from './settle.ts';
import { scheduleReconcile } from './reconcile.ts';
import type { Capability } from '../routing/choice.ts';
import { routePayment, type Move, type PaymentRoute } from '../routing/route.ts';
import { pageInstallments } from '../routing/quotes.ts';
import { requireCardVault } from '../card-vault.ts';
import type { CardSource } from './card-source.ts';
import { startJudgement, type Judgement, type RiskQuestion, type RiskRecord } from '../risk/judge.ts';
import { COUNT_CTE, countAttempt, countAttemptWith, type AlongsideWrite } from '../risk/guard.ts';
import { refuseAttempt, refuseWritten } from './refused.ts';

export const THREE_DS_WINDOW_MS = 15 * 60 * 1000;
/**
 * The most a card payment may ask for: 10,000,000.00 in any currency, the contract's ceiling for
 * payment links, applied to every way of paying (API payments, orders) so one rule holds.
 */
export const MAX_CARD_PAYMENT = 1_000_000_000n;
export const EXPIRE_PAYMENT_JOB = 'expire-payment';

import type { AttemptRequest, AttemptResult, Security } from './attempt-request.ts';
export type { AttemptRequest, AttemptResult, Claimed, OwnerColumns, Security } from './attempt-request.ts';


export async function attemptPayment(s: Services, req: AttemptRequest): Promise<AttemptResult> {
  const id = randomUUID();
  const judgement = await startJudgement(s, riskQuestion(req), id);
  if ('attempt' in judgement && countedWithRow(req)) return countedAttempt(s, req, id, judgement);
  const risk = 'decided' in judgement ? judgement.decided : await judgement.finish(await countAttempt(s.db, req.workspace, judgement.attempt));
  if (risk.code) return refuseAttempt(s, req, id, { ...risk, code: risk.code });
  const plan = await planAttempt(s, req, id);
  const now = s.clock.now();
  const columns = rowColumns(req, id, plan, now, risk.record);
  const claim = req.claim;
  // Without an owner's claim the payment row (with its customer) is one statement, atomic on its
  // own: no transaction, no BEGIN and COMMIT round trips. A saturated database refuses either
  // before anything is written (503).
  const { payment, customer } = claim
    ? await s.db.$transaction(async (tx) => {
        const { customer, ...owner } = await claim(tx, now);
        const written = await writePayment(tx, { ...columns, ...owner }, req.customer);
        return { payment: written.payment, customer: written.customer ?? customer ?? null };
      })
    : await refusedWhenBusy(s.db, () => writePayment(s.db, columns, req.customer));
  return callBank(s, req, payment.id, plan, bankRequest(req, plan), customer, null);
}

/**
 * Whether the guard counts the attempt in the statement that writes its row instead of one of its
 * own: a payment priced by the merchant (no bank is asked while its account is chosen) and written
 * without an owner's claim (the API's payments). The row is written `started` under the account
 * routing chose; an attempt the decision then refuses is settled failed and unrouted (refused.ts),
 * so it reads as one that never reached account choice.
 */
const countedWithRow = (req: AttemptRequest): boolean => req.pricing === 'given' && !req.claim;

/** The counted attempt: account choice, then the row and the count in one statement, then the decision. */
async function countedAttempt(s: Services, req: AttemptRequest, id: string, judgement: Extract<Judgement, { attempt: unknown }>): Promise<AttemptResult> {
  const plan = await planAttempt(s, req, id);
  const columns = rowColumns(req, id, plan, s.clock.now(), null);
  const { row, ...counted } = await refusedWhenBusy(s.db, () => countAttemptWith<WrittenCustomer>(s.db, req.workspace, judgement.attempt, rowWrite(columns, req.customer)));
  const risk = await judgement.finish(counted);
  if (risk.code) {
    await plan.route.release();
    return refuseWritten(s, req, id, { ...risk, code: risk.code });
  }
  const customer = row.customerId === null ? null : { id: row.customerId, channelReference: row.customerReference };
  return callBank(s, req, id, plan, bankRequest(req, plan), customer, risk.record);
}

/** The customer the counted statement wrote the payment under, if any. */
type WrittenCustomer = { customerId: string; customerReference: string } | { customerId: null; customerReference: null };

/** The payment's row (under its customer) as the write that runs in the guard's statement. */
function rowWrite(columns: Columns<Payment>, customer: Upsert<Customer> | undefined): AlongsideWrite {
  if (!customer) return { ctes: insertRowCtes('Payment', columns, ['id']), row: Prisma.sql`SELECT NULL::uuid AS "customerId", NULL::text AS "customerReference"` };
  return {
    // The customer's row is written (and locked) only once the count has read its windows: a new
    // card waits there for its source's lock (risk_window), and two payments of one customer must
    // not each hold one of the two locks while waiting for the other.
    ctes: insertRowCtes<Payment, Customer>('Payment', columns, ['id'], { parent: customer, key: 'customerId', after: COUNT_CTE }),
    row: Prisma.sql`SELECT parent.id AS "customerId", parent."channelReference" AS "customerReference" FROM parent`,
  };
}

/** The payment row as written before the bank is asked; `risk` null when the decision is written with the row's next change (countedAttempt). */
function rowColumns(req: AttemptRequest, id: string, plan: AttemptPlan, now: Date, risk: RiskRecord | null): Columns<Payment> {
  const { account, routing, priced } = plan.route;
  return {
    id,
    ...routing,
    workspaceId: req.workspace.id,
    channelId: req.channelId,
    paymentAccountId: account.id,
    source: req.source,
    securityType: req.security === 'secure' ? 'secure' : 'non_secure',
    status: 'started',
    channelReference: req.channelReference,
    amount: priced.amount,
    baseAmount: priced.baseAmount,
    currency: req.currency,
    installmentNumber: req.installmentNumber,
    chargedAmount: priced.charge.conversion?.amount ?? null,
    chargedCurrency: priced.charge.conversion?.currency ?? null,
    conversionRate: priced.charge.conversion?.rate ?? null,
    isTest: account.mode === 'test',
    ip: req.ip,
    callbackUrl: req.callbackUrl,
    ...req.card.cardColumns,
    shouldSave: req.shouldSave ?? false,
    ...(risk ? { risk } : {}),
    createdAt: now,
  };
}

/** What the bank is asked to charge. */
function bankRequest(req: AttemptRequest, plan: AttemptPlan): BankRequest {
  const priced = plan.route.priced;
  return {
    amount: priced.bankAmount,
    currency: priced.bankCurrency,
    installmentNumber: req.installmentNumber,
    shopper: { ...req.shopper, ...(req.ip ? { ip: req.ip } : {}) },
    // Items describe what is sold: only when the bank charges exactly their sum.
    ...(basketFits(req.basket, priced.bankAmount) ? { basket: req.basket } : {}),
    ...req.card.providerSource,
  };
}

/** What the risk decision is asked (risk/judge.ts). */
const riskQuestion = (req: AttemptRequest): RiskQuestion => ({ ...req, email: req.shopper?.email ?? null, target: req.risk?.target ?? null, renewal: req.risk?.renewal ?? false });

/** What the attempt reads of the customer it wrote: the answer's view shows its reference. */
type CustomerRef = Pick<Customer, 'id' | 'channelReference'>;

/**
 * The payment row, under the customer it is for when there is one: one statement either way.
 * Only the payment's id and the customer's reference come back: the rest is known already.
 */
async function writePayment(db: Tx, columns: Columns<Payment>, customer: Upsert<Customer> | undefined): Promise<{ payment: Pick<Payment, 'id'>; customer: CustomerRef | null }> {
  if (!customer) return { payment: await insertRow<Payment, 'id'>(db, 'Payment', columns, ['id']), customer: null };
  const { row, parent } = await insertRowUnder<Payment, Customer, 'id', 'id' | 'channelReference'>(db, customer, 'customerId', 'Payment', columns, { row: ['id'], parent: ['id', 'channelReference'] });
  return { payment: row, customer: parent };
}

interface AttemptPlan {
  /** The account, why it was chosen, what is charged there, and where the payment moves after a technical failure. */
  route: PaymentRoute<Priced>;
  /** Where the card is stored (card.should_save), else null: the charging account or the workspace's card storage account. */
  vault: PaymentAccount | null;
}

/** What the payment charges at an account. */
interface Priced {
  charge: ChargePlan;
  /** The payment's `amount` and `base_amount` columns. */
  amount: bigint;
  baseAmount: bigint;
  /** What the bank is asked to charge. */
  bankAmount: bigint;
  bankCurrency: Currency;
}

const NEEDS: Record<Security, Capability[]> = { secure: ['secure'], regular: ['nonSecure'] };

/** The amount the owner asked for, before any installment surcharge: what routing ranks accounts on. */
const askedAmount = (req: AttemptRequest): bigint => (req.pricing === 'given' ? (req.baseAmount ?? req.amount) : req.amount);

/** Every check before anything is written: account, capabilities, currency, installments, card storage. */
async function planAttempt(s: Services, req: AttemptRequest, paymentId: string): Promise<AttemptPlan> {
  const route = await routePayment(s, {
    workspace: req.workspace,
    choice: {
      token: req.accountToken,
      path: req.paths.account,
      needs: NEEDS[req.security],
      card: req.card.bin,
      currency: req.currency,
      baseAmount: askedAmount(req),
      installmentCount: req.installmentNumber,
      splitKey: paymentId,
    },
    savedCard: req.card.account ? { account: req.card.account, path: req.paths.savedCard ?? req.paths.account } : null,
    price: (account) => price(s, req, account),
    // A payment moves only where the shopper is charged exactly the figure shown.
    samePrice: (a, b) => a.amount === b.amount && a.bankAmount === b.bankAmount && a.bankCurrency === b.bankCurrency,
  });
  return { route, vault: req.shouldSave ? await cardVault(s, req, route.account) : null };
}

/** Where a card to save goes (card-vault.ts): the plan must cover saved cards, and some account must store them. */
async function cardVault(s: Services, req: AttemptRequest, charging: PaymentAccount): Promise<PaymentAccount> {
  const path = req.paths.shouldSave ?? ['card', 'shouldSave'];
  if (!covers(req.workspace, 'saved_cards')) throw ValidationError.single(path, 'plan_saved_cards');
  return requireCardVault(s, req.workspace, charging, path);
}

async function price(s: Services, req: AttemptRequest, account: PaymentAccount): Promise<Priced> {
  const charge = planCharge(account, req.amount, req.currency, s.rates, req.paths.currency);
  return { charge, ...(req.pricing === 'given' ? priceGiven(req, account, charge) : await priceQuoted(s, req, account, charge)) };
}

type Amounts = Omit<Priced, 'charge'>;

function priceGiven(req: AttemptRequest, account: PaymentAccount, charge: ChargePlan): Amounts {
  // Installments exist only in TRY, also when conversion charges the card in another currency.
  if (charge.currency !== 'TRY' && req.installmentNumber !== 1) throw ValidationError.single(req.paths.installmentNumber, 'installment_only_try');
  if (!allowsInstallments(account, req.card.bin, req.installmentNumber)) throw ValidationError.single(req.paths.installmentNumber, 'installment_not_offered');
  return { amount: req.amount, baseAmount: askedAmount(req), bankAmount: charge.amount, bankCurrency: charge.currency };
}

async function priceQuoted(s: Services, req: AttemptRequest, account: PaymentAccount, charge: ChargePlan): Promise<Amounts> {
  const asked = { amount: req.amount, baseAmount: req.amount, bankAmount: charge.amount, bankCurrency: charge.currency };
  const bin = req.card.bin ?? unknownBin('');
  if (req.installmentNumber > 1) {
    const option = (await pageInstallments(s, account, charge, bin)).find((o) => o.number === req.installmentNumber);
    if (!option) throw ValidationError.single(req.paths.installmentNumber, charge.currency === 'TRY' && !charge.conversion ? 'installment_not_offered' : 'installment_only_try');
    // The surcharge is part of what is charged; base_amount keeps the amount asked for.
    return { ...asked, amount: option.total, bankAmount: option.total, bankCurrency: 'TRY' };
  }
  // An account may quote a surcharge even for one installment; charge what the page showed.
  const single = (await pageInstallments(s, account, charge, bin)).find((o) => o.number === 1);
  return single ? { ...asked, amount: single.total, bankAmount: single.total, bankCurrency: 'TRY' } : asked;
}

function basketFits(basket: BasketItem[] | undefined, amount: bigint): basket is BasketItem[] {
  return !!basket?.length && basket.reduce((sum, item) => sum + item.price, 0n) === amount;
}

/** Where the bank's ACS posts a 3D payment's result: one address per payment. */
export const threeDsCallbackUrl = (s: Services, paymentId: string): string => `${s.baseUrl}/checkout/3ds/callback/${paymentId}`;

/** What the bank is asked to charge: amount and currency as charged, and the card or saved card. */
type BankRequest = { amount: bigint; currency: Currency; installmentNumber: number; shopper: Shopper; basket?: BasketItem[] } & CardSource['providerSource'];

/**
 * The bank step of a written, `started` payment: start 3D (secure) or charge (regular), then
 * settle what the bank answered.
 */
async function callBank(s: Services, req: AttemptRequest, paymentId: string, plan: AttemptPlan, request: BankRequest, customer: CustomerRef | null, pendingRisk: RiskRecord | null): Promise<AttemptResult> {
  const security = req.security;
  // A decision taken after the row was written (countedAttempt) goes with each of its next changes.
  const risk: Columns<Payment> = pendingRisk ? { risk: pendingRisk } : {};
  // No card to save at settlement: a regular payment saves it after, a 3D one on its page.
  const settle = (final: Final) => settleAfterBank(s, { id: paymentId, workspaceId: req.workspace.id, source: req.source }, final, risk);
  const viewOf = async (row: ViewRow) => rowView(row, customer) ?? (await readAfterBank(() => loadPaymentView(s.db, paymentId)));
  // card.should_save: the vault's provider keeps the card; the saved card appears once the payment succeeds.
  const vault = plan.vault;
  // The row moves with the payment, before the next account is asked: a crash in between leaves a
  // row that names the account and key of the call in flight.
  const moved = async (to: Move) => {
    await updateRow<Payment, 'id'>(s.db, 'Payment', paymentId, { paymentAccountId: to.account.id, attemptNumber: to.attemptNumber, ...to.routing, ...risk }, ['id']);
  };
  const tokenise = async () => {
    const card = 'card' in request ? request.card : undefined;
    if (!vault || !card) return null;
    const stored = await s.providers.forAccount(vault).storeCard({ idempotencyKey: `${paymentId}:store`, card, shopper: request.shopper });
    return stored.status === 'stored' ? { reference: stored.cardReference, accountId: vault.id } : null;
  };
  try {
    if (security === 'secure') {
      const stored = await tokenise();
      if (stored) await updateRow<Payment, 'id'>(s.db, 'Payment', paymentId, { pendingCardReference: stored.reference, pendingCardAccountId: stored.accountId, ...risk }, ['id']);
      const res = await plan.route.call(`${paymentId}:authorise`, (provider, idempotencyKey) =>
        provider.start3D({ idempotencyKey, callbackUrl: threeDsCallbackUrl(s, paymentId), frameAncestors: req.workspace.embedOrigins, ...request }), moved);
      if (res.status === 'redirect') return await awaitThreeDs(s, paymentId, { providerReference: res.providerReference, ...risk }, res.redirect, viewOf);
      const settled = await settle(refusal(res));
      return failed(await viewOf(settled), res.code, res.message);
    }
    const res = await plan.route.call(`${paymentId}:charge`, (provider, idempotencyKey) => provider.charge({ idempotencyKey, ...request }), moved);
    if (res.status === 'succeeded') {
      const settled = await settle({ status: 'successful', providerReference: res.providerReference });
      const stored = await tokenise();
      if (stored) await commitAfterBank(s.db, (tx) => savePaymentCard(tx, paymentId, stored, s.clock.now()));
      return { view: stored ? await readAfterBank(() => loadPaymentView(s.db, paymentId)) : await viewOf(settled), successful: true, failure: null, redirectUrl: null };
    }
    const settled = await settle(refusal(res));
    return failed(await viewOf(settled), res.code, res.message);
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    if (err instanceof ProviderUnreachableError) {
      // No connection ever opened, here or at an account before it (a cascade moves only after a
      // provider error or an unreachable one): no money moved anywhere, so the payment fails now.
      const text = message('provider_unreachable');
      return failed(await viewOf(await settle({ status: 'failed', errorCode: 'provider_unreachable', errorMessage: text })), 'provider_unreachable', text);
    }
    // The bank may or may not have taken the money: leave it unresolved for reconciliation.
    const text = message('provider_timeout');
    const settled = await settle({ status: 'unresolved', errorCode: 'provider_timeout', errorMessage: text });
    await scheduleReconcile(s, paymentId);
    return failed(await viewOf(settled), 'provider_timeout', text);
  }
}

function failed(view: PaymentView, code: string, text: string): AttemptResult {
  return { view, successful: false, failure: { code, text }, redirectUrl: null };
}

/**
 * The answer's view of a payment this attempt just wrote (settled, or waiting for its 3D page),
 * without reading it again: the row as the UPDATE returned it and the customer the owner's claim
 * wrote. Null when a part is not at hand (an owner that only knows its customer's id, a stored
 * card): the caller then reads the view.
 */
function rowView(payment: ViewRow, customer: CustomerRef | null): PaymentView | null {
  if (payment.storedCardId !== null) return null;
  if (payment.customerId !== (customer?.id ?? null)) return null;
  return paymentViewOf(payment, customer, null);
}

/**
 * A 3D payment waiting for its page: the job that expires it, then the page's token, deadline and
 * the bank's redirect instruction the page serves.
 * In that order, so a payment with a page always has its timer: a stop between the two leaves a
 * payment without `expiresAt`, which the timer passes over and the interrupted-payment sweep
 * (interrupted.ts) settles.
 */
async function awaitThreeDs(s: Services, paymentId: string, columns: Columns<Payment>, redirect: Redirect, viewOf: (started: ViewRow) => Promise<PaymentView>): Promise<AttemptResult> {
  const threeDsToken = randomUUID();
  const expiresAt = new Date(s.clock.now().getTime() + THREE_DS_WINDOW_MS);
  const { stored, sealedCard } = keepOffTheRow(s, threeDsToken, redirect);
  await s.scheduler.schedule(EXPIRE_PAYMENT_JOB, expiresAt, { paymentId }, `expire-payment:${paymentId}`);
  const started = await updateRow<Payment, ViewRowColumn>(s.db, 'Payment', paymentId, { ...columns, threeDsToken, expiresAt, threeDsRedirect: stored }, VIEW_ROW_COLUMNS);
  return {
    view: await viewOf(started),
    successful: true,
    failure: null,
    redirectUrl: `${s.baseUrl}/checkout/3ds/${threeDsToken}${sealedCard ? `?card=${sealedCard}` : ''}`,
  };
}

/** The purpose the card fields of a bank's 3D form are sealed for. */
export const THREE_DS_CARD_PURPOSE = '3ds-card-fields';

/**
 * The redirect instruction as the payment row keeps it: a bank form's card fields are never
 * written; they are sealed (for this page's token only) into the redirect address instead.
 */
function keepOffTheRow(s: Services, threeDsToken: string, redirect: Redirect): { stored: Redirect; sealedCard: string | null } {
  if (redirect.kind !== 'form' || !redirect.cardFields) return { stored: redirect, sealedCard: null };
  const { cardFields, ...form } = redirect;
  return { stored: { ...form, sealedCard: true }, sealedCard: sealFor(s.masterKey, THREE_DS_CARD_PURPOSE, threeDsToken, JSON.stringify(cardFields)) };
}
