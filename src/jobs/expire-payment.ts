// expire-payment: the timer of a started 3D payment (three-ds.ts runThreeDsTimer). Scheduled at
// the start of every 3D payment for the page's expiry; an unopened page expires then, an opened
// one is watched until it completes or is given up 30 minutes after the start. The handler
// checks the injected clock, so a job that runs early (or a clock that was moved) never ends a
// payment before its time; it reschedules itself while there is something left to watch.
import type { Agenda, Job } from 'agenda';
import type { Services } from '../domain/services.ts';
import { runThreeDsTimer } from '../domain/payments/three-ds.ts';
import { EXPIRE_PAYMENT_JOB } from '../domain/payments/attempt.ts';

export interface ExpirePaymentData {
  paymentId: string;
}

export function defineExpirePayment(agenda: Agenda, s: Services): void {
  agenda.define<ExpirePaymentData>(EXPIRE_PAYMENT_JOB, async (job: Job<ExpirePaymentData>) => {
    const next = await runThreeDsTimer(s, job.attrs.data.paymentId);
    if (!next) return;
    job.schedule(next);
    await job.save();
  });
}
