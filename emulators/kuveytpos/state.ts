// What the emulated KuveytPOS remembers: orders (one per MerchantOrderId, with the bank's OrderId,
// the sale's RRN, Stan and provision, what was refunded and cancelled), and the 3-D
// authentications between the enrollment and the provision (found by their ACS token and MD).
// Amounts are integer minor units.
import { randomBytes, randomInt } from 'node:crypto';
import { openSession, type AcsSession } from '../bank/acs.ts';

export interface Order {
  merchantOrderId: string;
  orderId: string;
  amount: number;
  /** Three digits, as the bank's answers write it ("949"). */
  currency: string;
  installments: string;
  cardMasked: string;
  transactionSecurity: string;
  /** '00' approved, else the refusal. */
  responseCode: string;
  responseMessage: string;
  rrn: string;
  stan: string;
  provision: string;
  refunded: number;
  cancelled: boolean;
  /** "2024-04-24T16:03:42.07" */
  orderDate: string;
}

export interface Authentication extends AcsSession {
  md: string;
  merchantOrderId: string;
  /** The bank's OrderId, given at the enrollment and kept by the sale. */
  orderId: string;
  amount: number;
  currency: string;
  installments: string;
  okUrl: string;
  failUrl: string;
  cardNumber: string;
  expiry: { month: string; year: string };
  authenticated: boolean;
}

export class KuveytState {
  orders = new Map<string, Order>();
  authentications = new Map<string, Authentication>();
  #orderId = 155767800;

  reset(): void {
    this.orders.clear();
    this.authentications.clear();
  }

  snapshot(): { orders: Order[]; authentications: Array<Omit<Authentication, 'cardNumber' | 'md'>> } {
    return { orders: [...this.orders.values()], authentications: [...this.authentications.values()].map(({ cardNumber: _c, md: _m, ...rest }) => rest) };
  }

  nextOrderId(): string {
    this.#orderId += 1;
    return String(this.#orderId);
  }

  newAuthentication(fields: Omit<Authentication, keyof AcsSession | 'md' | 'orderId' | 'authenticated'>): Authentication {
    return openSession(this.authentications, { ...fields, md: randomBytes(36).toString('base64'), orderId: this.nextOrderId(), authenticated: false });
  }

  byMd(md: string): Authentication | undefined {
    return [...this.authentications.values()].find((a) => a.md === md);
  }

  /** The host's references for one approved transaction. */
  references(): { rrn: string; stan: string; provision: string } {
    const stan = String(randomInt(100000, 999999));
    return { rrn: `${randomInt(100000, 999999)}${stan}`, stan, provision: String(randomInt(100000, 999999)).padStart(6, '0') };
  }
}
