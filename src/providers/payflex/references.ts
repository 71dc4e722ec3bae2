// A PayFlex payment's providerReference: after its 3-D start, the order id and the enrollment's
// VerifyEnrollmentRequestId ("<orderid>:<enrollment id>", which the callback must name); once sold,
// the order id and the sale's TransactionId at the bank ("<orderid>:<transactionid>"), which refunds
// and cancels name (ReferenceTransactionId). A refund's or cancel's reference is the order id and
// its own TransactionId.

export function formatRef(orderId: string, transactionId: string): string {
  return `${orderId}:${transactionId}`;
}

export interface PayflexRef {
  orderId: string;
  /** The sale's (or a refund's) TransactionId; for a started 3-D payment, its enrollment id. */
  transactionId: string | null;
}

/** The parts of a reference this connector wrote; null for any other. */
export function parseRef(reference: string): PayflexRef | null {
  const match = /^([a-p]{32})(?::([A-Za-z0-9-]{1,64}))?$/.exec(reference);
  return match ? { orderId: match[1]!, transactionId: match[2] ?? null } : null;
}
