// A PayFor payment's providerReference is its order id: refunds, voids and inquiries name the order
// (OrgOrderId), not a transaction. A refund's or void's reference adds the bank's HostRefNum when
// it gives one: "<orderid>" or "<orderid>:<hostrefnum>".

export function formatRef(orderId: string, hostRefNum: string | undefined): string {
  return hostRefNum === undefined || hostRefNum === '' ? orderId : `${orderId}:${hostRefNum}`;
}

/** The order id of a reference this connector wrote; null for any other. */
export function orderIdOf(reference: string): string | null {
  return /^([A-Za-z0-9]{1,32})(?::[0-9A-Za-z]{1,32})?$/.exec(reference)?.[1] ?? null;
}
