// sweep-risk-attempts: a recurring job that deletes the card-testing guard's attempt rows once no
// window or cool-down reads them (src/domain/risk/guard.ts). The guard's own statement does not
// delete, so a busy address's concurrent attempts never wait on each other's deletes. Rows are
// claimed with SKIP LOCKED: several processes running it at once are harmless.
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import { sweepRiskAttempts } from '../domain/risk/guard.ts';

export const SWEEP_RISK_ATTEMPTS_JOB = 'sweep-risk-attempts';
/**
 * How often: the table then holds at most the longest window or cool-down plus this much of
 * attempts, and each sweep reads it once.
 */
export const SWEEP_RISK_ATTEMPTS_EVERY_MS = 5 * 60_000;

export function defineSweepRiskAttempts(agenda: Agenda, s: Services): void {
  agenda.define(
    SWEEP_RISK_ATTEMPTS_JOB,
    async () => {
      await sweepRiskAttempts(s.db, s.clock.now());
    },
    { concurrency: 1, lockLifetime: 5 * 60_000 },
  );
}
