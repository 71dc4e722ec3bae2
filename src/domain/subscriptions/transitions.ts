// The subscription's state changes (contract: Subscription status), each under the subscription's
// row lock and each re-checking the state it starts from, so a change happens once whichever
// process (or the test clock) gets there first. Times written are the workspace's (its test
// clock); `at` arguments are the gateway's clock, which events take (recordEvent shifts them).
import { Prisma, type Payment, type Subscription, type SubscriptionPeriod } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { recordEvent } from '../events.ts';
import { clockOf, workspaceTime } from '../workspace-clock.ts';
import { lockSubscription } from './retrieve.ts';
import { periodEnd } from './periods.ts';
import { queryRows } from '../../db/raw.ts';

export async function latestPeriod(tx: Tx, subscriptionId: string): Promise<SubscriptionPeriod> {
  return tx.subscriptionPeriod.findFirstOrThrow({ where: { subscriptionId }, orderBy: { number: 'desc' } });
}

/** Each paid period is one payment taken; renewal_limit counts them. */
export async function limitReached(tx: Tx, sub: Pick<Subscription, 'id' | 'renewalLimit'>): Promise<boolean> {
  if (sub.renewalLimit === null) return false;
  return (await tx.subscriptionPeriod.count({ where: { subscriptionId: sub.id, status: 'paid' } })) >= sub.renewalLimit;
}

/** A paid period has reached its end and nothing has happened about it yet. */
export function periodEndDue(sub: Pick<Subscription, 'status'>, period: SubscriptionPeriod, now: Date): boolean {
  return sub.status === 'active' && period.status === 'paid' && period.endsAt !== null && period.endsAt <= now;
}

/**
 * A successful payment of a period: the first one anchors the dates (starts now, ends one period
 * later); a later one keeps the dates it was opened with, also when paid late on the page. The
 * card the page stored becomes the customer's default, since renewals charge the default card.
 */
export async function periodPaid(tx: Tx, payment: Payment, at: Date): Promise<void> {
  if (!payment.subscriptionId || !payment.periodId) return;
  const sub = await lockSubscription(tx, payment.subscriptionId);
  const period = await tx.subscriptionPeriod.findUniqueOrThrow({ where: { id: payment.periodId } });
  // Cancelled while this payment was at the bank (or, which the claims prevent, paid twice): the
  // money stays taken as recorded on the payment, for the merchant to refund.
  if (!sub || period.status === 'paid' || sub.status === 'cancelled' || sub.status === 'completed') return;
  const clock = await clockOf(tx, sub.workspaceId);
  const paidAt = workspaceTime(clock, at);
  const first = period.number === 1;
  const dates = first ? { startsAt: paidAt, endsAt: periodEnd(paidAt, sub.period, 1, clock.timeZone) } : {};
  await tx.subscriptionPeriod.update({ where: { id: period.id }, data: { status: 'paid', paidAt, ...dates } });
  await tx.subscription.update({ where: { id: sub.id }, data: { status: 'active', ...(first ? { isTest: payment.isTest } : {}) } });
  if (payment.storedCardId) await makeDefaultCard(tx, sub.customerId, payment.storedCardId);
  await recordEvent(tx, { workspaceId: sub.workspaceId, kind: 'subscription.active', recordToken: sub.id, transactionToken: payment.id }, at);
}

/**
 * A renewal that could not be collected: past_due with the period to pay on the checkout page.
 * Cancelled while the charge was at the bank: it ends instead (the paid period already ended).
 */
export async function renewalFailed(tx: Tx, subscriptionId: string, periodId: string, at: Date): Promise<void> {
  const sub = await lockSubscription(tx, subscriptionId);
  const period = await tx.subscriptionPeriod.findUniqueOrThrow({ where: { id: periodId } });
  if (!sub || sub.status !== 'active' || period.status !== 'unpaid') return;
  await tx.subscriptionPeriod.update({ where: { id: period.id }, data: { status: 'failed' } });
  if (sub.cancelledAt) {
    await tx.subscription.update({ where: { id: sub.id }, data: { status: 'cancelled', endedAt: period.startsAt ?? workspaceTime(await clockOf(tx, sub.workspaceId), at) } });
    await recordEvent(tx, { workspaceId: sub.workspaceId, kind: 'subscription.ended', recordToken: sub.id }, at);
    return;
  }
  await tx.subscription.update({ where: { id: sub.id }, data: { status: 'past_due' } });
  await recordEvent(tx, { workspaceId: sub.workspaceId, kind: 'subscription.past_due', recordToken: sub.id }, at);
}

/** Makes the card the customer's only default (customer row locked, as saved-cards.ts does). */
async function makeDefaultCard(tx: Tx, customerId: string, cardId: string): Promise<void> {
  await queryRows(tx, Prisma.sql`SELECT id FROM "Customer" WHERE id = ${customerId}::uuid FOR UPDATE`);
  await tx.savedCard.updateMany({ where: { customerId, isDefault: true, NOT: { id: cardId } }, data: { isDefault: false } });
  await tx.savedCard.updateMany({ where: { id: cardId, customerId }, data: { isDefault: true } });
}
