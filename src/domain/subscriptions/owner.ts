// The owner of subscription payments: the checkout page's 3D payments (first period, or a past
// due one) and the renewal charges. A success marks the period paid and the subscription active
// (subscription.active with the transaction); a failed renewal makes it past_due; a failed page
// payment changes nothing and the customer returns to the page. Refunds and cancels send
// subscription.payment_*; never transaction.* (contract: Events).
import { recordEvent, type EventKind } from '../events.ts';
import type { PaymentOwner } from '../payments/owners.ts';
import { periodPaid, renewalFailed } from './transitions.ts';
import { retryPageOf } from './view.ts';

export const subscriptionPayments: PaymentOwner = {
  source: 'subscription',
  async settled(tx, payment, at) {
    if (!payment.subscriptionId || !payment.periodId) return;
    if (payment.status === 'successful') return periodPaid(tx, payment, at);
    // Renewals are the only charges without 3D; a page payment that failed leaves the state as it was.
    if (payment.securityType === 'non_secure') return renewalFailed(tx, payment.subscriptionId, payment.periodId, at);
  },
  // An unopened 3D page just ends; the period stays open on the checkout page.
  expired: async () => {},
  async moneyReturned(tx, payment, action, at) {
    if (!payment.subscriptionId) return;
    const kind: EventKind = action === 'refunded' ? 'subscription.payment_refunded' : 'subscription.payment_cancelled';
    await recordEvent(tx, { workspaceId: payment.workspaceId, kind, recordToken: payment.subscriptionId, transactionToken: payment.id }, at);
  },
  failedThreeDsPage: (payment) => (payment.subscriptionId ? retryPageOf(payment.subscriptionId, payment.id) : null),
};
