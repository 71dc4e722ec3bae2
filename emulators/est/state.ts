import { randomBytes, randomInt } from 'node:crypto';
import type { CardOutcome } from './cards.ts';

/** One line of an order's history. CHARGE_TYPE_CD: S sale, C credit (refund); TRANS_STAT: A approved, V voided, D declined. */
export interface EstTransaction {
  chargeType: 'S' | 'C';
  status: 'A' | 'V' | 'D';
  amountMinor: number;
  transId: string;
  authCode: string;
  hostRefNum: string;
  procReturnCode: string;
  errMsg: string;
  at: Date;
  voidedAt: Date | null;
}

export interface EstOrder {
  oid: string;
  currency: string;
  installments: string;
  maskedCreditCard: string;
  /** The 3-D Secure result the sale was made with ('' for a non-3D sale). */
  mdStatus: string;
  eci: string;
  cavv: string;
  xid: string;
  /** Oldest first. */
  transactions: EstTransaction[];
}

/** A 3D gate visit: what the gate took (without the card number or CVV) until the ACS answers and the 3D Auth uses it. */
export interface ThreeDSession {
  token: string;
  md: string;
  storetype: '3d' | '3d_pay';
  oid: string;
  amountMinor: number;
  currency: string;
  installments: string;
  /** The form's fields the gate posts back (pan and cv2 removed, hash dropped). */
  echo: Record<string, string>;
  outcome: CardOutcome;
  maskedCreditCard: string;
  maskedPan: string;
  brand: 'VISA' | 'MASTERCARD';
  forceDecline: boolean;
  /** Set when the ACS answers. */
  mdStatus: string | null;
  xid: string;
  eci: string;
  cavv: string;
  /** The XML 3D Auth has used it (an md authorises once). */
  used: boolean;
}

export class EstState {
  orders = new Map<string, EstOrder>();
  sessions = new Map<string, ThreeDSession>();
  sessionsByMd = new Map<string, ThreeDSession>();

  addSession(session: ThreeDSession): void {
    this.sessions.set(session.token, session);
    this.sessionsByMd.set(session.md, session);
  }

  /** The order's approved, not voided sale, if any. */
  sale(order: EstOrder | undefined): EstTransaction | undefined {
    return order?.transactions.find((t) => t.chargeType === 'S' && t.status === 'A');
  }

  /** What is left to refund: the sale minus its approved, not voided credits. */
  refundable(order: EstOrder): number {
    const sale = this.sale(order);
    if (!sale) return 0;
    const credited = order.transactions.filter((t) => t.chargeType === 'C' && t.status === 'A').reduce((sum, t) => sum + t.amountMinor, 0);
    return sale.amountMinor - credited;
  }

  reset(): void {
    this.orders.clear();
    this.sessions.clear();
    this.sessionsByMd.clear();
  }

  snapshot(): { orders: unknown[]; pending3D: unknown[] } {
    return {
      orders: [...this.orders.values()].map((order) => ({ ...order, transactions: order.transactions.map((t) => ({ ...t })) })),
      pending3D: [...this.sessions.values()]
        .filter((s) => !s.used)
        .map((s) => ({ token: s.token, oid: s.oid, storetype: s.storetype, amountMinor: s.amountMinor, currency: s.currency, mdStatus: s.mdStatus })),
    };
  }
}

/** EST-looking identifiers: TransId "22303Md4C19254", AuthCode "P48911", HostRefNum "230200671758". */
export function newTransId(now: Date): string {
  const start = Date.UTC(now.getUTCFullYear(), 0, 0);
  const day = Math.floor((now.getTime() - start) / 86_400_000);
  const alnum = randomBytes(6).toString('base64url').replace(/[-_]/g, 'X').slice(0, 4);
  return `${String(now.getUTCFullYear()).slice(2)}${String(day).padStart(3, '0')}${alnum}${randomInt(10_000, 100_000)}`;
}
export const newAuthCode = (): string => `P${randomInt(10_000, 100_000)}`;
export const newHostRefNum = (): string => String(randomInt(100_000, 1_000_000)) + String(randomInt(100_000, 1_000_000));

/** EST's dates: "20221029 21:58:43" (TRXDATE) and "2022-10-30 12:29:53.773" (order inquiry). */
export function trxDate(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')} ${iso.slice(11, 19)}`;
}
export const inquiryDate = (d: Date): string => d.toISOString().slice(0, 23).replace('T', ' ');
