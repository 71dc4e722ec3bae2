// What the emulated PosNet holds: the 3-D sessions its oosRequestData opened (the card stays here,
// as at the bank), and the orders with their transactions (Sale, Return, Reverse) as the
// agreement inquiry lists them. Orders are keyed by the 24-character order id inquiries use.
import { randomBytes } from 'node:crypto';

export interface Session {
  id: string;
  xid: string;
  amount: bigint;
  currency: string;
  installment: string;
  cardNumber: string;
  expDate: string;
  /** Set by the gate: where the result goes. */
  callbackUrl: string | null;
  /** Set by the ACS (or at once for a card that needs no challenge). */
  mdStatus: string | null;
  /** The sealed packets handed to the browser, once answered; a sale spends them. */
  packets: { bank: string; merchant: string; sign: string } | null;
  spent: boolean;
}

export interface Line {
  state: 'Sale' | 'Return' | 'Reverse';
  amount: bigint;
  hostlogkey: string;
  authCode: string;
  tranDate: string;
}

export interface Order {
  orderId: string;
  currency: string;
  /** As the request gave it: "00" for one payment, else two digits. */
  installment: string;
  cardMasked: string;
  lines: Line[];
}

export class PosnetBooks {
  readonly sessions = new Map<string, Session>();
  readonly orders = new Map<string, Order>();

  open(session: Omit<Session, 'id' | 'callbackUrl' | 'mdStatus' | 'packets' | 'spent'>): Session {
    const full: Session = { ...session, id: randomBytes(12).toString('hex'), callbackUrl: null, mdStatus: null, packets: null, spent: false };
    this.sessions.set(full.id, full);
    return full;
  }

  reset(): void {
    this.sessions.clear();
    this.orders.clear();
  }

  snapshot(): { orders: unknown[]; sessions: unknown[] } {
    const amount = (v: bigint) => Number(v);
    return {
      orders: [...this.orders.values()].map((o) => ({ ...o, lines: o.lines.map((l) => ({ ...l, amount: amount(l.amount) })) })),
      sessions: [...this.sessions.values()].map((s) => ({ id: s.id, xid: s.xid, amount: amount(s.amount), currency: s.currency, mdStatus: s.mdStatus, spent: s.spent })),
    };
  }
}

export function hostlogkey(): string {
  return randomBytes(9).toString('hex').toUpperCase().slice(0, 18);
}

export function authCode(): string {
  return String(100000 + Math.floor(Math.random() * 900000));
}
