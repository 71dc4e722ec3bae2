// deliver-webhooks: a recurring job that sends every notification due by the injected clock.
// State lives on the notification rows, so a restart loses nothing and two processes sharing
// the database never send one attempt twice (rows are claimed with SKIP LOCKED).
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import { deliverDue } from '../domain/webhooks/delivery.ts';

export const DELIVER_WEBHOOKS_JOB = 'deliver-webhooks';

export function defineDeliverWebhooks(agenda: Agenda, s: Services): void {
  agenda.define(DELIVER_WEBHOOKS_JOB, async () => {
    await deliverDue(s);
  }, { concurrency: 1, lockLifetime: 2 * 60_000 });
}
