// The gateway keeps one opaque reference per payment and per saved card; iyzico needs two ids for
// each. A payment's reference is "<paymentId>" while a 3D payment waits for the shopper and
// "<paymentId>:<paymentTransactionId>" once paid (a refund names the basket item's transaction;
// the gateway sends one item per payment). A saved card's is "<cardUserKey>:<cardToken>".
// iyzico's ids are digits and its card keys base64, so ':' never occurs inside them.

export interface PaymentRef {
  paymentId: string;
  paymentTransactionId: string | null;
}

export interface CardRef {
  cardUserKey: string;
  cardToken: string;
}

const PART = /^[^:\s]+$/;

export function formatPaymentRef({ paymentId, paymentTransactionId }: PaymentRef): string {
  if (!PART.test(paymentId) || (paymentTransactionId !== null && !PART.test(paymentTransactionId))) {
    throw new RangeError('iyzico payment ids must be non-empty and contain no ":"');
  }
  return paymentTransactionId === null ? paymentId : `${paymentId}:${paymentTransactionId}`;
}

/** null when the text is not a reference this module wrote. */
export function parsePaymentRef(reference: string): PaymentRef | null {
  const parts = reference.split(':');
  if (parts.length > 2 || !parts.every((p) => PART.test(p))) return null;
  return { paymentId: parts[0]!, paymentTransactionId: parts[1] ?? null };
}

export function formatCardRef({ cardUserKey, cardToken }: CardRef): string {
  if (!PART.test(cardUserKey) || !PART.test(cardToken)) throw new RangeError('iyzico card keys must be non-empty and contain no ":"');
  return `${cardUserKey}:${cardToken}`;
}

/** null when the text is not a reference this module wrote. */
export function parseCardRef(reference: string): CardRef | null {
  const parts = reference.split(':');
  if (parts.length !== 2 || !parts.every((p) => PART.test(p))) return null;
  return { cardUserKey: parts[0]!, cardToken: parts[1]! };
}
