// The owner of payments taken on an order's checkout page: a success marks the open order paid
// (once) and sends order.paid; refunds and cancels send order.*; a failed 3D step returns to the
// order page, which shows why and lets the customer try again. No transaction.* events.
import { recordEvent, type EventKind } from '../events.ts';
import type { PaymentOwner } from '../payments/owners.ts';

export const orderPayments: PaymentOwner = {
  source: 'order',
  async settled(tx, payment, at) {
    if (payment.status !== 'successful' || !payment.orderId) return;
    // A second success (which the in-progress guard of payOrder prevents) would find the order paid.
    const { count } = await tx.order.updateMany({ where: { id: payment.orderId, status: 'open' }, data: { status: 'paid', paidAt: at } });
    if (count === 0) return;
    await recordEvent(tx, { workspaceId: payment.workspaceId, kind: 'order.paid', recordToken: payment.orderId, transactionToken: payment.id }, at);
  },
  // An order attempt whose page was never opened just ends; the order stays open for another try.
  expired: async () => {},
  async moneyReturned(tx, payment, action, at) {
    if (!payment.orderId) return;
    const kind: EventKind = action === 'refunded' ? 'order.payment_refunded' : 'order.payment_cancelled';
    await recordEvent(tx, { workspaceId: payment.workspaceId, kind, recordToken: payment.orderId, transactionToken: payment.id }, at);
  },
  failedThreeDsPage: (payment) => (payment.orderId ? `/checkout/order/${payment.orderId}?attempt=${payment.id}` : null),
};
