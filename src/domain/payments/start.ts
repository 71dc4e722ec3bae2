// secure-payment and regular-payment: validate everything, write the payment, then ask the bank.
import { randomUUID } from 'node:crypto';
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { CardData, PaymentSource as ProviderPaymentSource } from '../../providers/types.ts';
import type { Currency } from '../money.ts';
import { ProviderTimeoutError } from '../../providers/types.ts';
import { requireActive, covers } from '../plans.ts';
import { requireChannel } from '../channels.ts';
import { selectAccount } from '../accounts.ts';
import { planCharge, type ChargePlan } from '../charge-currency.ts';
import { upsertCustomer } from '../customers.ts';
import { IssueList, ValidationError } from '../errors.ts';
import { message } from '../messages.ts';
import { parsePaymentInput, type PaymentInput } from './input.ts';
import { settlePayment } from './settle.ts';
import { savePaymentCard } from '../saved-cards.ts';
import { loadPaymentView, type PaymentView } from './view.ts';
import { resolveSavedCard, type SavedCardSource } from './saved-card-source.ts';

export const THREE_DS_WINDOW_MS = 15 * 60 * 1000;
export const EXPIRE_PAYMENT_JOB = 'expire-payment';

export interface StartResult {
  view: PaymentView;
  successful: boolean;
  /** Our message code or the provider's own text, when not successful. */
  failure: { code: string; text: string } | null;
  redirectUrl: string | null;
}

/** What the bank is asked to charge: amount and currency as charged, and the card or saved card. */
export type BankRequest = { amount: bigint; currency: Currency; installmentNumber: number } & ProviderPaymentSource;

export const securePayment = (s: Services, w: Workspace, raw: unknown) => startPayment(s, w, 'secure', raw);
export const regularPayment = (s: Services, w: Workspace, raw: unknown) => startPayment(s, w, 'regular', raw);

async function startPayment(s: Services, workspace: Workspace, kind: 'secure' | 'regular', raw: unknown): Promise<StartResult> {
  requireActive(workspace);
  const input = parsePaymentInput(kind, raw);
  const t = input.transaction;
  const channel = await requireChannel(s.db, workspace.id, t.channelToken, ['transaction', 'channelToken']);
  const source = await resolveSavedCard(s, workspace, input);
  const { account, charge } = await chooseAccount(s, workspace, kind, input, source);
  checkShouldSave(workspace, account, input);

  const now = s.clock.now();
  const payment = await s.db.$transaction(async (tx) => {
    const customer = await upsertCustomer(tx, workspace.id, channel.id, input.customer);
    return tx.payment.create({
      data: {
        workspaceId: workspace.id,
        channelId: channel.id,
        customerId: customer.id,
        paymentAccountId: account.id,
        source: 'api',
        securityType: kind === 'secure' ? 'secure' : 'non_secure',
        status: 'started',
        channelReference: t.channelReference,
        amount: t.amount,
        baseAmount: t.baseAmount ?? t.amount,
        currency: t.currency,
        installmentNumber: t.installmentNumber,
        chargedAmount: charge.conversion?.amount ?? null,
        chargedCurrency: charge.conversion?.currency ?? null,
        conversionRate: charge.conversion?.rate ?? null,
        isTest: account.mode === 'test',
        ip: t.ip,
        callbackUrl: t.callbackUrl ?? null,
        ...source.cardColumns,
        shouldSave: input.card?.shouldSave ?? false,
        createdAt: now,
      },
    });
  });

  const request = { amount: charge.amount, currency: charge.currency, installmentNumber: t.installmentNumber, ...source.providerSource };
  return askBank(s, kind, payment.id, account, request, { shouldSave: payment.shouldSave });
}

/**
 * The bank step of a written, `started` payment: start 3D (secure) or charge (regular), then
 * settle what the bank answered. Shared by the API payments and the hosted checkout pages.
 */
