// What happens when a paid period ends (by the workspace's clock, test clock included):
// - cancelled during the period: it ends (cancelled, subscription.ended);
// - renewal_limit paid periods taken: it completes (completed, subscription.completed);
// - otherwise a renewal: the next period opens at the catalog price of now, and the customer's
//   default saved card is charged without 3D through the account that stores it (a payment
//   attempt with `savedCard`, security `regular`: that account needs `card_storage` and
//   `non_secure`). A card that is missing, deleted, on a deleted account or declined makes the
//   subscription past_due (transitions.ts) with a checkout_url for that period.
// Exactly once with any number of processes: opening the next period and writing its payment
// happen in one transaction under the subscription's row lock, after re-checking that the period
// end is still unhandled; whoever comes second finds the next period already open.
import { Prisma, type Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../../db/client.ts';
import { DomainError, ValidationError } from '../errors.ts';
import { recordEvent } from '../events.ts';
import { attemptPayment, type OwnerColumns } from '../payments/attempt.ts';
import { savedCard } from '../payments/card-source.ts';
import { workspaceNow, workspaceTime } from '../workspace-clock.ts';
import { lockSubscription } from './retrieve.ts';
import { catalogAmount, periodEnd } from './periods.ts';
import { latestPeriod, limitReached, periodEndDue, renewalFailed } from './transitions.ts';
import { currentPeriod, subscriptionInclude, type SubscriptionView } from './view.ts';
import { queryRows } from '../../db/raw.ts';

export type PeriodEndOutcome = 'ended' | 'completed' | 'renewed' | 'past_due' | 'skipped';

/** Where a renewal's account and card problems are reported (the renewal has no request). */
const RENEWAL_PATHS = { account: ['savedCard'], currency: ['currency'], installmentNumber: ['installmentNumber'], savedCard: ['savedCard'] };

/** The next period a renewal opens: its number, catalog amount and dates (counted from the anchor). */
interface NextPeriod {
  number: number;
  amount: bigint;
  startsAt: Date;
  endsAt: Date;
}

/** The period end was handled by someone else meanwhile (another process, a cancel). */
class AlreadyHandled extends Error {}

type Loaded = SubscriptionView & { workspace: Workspace };

export async function processPeriodEnd(s: Services, subscriptionId: string): Promise<PeriodEndOutcome> {
  const sub: Loaded | null = await s.db.subscription.findUnique({ where: { id: subscriptionId }, include: { ...subscriptionInclude, workspace: true } });
  // A workspace that cannot operate takes no money; its renewals wait until it can.
  if (!sub || !sub.workspace.active) return 'skipped';
  const period = currentPeriod(sub);
  if (!periodEndDue(sub, period, workspaceNow(s, sub.workspace))) return 'skipped';
  if (sub.cancelledAt || (await limitReached(s.db, sub))) return finish(s, sub);
  return renew(s, sub);
}

/** Cancelled or complete: it stops when the paid period ends. */
async function finish(s: Services, sub: Loaded): Promise<PeriodEndOutcome> {
  const at = s.clock.now();
  return s.db.$transaction(async (tx) => {
    const current = await stillDue(tx, sub, at);
    if (!current) return 'skipped';
    const cancelled = current.cancelledAt !== null;
    await tx.subscription.update({ where: { id: sub.id }, data: { status: cancelled ? 'cancelled' : 'completed', endedAt: current.period.endsAt } });
    await recordEvent(tx, { workspaceId: sub.workspaceId, kind: cancelled ? 'subscription.ended' : 'subscription.completed', recordToken: sub.id }, at);
    return cancelled ? 'ended' : 'completed';
  });
}

async function renew(s: Services, sub: Loaded): Promise<PeriodEndOutcome> {
  const previous = currentPeriod(sub);
  const anchor = (await s.db.subscriptionPeriod.findUniqueOrThrow({ where: { subscriptionId_number: { subscriptionId: sub.id, number: 1 } } })).startsAt!;
  const number = previous.number + 1;
  const next: NextPeriod = { number, amount: catalogAmount(sub.items), startsAt: previous.endsAt!, endsAt: periodEnd(anchor, sub.period, number, sub.workspace.timeZone) };
  try {
    const card = await savedCard(s, sub.workspace, {
      token: await defaultCardOf(s, sub),
      customer: { channelId: sub.channelId, channelReference: sub.customer.channelReference },
      path: RENEWAL_PATHS.savedCard,
    });
    const result = await attemptPayment(s, {
      workspace: sub.workspace,
      source: 'subscription',
      security: 'regular',
      channelId: sub.channelId,
      channelReference: sub.channelReference,
      amount: next.amount,
      currency: sub.currency,
      installmentNumber: 1,
      pricing: 'given',
      card,
      accountToken: null,
      paths: RENEWAL_PATHS,
      callbackUrl: null,
      ip: null,
      claim: (tx, at) => openNextPeriod(tx, sub, next, at),
      risk: { renewal: true },
    });
    if (result.successful) return 'renewed';
    // The bank did not answer: the owner was not told (no event for an unresolved payment), but the
    // period was not collected either. Past due lets the customer pay; the payment stays
    // unresolved for reconciliation (docs/decisions.md).
    if (result.view.status === 'unresolved') await s.db.$transaction((tx) => renewalFailed(tx, sub.id, result.view.periodId!, s.clock.now()));
    return 'past_due';
  } catch (err) {
    if (err instanceof AlreadyHandled) return 'skipped';
    // No default card, its account gone or unable to charge it, or the plan no longer covers
    // saved cards: nothing reached the bank, the period opens unpaid and the subscription is past due.
    if (err instanceof DomainError) return failBeforeCharge(s, sub, next);
    throw err;
  }
}

async function defaultCardOf(s: Services, sub: Loaded): Promise<string> {
  const card = await s.db.savedCard.findFirst({ where: { customerId: sub.customerId, isDefault: true }, select: { id: true } });
  if (!card) throw ValidationError.single(RENEWAL_PATHS.savedCard, 'subscription_no_default_card');
  return card.id;
}

/** The renewal's part of the attempt's write: the period end is still unhandled, and the next period opens. */
async function openNextPeriod(tx: Tx, sub: Loaded, next: NextPeriod, at: Date): Promise<OwnerColumns> {
  const current = await stillDue(tx, sub, at);
  if (!current || current.cancelledAt || (await limitReached(tx, sub))) throw new AlreadyHandled();
  const period = await tx.subscriptionPeriod.create({ data: { subscriptionId: sub.id, ...next, status: 'unpaid', createdAt: current.now } });
  return { customerId: sub.customerId, subscriptionId: sub.id, periodId: period.id };
}

async function failBeforeCharge(s: Services, sub: Loaded, next: NextPeriod): Promise<PeriodEndOutcome> {
  const at = s.clock.now();
  return s.db.$transaction(async (tx) => {
    const current = await stillDue(tx, sub, at);
    if (!current || current.cancelledAt || (await limitReached(tx, sub))) return 'skipped';
    await tx.subscriptionPeriod.create({ data: { subscriptionId: sub.id, ...next, status: 'failed', createdAt: current.now } });
    await tx.subscription.update({ where: { id: sub.id }, data: { status: 'past_due' } });
    await recordEvent(tx, { workspaceId: sub.workspaceId, kind: 'subscription.past_due', recordToken: sub.id }, at);
    return 'past_due';
  });
}

/**
 * Under the row lock: the subscription as it is now and the workspace's time, when the period
 * end it was loaded for is still unhandled; else null.
 */
async function stillDue(tx: Tx, sub: Loaded, at: Date) {
  const locked = await lockSubscription(tx, sub.id);
  if (!locked) return null;
  const period = await latestPeriod(tx, sub.id);
  const now = workspaceTime(await tx.workspace.findUniqueOrThrow({ where: { id: sub.workspaceId } }), at);
  if (period.number !== currentPeriod(sub).number || !periodEndDue(locked, period, now)) return null;
  return { ...locked, period, now };
}

/**
 * Subscriptions whose paid period has ended by their workspace's clock, soonest first. With
 * `testClock`, those of one workspace due by a time on its clock (the advance's look-ahead);
 * without, every workspace's due ones except where a test clock is being advanced (the advance
 * runs those itself, in order).
 */
export async function dueSubscriptions(
  s: Services,
  opts: { limit: number; testClock?: { workspaceId: string; until: Date } },
): Promise<Array<{ id: string; endsAt: Date }>> {
  const now = s.clock.now();
  const scope = opts.testClock?.workspaceId ?? null;
  const until = opts.testClock?.until ?? null;
  return queryRows<{ id: string; endsAt: Date }>(s.db, Prisma.sql`
    SELECT s.id, cur."endsAt" AS "endsAt"
      FROM "Subscription" s
      JOIN "Workspace" w ON w.id = s."workspaceId"
      JOIN LATERAL (SELECT p.status, p."endsAt" FROM "SubscriptionPeriod" p WHERE p."subscriptionId" = s.id ORDER BY p.number DESC LIMIT 1) cur ON true
     WHERE s.status = 'active' AND w.active AND cur.status = 'paid'
       AND (${scope}::uuid IS NULL OR s."workspaceId" = ${scope}::uuid)
       AND (${scope}::uuid IS NOT NULL OR w."testClockBusyUntil" IS NULL OR w."testClockBusyUntil" <= (${now}::timestamptz AT TIME ZONE 'UTC'))
       AND cur."endsAt" <= COALESCE(${until}::timestamptz AT TIME ZONE 'UTC',
             (${now}::timestamptz AT TIME ZONE 'UTC') + make_interval(secs => w."testClockOffsetMs"::float8 / 1000))
     ORDER BY cur."endsAt", s.id
     LIMIT ${opts.limit}`);
}

/** The renewal job's run: every period end that is due, each on its own (one failing stops no other). */
export async function processDueSubscriptions(s: Services, limit = 200): Promise<number> {
  const due = await dueSubscriptions(s, { limit });
  const failures: unknown[] = [];
  for (const { id } of due) await processPeriodEnd(s, id).catch((err: unknown) => failures.push(err));
  if (failures.length > 0) throw failures[0];
  return due.length;
}
