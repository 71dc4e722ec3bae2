// Account health for routing: an account whose provider keeps failing for technical reasons is
// taken out of routing for a cool-down, then tried again with a few payments before it takes full
// traffic (a circuit breaker: healthy -> degraded -> probing -> healthy).
// - The window: the account's provider attempts (ProviderAttempt) of the last
//   `healthWindowSeconds`; technical failures are answers with the provider's own error and calls
//   without an answer (timeouts, unreachable). At least `healthMinFailures` of them, and at least
//   `healthFailurePercent` of the calls, degrade the account (`payment_account.degraded`).
// - A degraded account takes no payments for `healthCooldownSeconds`; then one payment at a time
//   probes it (claimRoute), and its next `healthProbePayments` successes make it healthy
//   (`payment_account.recovered`);
//   one technical failure meanwhile degrades it again for another cool-down (no second event).
// The state lives on the account row, so every gateway process routes by it (an account write
// bumps the workspace's settings version, and each call reads its workspace's current version).
// It is judged after a payment's provider call, in the background: a payment never waits for it,
// and a healthy account's success costs nothing (the in-memory row already says healthy).
import { Prisma, type PaymentAccount, type Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Tx } from '../../db/client.ts';
import { queryRows } from '../../db/raw.ts';
import { recordEvent } from '../events.ts';

type Health = Pick<PaymentAccount, 'health' | 'healthChangedAt'>;
type Thresholds = Pick<Workspace, 'healthWindowSeconds' | 'healthMinFailures' | 'healthFailurePercent' | 'healthCooldownSeconds' | 'healthProbePayments'>;

/** When a degraded account's cool-down ends (it may then be probed). */
export function coolDownEnds(account: Health, workspace: Pick<Workspace, 'healthCooldownSeconds'>): Date {
  return new Date((account.healthChangedAt?.getTime() ?? 0) + workspace.healthCooldownSeconds * 1000);
}

/** Whether routing may send a payment to the account now: not while it is degraded and cooling down. */
export function routable(account: Health, workspace: Pick<Workspace, 'healthCooldownSeconds'>, now: Date): boolean {
  return account.health !== 'degraded' || now >= coolDownEnds(account, workspace);
}

/**
 * Whether a payment may go to the account now. A degraded account past its cool-down takes one
 * probe at a time: the payment that claims the probe restarts the cool-down with a compare-and-set
 * on `healthChangedAt` (one winner across every process), and the others pass the account over
 * until the probe's answer moves it (probing after a success, another cool-down after a failure).
 */
export async function claimRoute(s: Services, account: PaymentAccount, workspace: Pick<Workspace, 'healthCooldownSeconds'>, now: Date): Promise<boolean> {
  if (!routable(account, workspace, now)) return false;
  if (account.health !== 'degraded') return true;
  const claimed = await s.db.paymentAccount.updateMany({ where: { id: account.id, health: 'degraded', healthChangedAt: account.healthChangedAt }, data: { healthChangedAt: now } });
  return claimed.count === 1;
}

/** Gives a probe claimed at `claimedAt` back to the account as it was, unless its health moved on since. */
export async function releaseClaim(s: Services, account: PaymentAccount, claimedAt: Date): Promise<void> {
  await s.db.paymentAccount.updateMany({ where: { id: account.id, health: 'degraded', healthChangedAt: claimedAt }, data: { healthChangedAt: account.healthChangedAt } });
}

/** Whether the window's technical failures (the call just made included) take the account out. */
export function overThreshold(window: { failures: number; calls: number }, thresholds: Pick<Thresholds, 'healthMinFailures' | 'healthFailurePercent'>): boolean {
  return window.failures >= thresholds.healthMinFailures && window.failures * 100 >= thresholds.healthFailurePercent * window.calls;
}

export type CallOutcome = 'success' | 'technical' | 'other';

