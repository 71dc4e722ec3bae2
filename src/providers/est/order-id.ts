// EST's order ids: the gateway's own (bankOrderId, ../bank-order-id.ts), and the shape an id the
// connector is handed must have before it is sent as OrderId.

/** Whether a provider reference can be an EST order id (1-64 letters, digits, "-" or "_"): only such is sent as OrderId. */
export function isOrderId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(value);
}
