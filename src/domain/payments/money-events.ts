// Refund and cancel events go to the record that owns the payment (spec: Event kinds).
import type { Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { recordEvent, type DomainEvent } from '../events.ts';

export async function recordMoneyEvent(tx: Tx, p: Payment, action: 'refunded' | 'cancelled', at: Date): Promise<void> {
  const suffix = action === 'refunded' ? 'payment_refunded' : 'payment_cancelled';
  const base = { workspaceId: p.workspaceId, transactionToken: p.id };
  let event: DomainEvent;
  if (p.source === 'order' && p.orderId) {
    event = { ...base, kind: `order.${suffix}`, recordToken: p.orderId };
  } else if (p.source === 'subscription' && p.subscriptionId) {
    event = { ...base, kind: `subscription.${suffix}`, recordToken: p.subscriptionId };
  } else if (p.source === 'payment_link' && p.linkPaymentId) {
    const lp = await tx.linkPayment.findUniqueOrThrow({ where: { id: p.linkPaymentId } });
    event = { ...base, kind: `payment_link.${suffix}`, recordToken: lp.linkId, linkPaymentToken: lp.id };
  } else {
    event = { workspaceId: p.workspaceId, kind: `transaction.${suffix}`, recordToken: p.id };
  }
  await recordEvent(tx, event, at);
}
