// expire-payment: a started 3D payment whose page was not opened within 15 minutes expires.
// Scheduled at the start of every 3D payment; the handler checks the injected clock, so a job
// that runs early (or a clock that was moved) never expires a payment before its time.
import type { Agenda, Job } from 'agenda';
import type { Services } from '../domain/services.ts';
import { expirePayment } from '../domain/payments/three-ds.ts';
import { EXPIRE_PAYMENT_JOB } from '../domain/payments/attempt.ts';

export interface ExpirePaymentData {
  paymentId: string;
}

export function defineExpirePayment(agenda: Agenda, s: Services): void {
  agenda.define<ExpirePaymentData>(EXPIRE_PAYMENT_JOB, async (job: Job<ExpirePaymentData>) => {
    const payment = await s.db.payment.findUnique({ where: { id: job.attrs.data.paymentId } });
    if (!payment || payment.status !== 'started' || !payment.expiresAt) return;
    if (s.clock.now() < payment.expiresAt) {
      job.schedule(payment.expiresAt);
      await job.save();
      return;
    }
    await expirePayment(s, payment.id);
  });
}
