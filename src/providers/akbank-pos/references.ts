// An Akbank payment's providerReference is its order id: refunds, cancels and the order history
// name the order, not a transaction. A refund's or cancel's reference adds the bank's rrn when it
// gives one: "<orderid>:<rrn>". A 3D-model payment between its start and its sale also carries
// its instalment count, "<orderid>:t<n>", because the sale after the callback must repeat it and
// the callback does not echo it.

export function formatRef(orderId: string, rrn: string | undefined): string {
  return rrn === undefined || rrn === '' || rrn === '0' ? orderId : `${orderId}:${rrn}`;
}

/** The 3-D start's reference: the order id, and the instalment count when it is more than one. */
export function startRef(orderId: string, installments: number): string {
  return installments > 1 ? `${orderId}:t${installments}` : orderId;
}

const REF = /^([A-Za-z0-9]{1,36})(?::(\d{1,20}|t\d{1,2}))?$/;

/** The order id of a reference this connector wrote; null for any other. */
export function orderIdOf(reference: string): string | null {
  return REF.exec(reference)?.[1] ?? null;
}

/** The instalment count a 3-D start's reference carries (1 when it names none). */
export function installmentsOf(reference: string): number {
  const tail = REF.exec(reference)?.[2] ?? '';
  return tail.startsWith('t') ? Number(tail.slice(1)) : 1;
}
