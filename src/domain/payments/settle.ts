// What happens when a payment reaches its final state: status columns, and the event of the
// record that owns it (API payments emit transaction.*, orders/links/subscriptions their own).
import type { Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { recordEvent, type EventKind } from '../events.ts';

export type Final =
  | { status: 'successful'; providerReference: string }
  | { status: 'failed'; errorCode: string; errorMessage: string }
  | { status: 'unresolved'; errorCode: string; errorMessage: string };

/** Hooks of the records that own non-API payments (orders, links, subscriptions) register here. */
export type SettleHook = (tx: Tx, payment: Payment, at: Date) => Promise<void>;
const hooks = new Map<Payment['source'], SettleHook>();
export function onPaymentSettled(source: Payment['source'], hook: SettleHook): void {
  hooks.set(source, hook);
}

export async function settlePayment(tx: Tx, paymentId: string, final: Final, at: Date): Promise<Payment> {
  const payment = await tx.payment.update({
    where: { id: paymentId },
    data:
      final.status === 'successful'
        ? { status: 'successful', paymentStatus: 'paid', providerReference: final.providerReference, completedAt: at, threeDsToken: null }
        : { status: final.status, errorCode: final.errorCode, errorMessage: final.errorMessage, completedAt: at, threeDsToken: null },
  });
  // No notification for a payment whose provider did not answer (spec: Events).
  if (final.status === 'unresolved') return payment;
  if (payment.source === 'api') {
    const kind: EventKind = final.status === 'successful' ? 'transaction.successful' : 'transaction.failed';
    await recordEvent(tx, { workspaceId: payment.workspaceId, kind, recordToken: payment.id }, at);
  } else {
    await hooks.get(payment.source)?.(tx, payment, at);
  }
  return payment;
}
