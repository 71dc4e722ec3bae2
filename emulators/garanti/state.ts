// What the emulated bank remembers: orders (one per orderid) with their transactions, and the
// 3-D Secure sessions between the gate and the XML sale. Amounts are integer minor units.
import { randomBytes } from 'node:crypto';
import { openSession } from '../bank/acs.ts';

export type TxnType = 'sales' | 'refund' | 'void';

export interface Txn {
  type: TxnType;
  /** '00' approved, else the decline code. */
  code: string;
  amount: number;
  retrefNum: string;
  authCode: string;
  batchNum: string;
  sequenceNum: string;
  provDate: string;
  /** A sale or refund later voided. */
  voided: boolean;
  /** When it was voided (GVP's date form), '' while it stands. */
  voidDate: string;
}

export interface Order {
  orderId: string;
  currency: string;
  installments: string;
  cardMasked: string;
  txns: Txn[];
}

/** One 3-D Secure authentication, found again by its `md` when the 3D model's XML sale arrives. */
export interface ThreeDSession {
  token: string;
  md: string;
  xid: string;
  orderId: string;
  amount: string;
  currency: string;
  installments: string;
  securityLevel: string;
  cardNumber: string;
  expiry: { month: string; year: string };
  /** The form as posted, less the card data: echoed in the callback. */
  echo: Record<string, string>;
  mdStatus: string | null;
  /** Set when the shopper is authenticated: the 3D model's sale must send them back. */
  cavv: string;
  eci: string;
  /** The behaviour control "decline" was taken at the gate: a paying level's charge is declined. */
  forceDecline: boolean;
  /** The callback was posted (an ACS page answers once). */
  answered: boolean;
  /** The 3D model's sale may use the authentication once. */
  used: boolean;
}

export class GarantiState {
  orders = new Map<string, Order>();
  sessions = new Map<string, ThreeDSession>();
  private sequence = 0;

  reset(): void {
    this.orders.clear();
    this.sessions.clear();
    this.sequence = 0;
  }

  /** The order's approved sale that is not voided. */
  sale(order: Order): Txn | undefined {
    return order.txns.find((t) => t.type === 'sales' && t.code === '00' && !t.voided);
  }

  charged(order: Order): number {
    return this.sale(order)?.amount ?? 0;
  }

  refunded(order: Order): number {
    return order.txns.filter((t) => t.type === 'refund' && t.code === '00' && !t.voided).reduce((sum, t) => sum + t.amount, 0);
  }

  newTxn(type: TxnType, code: string, amount: number, now: Date): Txn {
    this.sequence += 1;
    const approved = code === '00';
    return {
      type,
      code,
      amount,
      retrefNum: approved ? `${now.getUTCFullYear() % 100}${String(1_000_000_000 + this.sequence).slice(1)}1` : '',
      authCode: approved ? String(randomBytes(3).readUIntBE(0, 3) % 900000 + 100000) : '',
      batchNum: approved ? '5168' : '',
      sequenceNum: approved ? String(this.sequence) : '',
      provDate: provDate(now),
      voided: false,
      voidDate: '',
    };
  }

  newSession(fields: Pick<ThreeDSession, 'orderId' | 'amount' | 'currency' | 'installments' | 'securityLevel' | 'cardNumber' | 'expiry' | 'echo' | 'mdStatus' | 'forceDecline'>): ThreeDSession {
    return openSession(this.sessions, { ...fields, md: randomBytes(48).toString('base64'), xid: randomBytes(20).toString('base64'), cavv: '', eci: '' });
  }

  sessionByMd(md: string): ThreeDSession | undefined {
    return [...this.sessions.values()].find((s) => s.md === md);
  }

  /** JSON for GET /_emulator/state: no card numbers. */
  snapshot(): unknown {
    return {
      orders: [...this.orders.values()].map((o) => ({
        ...o,
        charged: this.charged(o),
        refunded: this.refunded(o),
      })),
      threeDSessions: [...this.sessions.values()].map((s) => ({ token: s.token, orderId: s.orderId, amount: s.amount, currency: s.currency, securityLevel: s.securityLevel, mdStatus: s.mdStatus, used: s.used })),
    };
  }
}

/** GVP's "20221101 13:14:19". */
export function provDate(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)} ${iso.slice(11, 19)}`;
}
