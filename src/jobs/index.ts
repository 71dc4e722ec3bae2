// Every job the gateway runs, defined before the runner starts.
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import type { Config } from '../config.ts';
import { defineExpirePayment } from './expire-payment.ts';
import { defineReconcilePayment } from './reconcile-payment.ts';
import { DELIVER_WEBHOOKS_JOB, defineDeliverWebhooks } from './deliver-webhooks.ts';
import { defineSendReceipt } from './send-receipt.ts';

export function defineJobs(agenda: Agenda, s: Services): void {
  defineExpirePayment(agenda, s);
  defineReconcilePayment(agenda, s);
  defineDeliverWebhooks(agenda, s);
  defineSendReceipt(agenda, s);
}

/** Recurring jobs exist once per database (Agenda's `every` upserts a single job). */
export async function scheduleRecurringJobs(agenda: Agenda, config: Config, s: Services): Promise<void> {
  await agenda.every(config.WEBHOOK_POLL_INTERVAL_MS, DELIVER_WEBHOOKS_JOB);
  // A process stopped while this job ran leaves its lock until the lock lifetime ends, which
  // would stall deliveries after a restart. Two runs at once are harmless (rows are claimed
  // with SKIP LOCKED), so a starting process frees it.
  await s.db.$executeRaw`UPDATE agenda.agenda_jobs SET locked_at = NULL WHERE name = ${DELIVER_WEBHOOKS_JOB}`;
}
