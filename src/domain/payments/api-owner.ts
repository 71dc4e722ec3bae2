// The owner of payments started by the API (secure-payment, regular-payment): they send the
// transaction.* events, and a failed 3D step returns to the merchant's callback_url like any other.
import { recordEvent, type EventKind } from '../events.ts';
import type { PaymentOwner } from './owners.ts';

export const apiPayments: PaymentOwner = {
  source: 'api',
  settledEvent: (payment) => ({ workspaceId: payment.workspaceId, kind: payment.status === 'successful' ? 'transaction.successful' : 'transaction.failed', recordToken: payment.id }),
  async expired(tx, payment, at) {
    await recordEvent(tx, { workspaceId: payment.workspaceId, kind: 'transaction.expired', recordToken: payment.id }, at);
  },
  async moneyReturned(tx, payment, action, at) {
    const kind: EventKind = action === 'refunded' ? 'transaction.payment_refunded' : 'transaction.payment_cancelled';
    await recordEvent(tx, { workspaceId: payment.workspaceId, kind, recordToken: payment.id }, at);
  },
  failedThreeDsPage: () => null,
};
