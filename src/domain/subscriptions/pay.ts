// Paying a subscription's open period on its checkout page (the first period, or a past due
// one): the card form starts a 3D payment attempt owned by the subscription (owner.ts) that
// stores the card (card.should_save through the attempt), with success_url as the return
// address. One attempt at a time: the subscription's row lock serialises two submits, and an
// attempt still waiting on its 3D page is replaced by a new one.
import { z } from 'zod';
import type { Payment, Subscription, Workspace } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Services } from '../services.ts';
import { isUuid, parseInput } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { StateError } from '../errors.ts';
import { message, type MessageCode } from '../messages.ts';
import { cardInput } from '../cards.ts';
import { attemptPayment, THREE_DS_WINDOW_MS, type OwnerColumns } from '../payments/attempt.ts';
import { typedCard } from '../payments/card-source.ts';
import { lockSubscription } from './retrieve.ts';
import { latestPeriod } from './transitions.ts';
import { currentPeriod, isPayable, loadSubscriptionView, type SubscriptionView } from './view.ts';

export type CheckoutSubscription = SubscriptionView & { workspace: Workspace };

/** The subscription behind a checkout address, or null (unknown tokens and malformed ones alike). */
export async function findCheckoutSubscription(s: Services, token: string): Promise<CheckoutSubscription | null> {
  if (!isUuid(token)) return null;
  const found = await s.db.subscription.findUnique({ where: { id: token }, include: { workspace: true } });
  if (!found) return null;
  return { ...(await loadSubscriptionView(s.db, found.id)), workspace: found.workspace };
}

const PAGE_PATHS = { account: ['paymentProviderToken'], currency: ['currency'], installmentNumber: ['installmentNumber'], shouldSave: ['paymentProviderToken'] };

const paySubscriptionInput = z.object({ card: cardInput, ip: z.string().nullish() });

export type PaySubscriptionOutcome =
  | { kind: 'redirect'; url: string; paymentId: string }
  | { kind: 'failed'; code: string; text: string; paymentId: string };

/** Why the page takes no card: cancelled, ended, or its period is paid. */
export function notPayableReason(sub: Pick<Subscription, 'status' | 'cancelledAt'>): MessageCode {
  if (sub.cancelledAt || sub.status === 'cancelled') return 'subscription_already_cancelled';
  if (sub.status === 'completed') return 'subscription_already_ended';
  return 'subscription_nothing_to_pay';
}

/**
 * The card form's POST. Validation problems throw ValidationError (the page shows them); a
 * subscription that takes no card throws StateError; a bank refusal at the start comes back as
 * `failed`; otherwise the customer goes to the 3D page.
 */
export async function paySubscription(s: Services, sub: CheckoutSubscription, raw: unknown): Promise<PaySubscriptionOutcome> {
  requireActive(sub.workspace);
  if (!isPayable(sub)) throw StateError.single([], notPayableReason(sub));
  const input = parseInput(paySubscriptionInput, raw);
  const period = currentPeriod(sub);
  const attempt = await attemptPayment(s, {
    workspace: sub.workspace,
    source: 'subscription',
    security: 'secure',
    channelId: sub.channelId,
    channelReference: sub.channelReference,
    amount: period.amount,
    currency: sub.currency,
    installmentNumber: 1,
    // A period costs what it costs: no installment surcharge.
    pricing: 'given',
    card: await typedCard(s, sub.workspace, input.card),
    accountToken: sub.paymentAccountId,
    paths: PAGE_PATHS,
    callbackUrl: sub.successUrl,
    ip: input.ip ?? null,
    // The card is stored at the first payment (contract) and at a past due one: renewals need it.
    shouldSave: true,
    claim: (tx, at) => claimPeriod(tx, sub.id, period.id, at),
    risk: { target: sub.id },
  });
  const paymentId = attempt.view.id;
  if (attempt.successful && attempt.redirectUrl) return { kind: 'redirect', url: attempt.redirectUrl, paymentId };
  return { kind: 'failed', code: attempt.failure?.code ?? 'internal_error', text: attempt.failure?.text ?? message('internal_error'), paymentId };
}

/** The subscription's part of the attempt's write: still payable, the same period, nothing else at the bank. */
async function claimPeriod(tx: Tx, subscriptionId: string, periodId: string, at: Date): Promise<OwnerColumns> {
  const sub = await lockSubscription(tx, subscriptionId);
  if (!sub || !isPayable(sub)) throw StateError.single([], sub ? notPayableReason(sub) : 'subscription_not_found');
  const period = await latestPeriod(tx, sub.id);
  if (period.id !== periodId || period.status === 'paid') throw StateError.single([], 'subscription_nothing_to_pay');
  await supersedeWaitingPages(tx, sub.id, at);
  // One already at the bank (page submitted, or its start still running) must finish first.
  const busy = await tx.payment.count({ where: { subscriptionId: sub.id, status: 'started', createdAt: { gt: new Date(at.getTime() - THREE_DS_WINDOW_MS) } } });
  if (busy > 0) throw StateError.single([], 'subscription_payment_in_progress');
  return { customerId: sub.customerId, subscriptionId: sub.id, periodId: period.id };
}

/** Attempts still waiting on their 3D page stop working (a newer attempt, or the subscription was cancelled). */
export async function supersedeWaitingPages(tx: Tx, subscriptionId: string, at: Date): Promise<void> {
  await tx.payment.updateMany({
    where: { subscriptionId, status: 'started', threeDsToken: { not: null } },
    data: { status: 'failed', threeDsToken: null, errorCode: 'subscription_payment_superseded', errorMessage: message('subscription_payment_superseded'), completedAt: at },
  });
}

/** The reason an attempt of this subscription failed, for the page the customer returns to. */
export async function failedAttempt(s: Services, sub: Pick<Subscription, 'id'>, paymentId: string): Promise<Pick<Payment, 'errorCode' | 'errorMessage'> | null> {
  if (!isUuid(paymentId)) return null;
  const p = await s.db.payment.findFirst({ where: { id: paymentId, subscriptionId: sub.id } });
  if (!p || p.status === 'successful' || p.status === 'started') return null;
  return { errorCode: p.errorCode, errorMessage: p.errorMessage };
}
