// What a KuveytPOS payment's providerReference holds. KuveytPOS names a sale by our order id
// (MerchantOrderId) and its own OrderId, and a refund or cancel must repeat the sale's RRN, Stan
// and ProvisionNumber, its amount and currency (a cancel of the contract carries neither), so a
// sale's reference keeps them all: "<merchantOrderId>:<orderId>:<rrn>:<stan>:<provision>:<amount
// in minor units>:<currency code>". Between the 3-D start and the provision the reference is the
// order id, with the instalment count when there is one ("<merchantOrderId>:t3"): the provision
// must repeat it, and neither the callback's signature nor the contract's ThreeDsPayment covers it.

export interface SaleRef {
  merchantOrderId: string;
  orderId: string;
  rrn: string;
  stan: string;
  provision: string;
  amount: bigint;
  /** ISO 4217 numeric, three digits ("949"). */
  currency: string;
}

export type KuveytRef = { kind: 'started'; merchantOrderId: string; installments: number } | ({ kind: 'sale' } & SaleRef);

export const startRef = (merchantOrderId: string, installments: number): string => (installments > 1 ? `${merchantOrderId}:t${installments}` : merchantOrderId);

export const saleRef = (s: SaleRef): string => [s.merchantOrderId, s.orderId, s.rrn, s.stan, s.provision, s.amount.toString(), s.currency].join(':');

const ORDER = '[A-Za-z0-9_-]{1,64}';
const STARTED = new RegExp(`^(${ORDER})(?::t(\\d{1,2}))?$`);
const SALE = new RegExp(`^(${ORDER}):(\\d{1,20}):(\\w{0,32}):(\\w{0,32}):(\\w{0,32}):(\\d{1,18}):(\\d{3})$`);

/** A reference this connector wrote; null for any other. */
export function parseRef(reference: string): KuveytRef | null {
  const sale = SALE.exec(reference);
  if (sale) {
    const [, merchantOrderId, orderId, rrn, stan, provision, amount, currency] = sale as unknown as [string, string, string, string, string, string, string, string];
    return { kind: 'sale', merchantOrderId, orderId, rrn, stan, provision, amount: BigInt(amount), currency };
  }
  const started = STARTED.exec(reference);
  return started ? { kind: 'started', merchantOrderId: started[1]!, installments: Number(started[2] ?? '1') } : null;
}
