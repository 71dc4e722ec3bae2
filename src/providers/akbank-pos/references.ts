// An Akbank payment's providerReference is its order id: refunds, cancels and the order history
// name the order, not a transaction. A refund's or cancel's reference adds the bank's rrn when it
// gives one: "<orderid>:<rrn>". The 3D model's sale after the callback repeats the start's
// instalment count, which the payment gives back (ThreeDsPayment.installmentNumber); a 3-D start
// made before it did carried the count in its reference, "<orderid>:t<n>", still read here.

export function formatRef(orderId: string, rrn: string | undefined): string {
  return rrn === undefined || rrn === '' || rrn === '0' ? orderId : `${orderId}:${rrn}`;
}

const REF = /^([A-Za-z0-9]{1,36})(?::(\d{1,20}|t\d{1,2}))?$/;

/** The order id of a reference this connector wrote; null for any other. */
export function orderIdOf(reference: string): string | null {
  return REF.exec(reference)?.[1] ?? null;
}

/** The instalment count an older 3-D start's reference carries (1 when it names none). */
export function installmentsOf(reference: string): number {
  const tail = REF.exec(reference)?.[2] ?? '';
  return tail.startsWith('t') ? Number(tail.slice(1)) : 1;
}
