// Account health for routing: an account whose provider keeps failing for technical reasons is
// taken out of routing for a cool-down, then tried again with a few payments before it takes full
// traffic (a circuit breaker: healthy -> degraded -> probing -> healthy). The state lives on the
// account row, so every gateway process routes by it (an account write bumps the workspace's
// settings version, and each call reads its workspace's current version).
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';

type Health = Pick<PaymentAccount, 'health' | 'healthChangedAt'>;

/** When a degraded account's cool-down ends (it may then be probed). */
export function coolDownEnds(account: Health, workspace: Pick<Workspace, 'healthCooldownSeconds'>): Date {
  return new Date((account.healthChangedAt?.getTime() ?? 0) + workspace.healthCooldownSeconds * 1000);
}

/** Whether routing may send a payment to the account now: not while it is degraded and cooling down. */
export function routable(account: Health, workspace: Pick<Workspace, 'healthCooldownSeconds'>, now: Date): boolean {
  return account.health !== 'degraded' || now >= coolDownEnds(account, workspace);
}
