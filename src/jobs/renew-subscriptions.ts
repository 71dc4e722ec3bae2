// renew-subscriptions: a recurring job that handles every period end due by each workspace's
// clock: renewals (the default saved card charged without 3D), ends of cancelled subscriptions,
// completions. State lives on the subscription rows and each period end is claimed under the
// subscription's row lock, so a restart loses nothing and two processes never charge twice.
import type { Agenda } from 'agenda';
import type { Services } from '../domain/services.ts';
import { processDueSubscriptions } from '../domain/subscriptions/renewals.ts';

export const RENEW_SUBSCRIPTIONS_JOB = 'renew-subscriptions';

export function defineRenewSubscriptions(agenda: Agenda, s: Services): void {
  agenda.define(RENEW_SUBSCRIPTIONS_JOB, async () => {
    await processDueSubscriptions(s);
  }, { concurrency: 1, lockLifetime: 5 * 60_000 });
}
