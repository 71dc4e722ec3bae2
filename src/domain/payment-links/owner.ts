// The owner of payments taken on a link's page: a success marks its link payment paid and sends
// payment_link.paid (with the link payment and the transaction), then the receipt when the link
// e-mails customers; a failure or expiry marks the link payment failed (it stays among the
// link's transactions); refunds and cancels send payment_link.payment_*. A failed 3D step goes
// back to the link page. The receipt sender comes from where the gateway is assembled.
import type { Tx } from '../../db/client.ts';
import type { Payment } from '../../generated/prisma/client.ts';
import { recordEvent, type EventKind } from '../events.ts';
import type { PaymentOwner } from '../payments/owners.ts';
import { LINK_AS_RELATION } from './view.ts';

export interface LinkOwnerDeps {
  /** Queues the receipt of a paid link payment (sent after the commit, at most once). */
  queueReceipt(linkPaymentId: string): Promise<void>;
}

export const linkPaymentPage = (paymentId: string) => `/checkout/link/payment/${paymentId}`;

export function linkPayments(deps: LinkOwnerDeps): PaymentOwner {
  const linkPaymentOf = (tx: Tx, payment: Payment) => tx.linkPayment.findUniqueOrThrow({ where: { id: payment.linkPaymentId! }, include: { link: true }, ...LINK_AS_RELATION });
  return {
    source: 'payment_link',
    async settled(tx, payment, at) {
      if (!payment.linkPaymentId) return;
      const lp = await linkPaymentOf(tx, payment);
      if (payment.status !== 'successful') {
        await tx.linkPayment.update({ where: { id: lp.id }, data: { status: 'failed' } });
        return;
      }
      await tx.linkPayment.update({ where: { id: lp.id }, data: { status: 'paid', paidAt: at } });
      await recordEvent(tx, { workspaceId: payment.workspaceId, kind: 'payment_link.paid', recordToken: lp.linkId, linkPaymentToken: lp.id, transactionToken: payment.id }, at);
      if (lp.link.emailsCustomer && lp.payerEmail) await deps.queueReceipt(lp.id);
    },
    async expired(tx, payment) {
      if (payment.linkPaymentId) await tx.linkPayment.update({ where: { id: payment.linkPaymentId }, data: { status: 'failed' } });
    },
    async moneyReturned(tx, payment, action, at) {
      if (!payment.linkPaymentId) return;
      const lp = await linkPaymentOf(tx, payment);
      const kind: EventKind = action === 'refunded' ? 'payment_link.payment_refunded' : 'payment_link.payment_cancelled';
      await recordEvent(tx, { workspaceId: payment.workspaceId, kind, recordToken: lp.linkId, linkPaymentToken: lp.id, transactionToken: payment.id }, at);
    },
    // Links have no merchant address to return to: the payer comes back to the link's own page,
    // which shows the receipt or why the payment failed.
    failedThreeDsPage: (payment) => linkPaymentPage(payment.id),
    succeededThreeDsPage: (payment) => linkPaymentPage(payment.id),
  };
}
