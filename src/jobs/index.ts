// Every job the gateway runs, defined before the runner starts.
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import type { Config } from '../config.ts';
import { defineExpirePayment } from './expire-payment.ts';
import { DELIVER_WEBHOOKS_JOB, defineDeliverWebhooks } from './deliver-webhooks.ts';

export function defineJobs(agenda: Agenda, s: Services): void {
  defineExpirePayment(agenda, s);
  defineDeliverWebhooks(agenda, s);
}

/** Recurring jobs exist once per database (Agenda's `every` upserts a single job). */
export async function scheduleRecurringJobs(agenda: Agenda, config: Config): Promise<void> {
  await agenda.every(config.WEBHOOK_POLL_INTERVAL_MS, DELIVER_WEBHOOKS_JOB);
}
