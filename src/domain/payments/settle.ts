// What happens when a payment reaches its final state: status columns, then its owner's part
// (API payments send transaction.*, orders order.paid, ...), in one transaction.
import type { Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { ownerOf, type PaymentOwners } from './owners.ts';

export type Final =
  | { status: 'successful'; providerReference: string }
  | { status: 'failed'; errorCode: string; errorMessage: string }
  | { status: 'unresolved'; errorCode: string; errorMessage: string };

export async function settlePayment(tx: Tx, owners: PaymentOwners, paymentId: string, final: Final, at: Date): Promise<Payment> {
  const payment = await tx.payment.update({
    where: { id: paymentId },
    data:
      final.status === 'successful'
        ? { status: 'successful', paymentStatus: 'paid', providerReference: final.providerReference, completedAt: at, threeDsToken: null }
        : { status: final.status, errorCode: final.errorCode, errorMessage: final.errorMessage, completedAt: at, threeDsToken: null },
  });
  // No notification for a payment whose provider did not answer (spec: Events).
  if (final.status !== 'unresolved') await ownerOf(owners, payment).settled(tx, payment, at);
  return payment;
}