export interface ObservedCall {
  workspace: Workspace;
  /** The account as routing saw it (its health from the in-memory copy). */
  account: PaymentAccount;
  outcome: CallOutcome;
  /** The call's idempotency key: its own attempt row may or may not be written yet, so it is counted apart. */
  idempotencyKey: string;
}

/** Judges one payment call's outcome in the background; failures are logged, never thrown. */
export function observeCall(s: Services, call: ObservedCall): void {
  if (call.outcome === 'other' || (call.outcome === 'success' && call.account.health === 'healthy')) return;
  const judged = call.outcome === 'technical' ? afterFailure(s, call) : afterSuccess(s, call);
  judged.catch((err: Error) => s.warn('account health not updated', { error: err.message, paymentAccountId: call.account.id }));
}

async function afterFailure(s: Services, call: ObservedCall): Promise<void> {
  // The window is read from the attempts; those of the calls just before are written first.
  await s.attempts.flushed();
  const now = s.clock.now();
  const since = new Date(now.getTime() - call.workspace.healthWindowSeconds * 1000);
  const [window] = await queryRows<{ failures: number; calls: number }>(
    s.db,
    Prisma.sql`SELECT count(*) FILTER (WHERE outcome IN ('error', 'timeout'))::int AS failures, count(*)::int AS calls
      FROM "ProviderAttempt" WHERE "paymentAccountId" = ${call.account.id}::uuid AND "startedAt" > ${since} AND "idempotencyKey" <> ${call.idempotencyKey}`,
  );
  const counted = { failures: (window?.failures ?? 0) + 1, calls: (window?.calls ?? 0) + 1 };
  await s.db.$transaction(async (tx) => {
    const account = await lockAccount(tx, call.account.id);
    if (!account) return;
    // On probation (or probed after its cool-down) one failure is enough; healthy, the window decides.
    if (account.health === 'healthy' && !overThreshold(counted, call.workspace)) return;
    await tx.paymentAccount.update({ where: { id: account.id }, data: { health: 'degraded', healthChangedAt: now, healthProbesLeft: 0 } });
    // Only leaving `healthy` is news: on probation the account was never announced back.
    if (account.health === 'healthy') await recordEvent(tx, { workspaceId: account.workspaceId, kind: 'payment_account.degraded', recordToken: account.id }, now);
  });
}

async function afterSuccess(s: Services, call: ObservedCall): Promise<void> {
  const now = s.clock.now();
  await s.db.$transaction(async (tx) => {
    const account = await lockAccount(tx, call.account.id);
    if (!account || account.health === 'healthy') return;
    // A success while degraded can only be a probe after the cool-down: probation starts with it.
    const left = account.health === 'degraded' ? call.workspace.healthProbePayments - 1 : account.healthProbesLeft - 1;
    if (left > 0) {
      await tx.paymentAccount.update({ where: { id: account.id }, data: { health: 'probing', healthProbesLeft: left, ...(account.health === 'degraded' ? { healthChangedAt: now } : {}) } });
      return;
    }
    await tx.paymentAccount.update({ where: { id: account.id }, data: { health: 'healthy', healthChangedAt: now, healthProbesLeft: 0 } });
    await recordEvent(tx, { workspaceId: account.workspaceId, kind: 'payment_account.recovered', recordToken: account.id }, now);
  });
}

async function lockAccount(tx: Tx, id: string): Promise<Pick<PaymentAccount, 'id' | 'workspaceId' | 'health' | 'healthProbesLeft'> | null> {
  const [row] = await queryRows<Pick<PaymentAccount, 'id' | 'workspaceId' | 'health' | 'healthProbesLeft'>>(
    tx,
    Prisma.sql`SELECT id, "workspaceId", health::text AS health, "healthProbesLeft" FROM "PaymentAccount" WHERE id = ${id}::uuid AND "deletedAt" IS NULL FOR UPDATE`,
  );
  return row ?? null;
}
