// A Garanti payment's providerReference: GVP's order id, then, once a sale is approved, its
// RetrefNum (the host's reference a void names as OriginalRetrefNum): "<orderid>" or
// "<orderid>:<retrefnum>". Refunds and inquiries need only the order id.

export interface GarantiPaymentRef {
  orderId: string;
  retrefNum?: string;
}

export function formatPaymentRef(ref: GarantiPaymentRef): string {
  return ref.retrefNum === undefined || ref.retrefNum === '' ? ref.orderId : `${ref.orderId}:${ref.retrefNum}`;
}

/** null when the reference is not one this connector wrote. */
export function parsePaymentRef(reference: string): GarantiPaymentRef | null {
  const match = /^([A-Za-z0-9]{1,36})(?::([0-9A-Za-z]{1,32}))?$/.exec(reference);
  if (!match) return null;
  return match[2] === undefined ? { orderId: match[1]! } : { orderId: match[1]!, retrefNum: match[2] };
}
