// Every job the gateway runs, defined before the runner starts.
import { Prisma } from '../generated/prisma/client.ts';
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import type { Config } from '../config.ts';
import { defineExpirePayment } from './expire-payment.ts';
import { defineReconcilePayment } from './reconcile-payment.ts';
import { DELIVER_WEBHOOKS_JOB, defineDeliverWebhooks } from './deliver-webhooks.ts';
import { defineSendReceipt } from './send-receipt.ts';
import { RENEW_SUBSCRIPTIONS_JOB, defineRenewSubscriptions } from './renew-subscriptions.ts';
import { RECOVER_INTERRUPTED_EVERY_MS, RECOVER_INTERRUPTED_JOB, defineRecoverInterrupted } from './recover-interrupted.ts';
import { SWEEP_RISK_ATTEMPTS_EVERY_MS, SWEEP_RISK_ATTEMPTS_JOB, defineSweepRiskAttempts } from './sweep-risk-attempts.ts';
import { executeRows } from '../db/raw.ts';

export function defineJobs(agenda: Agenda, s: Services): void {
  defineExpirePayment(agenda, s);
  defineReconcilePayment(agenda, s);
  defineDeliverWebhooks(agenda, s);
  defineSendReceipt(agenda, s);
  defineRenewSubscriptions(agenda, s);
  defineRecoverInterrupted(agenda, s);
  defineSweepRiskAttempts(agenda, s);
}

/** Recurring jobs exist once per database (Agenda's `every` upserts a single job). */
export async function scheduleRecurringJobs(agenda: Agenda, config: Config, s: Services): Promise<void> {
  await agenda.every(config.WEBHOOK_POLL_INTERVAL_MS, DELIVER_WEBHOOKS_JOB);
  // Period ends are looked for as often as the job runner looks for due jobs.
  await agenda.every(config.AGENDA_PROCESS_EVERY_MS, RENEW_SUBSCRIPTIONS_JOB);
  // Payments and refunds a crash left half done, swept at every start and every minute.
  await agenda.every(RECOVER_INTERRUPTED_EVERY_MS, RECOVER_INTERRUPTED_JOB);
  // The card-testing guard's attempts that no window or cool-down reads any more.
  await agenda.every(SWEEP_RISK_ATTEMPTS_EVERY_MS, SWEEP_RISK_ATTEMPTS_JOB);
  // A process stopped while one of these ran leaves its lock until the lock lifetime ends, which
  // would stall deliveries and renewals after a restart. Two runs at once are harmless (webhook
  // rows are claimed with SKIP LOCKED, period ends under the subscription's row lock, interrupted
  // payments and refunds with SKIP LOCKED), so a starting process frees them. `every` keeps an
  // existing job's next run, so each start also sweeps at once for what a crash left.
  // One statement that locks the rows in id order: two processes starting together on one
  // database would otherwise lock the same rows in different orders and deadlock.
  await executeRows(s.db, Prisma.sql`
    WITH ordered AS (
      SELECT id FROM agenda.agenda_jobs
       WHERE name IN (${DELIVER_WEBHOOKS_JOB}, ${RENEW_SUBSCRIPTIONS_JOB}, ${RECOVER_INTERRUPTED_JOB}, ${SWEEP_RISK_ATTEMPTS_JOB})
       ORDER BY id FOR UPDATE)
    UPDATE agenda.agenda_jobs j
       SET locked_at = NULL,
           next_run_at = CASE WHEN j.name = ${RECOVER_INTERRUPTED_JOB} THEN now() ELSE j.next_run_at END
      FROM ordered WHERE j.id = ordered.id`);
}