export async function askBank(
  s: Services,
  kind: 'secure' | 'regular',
  paymentId: string,
  account: PaymentAccount,
  request: BankRequest,
  opts: { shouldSave?: boolean } = {},
): Promise<StartResult> {
  const provider = s.providers.get(account.provider);
  // card.should_save: the provider keeps the card; the saved card appears once the payment succeeds.
  const tokenise = async () => {
    const card = 'card' in request ? request.card : undefined;
    if (!opts.shouldSave || !card) return null;
    const stored = await provider.storeCard({ idempotencyKey: `${paymentId}:store`, card });
    return stored.status === 'stored' ? stored.cardReference : null;
  };
  try {
    if (kind === 'secure') {
      const cardReference = await tokenise();
      if (cardReference) await s.db.payment.update({ where: { id: paymentId }, data: { pendingCardReference: cardReference } });
      const res = await provider.authorise3D({ idempotencyKey: `${paymentId}:authorise`, ...request });
      if (res.status === 'pending') return await awaitThreeDs(s, paymentId, res.providerReference);
      await s.db.$transaction((tx) => settlePayment(tx, paymentId, { status: 'failed', errorCode: res.code, errorMessage: res.message }, s.clock.now()));
      return failed(s, paymentId, res.code, res.message);
    }
    const res = await provider.charge({ idempotencyKey: `${paymentId}:charge`, ...request });
    if (res.status === 'succeeded') {
      await s.db.$transaction((tx) => settlePayment(tx, paymentId, { status: 'successful', providerReference: res.providerReference }, s.clock.now()));
      const cardReference = await tokenise();
      if (cardReference) await s.db.$transaction((tx) => savePaymentCard(tx, paymentId, cardReference, s.clock.now()));
      return { view: await loadPaymentView(s.db, paymentId), successful: true, failure: null, redirectUrl: null };
    }
    await s.db.$transaction((tx) => settlePayment(tx, paymentId, { status: 'failed', errorCode: res.code, errorMessage: res.message }, s.clock.now()));
    return failed(s, paymentId, res.code, res.message);
  } catch (err) {
    if (!(err instanceof ProviderTimeoutError)) throw err;
    // The bank may or may not have taken the money: leave it unresolved for reconciliation.
    const text = message('provider_timeout');
    await settlePayment(s.db, paymentId, { status: 'unresolved', errorCode: 'provider_timeout', errorMessage: text }, s.clock.now());
    return failed(s, paymentId, 'provider_timeout', text);
  }
}

async function failed(s: Services, paymentId: string, code: string, text: string): Promise<StartResult> {
  return { view: await loadPaymentView(s.db, paymentId), successful: false, failure: { code, text }, redirectUrl: null };
}

async function awaitThreeDs(s: Services, paymentId: string, providerReference: string): Promise<StartResult> {
  const threeDsToken = randomUUID();
  const expiresAt = new Date(s.clock.now().getTime() + THREE_DS_WINDOW_MS);
  await s.db.payment.update({ where: { id: paymentId }, data: { providerReference, threeDsToken, expiresAt } });
  await s.scheduler.schedule(EXPIRE_PAYMENT_JOB, expiresAt, { paymentId }, `expire-payment:${paymentId}`);
  return {
    view: await loadPaymentView(s.db, paymentId),
    successful: true,
    failure: null,
    redirectUrl: `${s.baseUrl}/checkout/3ds/${threeDsToken}`,
  };
}

async function chooseAccount(
  s: Services,
  workspace: Workspace,
  kind: 'secure' | 'regular',
  input: PaymentInput,
  source: SavedCardSource,
): Promise<{ account: PaymentAccount; charge: ChargePlan }> {
  const t = input.transaction;
  const tokenPath = ['transaction', 'paymentProviderToken'];
  const account =
    source.account ??
    (await selectAccount(s.db, workspace, {
      token: t.paymentProviderToken,
      path: tokenPath,
      card: { bin: source.bin, currency: t.currency, amount: t.amount },
    }));
  const issues = new IssueList();
  const accountPath = source.account ? ['transaction', 'savedCardToken'] : tokenPath;
  if (kind === 'secure' && !account.secure) issues.add(accountPath, 'account_no_secure');
  if (kind === 'regular' && !account.nonSecure) issues.add(accountPath, 'account_no_non_secure');
  issues.throwIfAny();
  const charge = planCharge(account, t.amount, t.currency, s.rates, ['transaction', 'currency']);
  // Installments exist only in TRY, also when conversion charges the card in another currency.
  if (charge.currency !== 'TRY' && t.installmentNumber !== 1) throw ValidationError.single(['transaction', 'installmentNumber'], 'installment_only_try');
  return { account, charge };
}

function checkShouldSave(workspace: Workspace, account: PaymentAccount, input: PaymentInput): void {
  if (!input.card?.shouldSave) return;
  if (!covers(workspace, 'saved_cards')) throw ValidationError.single(['card', 'shouldSave'], 'plan_saved_cards');
  if (!account.cardStorage) throw ValidationError.single(['card', 'shouldSave'], 'account_no_card_storage');
}

export type { CardData };
