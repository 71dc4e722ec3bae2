// send-receipt: the e-mail receipt of a paid link payment, queued by the link owner when the
// payment settles. Keyed by the link payment, so it is queued once; the handler rereads the row,
// so a payment rolled back after queueing sends nothing.
import { exponential, type Agenda, type Job } from 'agenda';
import type { Services } from '../domain/services.ts';
import { SEND_RECEIPT_JOB, sendReceipt } from '../domain/payment-links/receipt.ts';

export interface SendReceiptData {
  linkPaymentId: string;
}

export function defineSendReceipt(agenda: Agenda, s: Services): void {
  agenda.define<SendReceiptData>(SEND_RECEIPT_JOB, async (job: Job<SendReceiptData>) => {
    await sendReceipt(s, job.attrs.data.linkPaymentId);
  }, { backoff: exponential({ delay: 30_000, maxRetries: 5 }) });
}
