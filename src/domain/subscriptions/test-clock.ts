// Test clocks (what Stripe offers for testing billing): a test-mode workspace moves its
// own time forward, and everything of that workspace that falls due meanwhile runs in order, at
// the time it was due, as it would have: period ends (renewals, ends, completions) and 3D pages
// expiring. The clock is an offset on the workspace (workspace-clock.ts). Deadlines kept on the
// gateway's clock (3D expiry, webhook attempts) come closer by as much as the clock moves, so
// webhooks that fell due are sent by the delivery job at once, oldest first.
import { DateTime, Duration, type DurationLikeObject } from 'luxon';
import { Prisma, type Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { StateError, ValidationError } from '../errors.ts';
import { expirePayment } from '../payments/three-ds.ts';
import { workspaceNow } from '../workspace-clock.ts';
import { dueSubscriptions, processPeriodEnd, type PeriodEndOutcome } from './renewals.ts';
import { executeRows, queryRows } from '../../db/raw.ts';

const MAX_YEARS = 10;
/** A runaway guard: ten years of monthly renewals for hundreds of subscriptions stays far below. */
const MAX_STEPS = 100_000;

export interface ClockStep {
  /** Workspace time at which it was due and ran. */
  at: Date;
  kind: 'period_end' | 'payment_expiry';
  token: string;
  outcome: PeriodEndOutcome | 'expired';
}

export interface TestClock {
  workspace: Workspace;
  now: Date;
  offsetMs: bigint;
}

export interface Advance {
  from: Date;
  clock: TestClock;
  steps: ClockStep[];
}

const UNITS: Record<string, keyof DurationLikeObject> = { y: 'years', mo: 'months', w: 'weeks', d: 'days', h: 'hours', m: 'minutes', s: 'seconds' };

/** `31d`, `12h`, `1y`, `1mo15d`: calendar units (y, mo, w, d) count in the workspace time zone. */
export function parseDuration(text: string): Duration | null {
  const parts = /^(?:\d{1,6}(?:y|mo|w|d|h|m|s))+$/.test(text.trim()) ? text.trim().match(/\d+(?:y|mo|w|d|h|m|s)/g)! : null;
  if (!parts) return null;
  const values: Partial<Record<keyof DurationLikeObject, number>> = {};
  for (const part of parts) {
    const [, n, unit] = /^(\d+)(\D+)$/.exec(part)!;
    const key = UNITS[unit!]!;
    values[key] = (values[key] ?? 0) + Number(n);
  }
  return Duration.fromObject(values);
}

export async function showTestClock(s: Services, workspace: Workspace): Promise<TestClock> {
  const fresh = await s.db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
  return { workspace: fresh, now: workspaceNow(s, fresh), offsetMs: fresh.testClockOffsetMs };
}

export async function advanceTestClock(s: Services, workspace: Workspace, raw: { duration?: string | null }): Promise<Advance> {
  if (workspace.mode !== 'test') throw StateError.single([], 'test_clock_live_mode');
  const duration = parseDuration(raw.duration ?? '');
  const start = await showTestClock(s, workspace);
  const from = DateTime.fromJSDate(start.now, { zone: workspace.timeZone });
  const to = duration ? from.plus(duration) : null;
  if (!to || to <= from || to > from.plus({ years: MAX_YEARS })) throw ValidationError.single(['duration'], 'test_clock_duration');
  const target = to.toJSDate();

  await holdClock(s, workspace.id);
  try {
    const steps: ClockStep[] = [];
    const skips = new Map<string, number>();
    for (let i = 0; i < MAX_STEPS; i++) {
      const next = await nextDue(s, workspace.id, target, skips);
      if (!next) break;
      await moveClock(s, workspace.id, next.at);
      const outcome = next.kind === 'period_end' ? await processPeriodEnd(s, next.token) : await expire(s, next.token);
      steps.push({ ...next, outcome });
      // Still due after a skip (it cannot run now): try once more, then leave it.
      if (outcome === 'skipped') skips.set(next.token, (skips.get(next.token) ?? 0) + 1);
    }
    await moveClock(s, workspace.id, target);
    return { from: start.now, clock: await showTestClock(s, workspace), steps };
  } finally {
    await s.db.workspace.update({ where: { id: workspace.id }, data: { testClockBusyUntil: null } });
  }
}

/** How long an advance holds the workspace without a step (a process that died lets go after it). */
const HOLD_MS = 5 * 60_000;

/**
 * One advance at a time per workspace, and the renewal job leaves the workspace to it meanwhile,
 * so what falls due runs here, in order.
 */
async function holdClock(s: Services, workspaceId: string): Promise<void> {
  const now = s.clock.now();
  const { count } = await s.db.workspace.updateMany({
    where: { id: workspaceId, OR: [{ testClockBusyUntil: null }, { testClockBusyUntil: { lte: now } }] },
    data: { testClockBusyUntil: new Date(now.getTime() + HOLD_MS) },
  });
  if (count === 0) throw StateError.single([], 'test_clock_busy');
}

/** The 3D expiry job may get there first (its deadline moved too): expired either way. */
async function expire(s: Services, paymentId: string): Promise<ClockStep['outcome']> {
  if (await expirePayment(s, paymentId)) return 'expired';
  const payment = await s.db.payment.findUnique({ where: { id: paymentId }, select: { status: true } });
  return payment?.status === 'expired' ? 'expired' : 'skipped';
}

/** The earliest thing of the workspace due by `target` (workspace time). */
async function nextDue(s: Services, workspaceId: string, target: Date, skips: Map<string, number>): Promise<Omit<ClockStep, 'outcome'> | null> {
  const workspace = await s.db.workspace.findUniqueOrThrow({ where: { id: workspaceId } });
  const offset = Number(workspace.testClockOffsetMs);
  const tried = [...skips].filter(([, n]) => n >= 2).map(([token]) => token);
  const [period] = (await dueSubscriptions(s, { limit: tried.length + 1, testClock: { workspaceId, until: target } })).filter((d) => !tried.includes(d.id));
  const payment = await s.db.payment.findFirst({
    where: { workspaceId, status: 'started', threeDsOpenedAt: null, expiresAt: { not: null, lte: new Date(target.getTime() - offset) }, id: { notIn: tried } },
    orderBy: [{ expiresAt: 'asc' }, { id: 'asc' }],
    select: { id: true, expiresAt: true },
  });
  const expiry = payment ? { at: new Date(payment.expiresAt!.getTime() + offset), kind: 'payment_expiry' as const, token: payment.id } : null;
  const end = period ? { at: period.endsAt, kind: 'period_end' as const, token: period.id } : null;
  if (!expiry || !end) return expiry ?? end;
  return expiry.at < end.at ? expiry : end;
}

/**
 * Moves the workspace's clock forward to `to` (never back). Deadlines the gateway keeps on its
 * own clock for this workspace come closer by the same amount, in the same transaction.
 */
async function moveClock(s: Services, workspaceId: string, to: Date): Promise<void> {
  await s.db.$transaction(async (tx) => {
    const [row] = await queryRows<{ offset: bigint }>(tx, Prisma.sql`SELECT "testClockOffsetMs" AS offset FROM "Workspace" WHERE id = ${workspaceId}::uuid FOR UPDATE`);
    const wanted = BigInt(to.getTime() - s.clock.now().getTime());
    if (!row || wanted <= row.offset) return;
    const secs = Number(wanted - row.offset) / 1000;
    await tx.workspace.update({ where: { id: workspaceId }, data: { testClockOffsetMs: wanted, testClockBusyUntil: new Date(s.clock.now().getTime() + HOLD_MS) } });
    await executeRows(tx, Prisma.sql`
      UPDATE "Payment" SET "expiresAt" = "expiresAt" - make_interval(secs => ${secs}::float8)
       WHERE "workspaceId" = ${workspaceId}::uuid AND status = 'started' AND "threeDsOpenedAt" IS NULL AND "expiresAt" IS NOT NULL`);
    await executeRows(tx, Prisma.sql`
      UPDATE "Notification" SET "nextAttemptAt" = "nextAttemptAt" - make_interval(secs => ${secs}::float8)
       WHERE "workspaceId" = ${workspaceId}::uuid AND status = 'pending' AND "nextAttemptAt" IS NOT NULL`);
  });
}
