// An InterPOS payment's providerReference: its order id, every call about the payment names it
// (refunds, voids and the status inquiry by orgOrderId). A 3D start in instalments adds their
// number ("<orderid>:<n>"): the callback does not echo InstallmentCount, and the 3D sale must
// send the number the gate signed.

export interface InterPosPaymentRef {
  orderId: string;
  installments: number;
}

export function formatPaymentRef(ref: InterPosPaymentRef): string {
  return ref.installments > 1 ? `${ref.orderId}:${ref.installments}` : ref.orderId;
}

/** null when the reference is not one this connector wrote. */
export function parsePaymentRef(reference: string): InterPosPaymentRef | null {
  const match = /^([A-Za-z0-9]{1,64})(?::([2-9]|1[0-2]))?$/.exec(reference);
  if (!match) return null;
  return { orderId: match[1]!, installments: match[2] === undefined ? 1 : Number(match[2]) };
}
