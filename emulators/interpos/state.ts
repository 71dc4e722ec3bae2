// What the emulated bank remembers: orders (one per OrderId) with their transactions, and the 3-D
// Secure sessions between the gate and the 3D model's API sale. Amounts are integer minor units.
import { randomBytes } from 'node:crypto';
import { openSession } from '../bank/acs.ts';

export type TxnType = 'Auth' | 'Refund' | 'Void';

export interface Txn {
  type: TxnType;
  /** '00' approved, else the decline code. */
  code: string;
  amount: number;
  transId: string;
  hostRefNum: string;
  authCode: string;
  date: string;
}

export interface Order {
  orderId: string;
  currency: string;
  installments: string;
  cardMasked: string;
  txns: Txn[];
  /** When the sale was voided (InterPOS's VoidDate form), '' while it stands. */
  voidDate: string;
}

/** One 3-D Secure authentication, found again by its MD when the 3D model's API sale arrives. */
export interface ThreeDSession {
  token: string;
  md: string;
  payerTxnId: string;
  orderId: string;
  /** As the form posted it ("100.25") and in minor units. */
  purchAmount: string;
  amount: number;
  currency: string;
  installments: string;
  secureType: '3DModel' | '3DPay' | '3DHost';
  /** Empty until the 3D Host model's card page is posted. */
  cardNumber: string;
  expiry: string;
  /** The form as posted, less the card data: echoed in the callback. */
  echo: Record<string, string>;
  mdStatus: string | null;
  /** Set when the shopper is authenticated: the 3D model's sale must send them back. */
  eci: string;
  cavv: string;
  /** The behaviour control "decline" was taken at the gate: a paying model's charge is declined. */
  forceDecline: boolean;
  /** The callback was posted (an ACS page answers once). */
  answered: boolean;
  /** The 3D model's sale may use the authentication once. */
  used: boolean;
}

export class InterPosState {
  orders = new Map<string, Order>();
  sessions = new Map<string, ThreeDSession>();
  private sequence = 0;

  reset(): void {
    this.orders.clear();
    this.sessions.clear();
    this.sequence = 0;
  }

  /** The order's approved sale. */
  sale(order: Order): Txn | undefined {
    return order.txns.find((t) => t.type === 'Auth' && t.code === '00');
  }

  refunded(order: Order): number {
    return order.txns.filter((t) => t.type === 'Refund' && t.code === '00').reduce((sum, t) => sum + t.amount, 0);
  }

  /** A system id for an answer that names no order of the merchant's (refunds, voids, inquiries), as InterPOS's "SYSOID121332551". */
  systemId(): string {
    this.sequence += 1;
    return `SYSOID${120_000_000 + this.sequence}`;
  }

  newTxn(type: TxnType, code: string, amount: number, date: string): Txn {
    this.sequence += 1;
    const approved = code === '00';
    return {
      type,
      code,
      amount,
      transId: String(33_550_000 + this.sequence),
      hostRefNum: approved ? String(400_000_000_000 + this.sequence) : '',
      authCode: approved ? String((randomBytes(3).readUIntBE(0, 3) % 900000) + 100000) : '',
      date,
    };
  }

  newSession(fields: Pick<ThreeDSession, 'orderId' | 'purchAmount' | 'amount' | 'currency' | 'installments' | 'secureType' | 'cardNumber' | 'expiry' | 'echo' | 'mdStatus' | 'forceDecline'>): ThreeDSession {
    return openSession(this.sessions, { ...fields, md: randomBytes(32).toString('base64'), payerTxnId: randomBytes(20).toString('base64'), eci: '', cavv: '' });
  }

  sessionByMd(md: string): ThreeDSession | undefined {
    return [...this.sessions.values()].find((s) => s.md === md);
  }

  /** JSON for GET /_emulator/state: no card numbers. */
  snapshot(): unknown {
    return {
      orders: [...this.orders.values()].map((o) => ({ ...o, charged: this.sale(o)?.amount ?? 0, refunded: this.refunded(o) })),
      threeDSessions: [...this.sessions.values()].map((s) => ({ token: s.token, orderId: s.orderId, amount: s.amount, currency: s.currency, secureType: s.secureType, mdStatus: s.mdStatus, used: s.used })),
    };
  }
}
