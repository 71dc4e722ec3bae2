// The gateway keeps one opaque reference per payment and per saved card. A payment's is iyzico's
// "<paymentId>": refunds (v2), cancels, 3D completion and inquiries all name the payment by it.
// References written before refunds went by paymentId also carry the basket items' transaction
// ids, "<paymentId>:<paymentTransactionId>" or "<paymentId>:<tx1>,<tx2>,...": they are still read,
// and only their paymentId is used. A saved card's is "<cardUserKey>:<cardToken>". iyzico's ids
// are digits and its card keys base64, so ':' and ',' never occur inside them.

export interface PaymentRef {
  paymentId: string;
}

export interface CardRef {
  cardUserKey: string;
  cardToken: string;
}

const PART = /^[^:\s]+$/;
const PAYMENT_ID = /^[^:,\s]+$/;
/** The older form's transaction ids: one or more, joined by ','. */
const TRANSACTIONS = /^[^:,\s]+(?:,[^:,\s]+)*$/;

export function formatPaymentRef({ paymentId }: PaymentRef): string {
  if (!PAYMENT_ID.test(paymentId)) throw new RangeError('iyzico payment ids must be non-empty and contain no ":" or ","');
  return paymentId;
}

/** null when the text is not a reference this module wrote (in either form). */
export function parsePaymentRef(reference: string): PaymentRef | null {
  const parts = reference.split(':');
  if (parts.length > 2 || !PAYMENT_ID.test(parts[0]!)) return null;
  if (parts.length === 2 && !TRANSACTIONS.test(parts[1]!)) return null;
  return { paymentId: parts[0]! };
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
