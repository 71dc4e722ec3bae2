// What happens when a payment reaches its final state: status columns, then its owner's part
// (API payments send transaction.*, orders order.paid, ...), in one transaction.
import type { Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { updateRow, type Columns } from '../../db/rows.ts';
import { ownerOf, type PaymentOwners } from './owners.ts';
import { savePaymentCard } from '../saved-cards.ts';

export type Final =
  | { status: 'successful'; providerReference: string }
  | { status: 'failed'; errorCode: string; errorMessage: string }
  | { status: 'unresolved'; errorCode: string; errorMessage: string };

export async function settlePayment(tx: Tx, owners: PaymentOwners, paymentId: string, final: Final, at: Date): Promise<Payment> {
  const columns: Columns<Payment> =
    final.status === 'successful'
      ? { status: 'successful', paymentStatus: 'paid', providerReference: final.providerReference, completedAt: at, threeDsToken: null }
      : { status: final.status, errorCode: final.errorCode, errorMessage: final.errorMessage, completedAt: at, threeDsToken: null };
  let payment = await updateRow<Payment>(tx, 'Payment', paymentId, columns);
  // card.should_save on a 3D payment: the card tokenised at the start is saved now, before the
  // owner runs, so an owner can rely on storedCardId (a subscription makes it the default card).
  if (final.status === 'successful' && payment.pendingCardReference) {
    await savePaymentCard(tx, payment.id, payment.pendingCardReference, at);
    payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
  }
  // No notification for a payment whose provider did not answer (spec: Events).
  if (final.status !== 'unresolved') await ownerOf(owners, payment).settled(tx, payment, at);
  return payment;
}
