// reconcile-payment: asks the provider about an unresolved payment (reconcile.ts) on its
// schedule of tries. Scheduled where a payment becomes unresolved; the job reschedules itself
// until the payment is settled. Agenda runs one job in one process at a time, and the settlement
// is conditional on the payment still being unresolved, so several processes settle it once.
import type { Agenda, Job } from 'agenda';
import type { Services } from '../domain/services.ts';
import { RECONCILE_PAYMENT_JOB, reconcilePayment } from '../domain/payments/reconcile.ts';

export interface ReconcilePaymentData {
  paymentId: string;
}

export function defineReconcilePayment(agenda: Agenda, s: Services): void {
  agenda.define<ReconcilePaymentData>(RECONCILE_PAYMENT_JOB, async (job: Job<ReconcilePaymentData>) => {
    const next = await reconcilePayment(s, job.attrs.data.paymentId);
    if (!next) return;
    job.schedule(next);
    await job.save();
  });
}
