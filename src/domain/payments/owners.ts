// Every payment attempt has an owner: the API (secure/regular-payment), an order page, a
// subscription (its page and its renewals) or a payment link's page. The attempt itself is the same for all (attempt.ts); the
// owner says what its settlement means, which events it sends and where a failed 3D attempt
// returns. The table of owners is built where the gateway is assembled (src/gateway.ts).
import type { Payment } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { DomainEvent } from '../events.ts';

export type PaymentSource = Payment['source'];

/** A payment as settled: what its owner's event says of it. */
export type SettledPayment = Pick<Payment, 'id' | 'workspaceId'> & { status: 'successful' | 'failed' };

/**
 * What an owner does when its payment settles (not for `unresolved`): either no more than an event
 * (API payments), which settle.ts then writes in the status columns' own statement, or anything,
 * in the settlement's transaction after the status columns are written.
 */
type Settlement =
  | { settledEvent(payment: SettledPayment): DomainEvent; settled?: never }
  | { settled(tx: Tx, payment: Payment, at: Date): Promise<void>; settledEvent?: never };

export type PaymentOwner = Settlement & {
  source: PaymentSource;
  /** In the transaction that expires an unopened 3D attempt. */
  expired(tx: Tx, payment: Payment, at: Date): Promise<void>;
  /** In the transaction that records a refund or cancel the provider accepted. */
  moneyReturned(tx: Tx, payment: Payment, action: 'refunded' | 'cancelled', at: Date): Promise<void>;
  /** The page a customer goes back to after a failed 3D step; null: the return POST to callbackUrl. */
  failedThreeDsPage(payment: Payment): string | null;
  /** The same after a successful one, for owners without a merchant address to return to. */
  succeededThreeDsPage?(payment: Payment): string | null;
};

export type PaymentOwners = ReadonlyMap<PaymentSource, PaymentOwner>;

export function paymentOwners(owners: PaymentOwner[]): PaymentOwners {
  return new Map(owners.map((owner) => [owner.source, owner]));
}

export function ownerOf(owners: PaymentOwners, payment: Pick<Payment, 'source'>): PaymentOwner {
  const owner = owners.get(payment.source);
  // A payment whose owner is not in the table would settle silently without its events.
  if (!owner) throw new Error(`no payment owner for source "${payment.source}"`);
  return owner;
}
