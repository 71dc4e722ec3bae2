// What the emulated PayFor remembers: orders (one per OrderId) with their transactions, and the
// 3-D Secure authentications between the gate and the 3D model's sale (found by RequestGuid).
// Amounts are integer minor units.
import { randomInt } from 'node:crypto';
import { openSession } from '../bank/acs.ts';

export type TxnType = 'Auth' | 'Refund' | 'Void';

export interface Txn {
  type: TxnType;
  /** ProcReturnCode: '00' approved, else the refusal. */
  code: string;
  errMsg: string;
  amount: number;
  requestGuid: string;
  authCode: string;
  hostRefNum: string;
  /** "2023-12-29T01:09:03", as the history report writes it. */
  insertDatetime: string;
  /** "20231229" once voided, '' while it stands. */
  voidDate: string;
  voidTime: string;
}

export interface Order {
  orderId: string;
  currency: string;
  installments: string;
  cardMasked: string;
  secureType: string;
  /** The sale is still in the day's batch: PayFor refuses a refund (V014) and wants a void. */
  openBatch: boolean;
  txns: Txn[];
}

export interface ThreeDSession {
  token: string;
  requestGuid: string;
  orderId: string;
  amount: number;
  currency: string;
  installments: string;
  secureType: string;
  cardNumber: string;
  expiry: string;
  /** The form as posted, less the card data: echoed in the callback. */
  echo: Record<string, string>;
  threeDStatus: string | null;
  forceDecline: boolean;
  /** The callback was posted (an ACS page answers once). */
  answered: boolean;
  /** The 3D model's sale may use the authentication once. */
  used: boolean;
}

export class PayforState {
  orders = new Map<string, Order>();
  sessions = new Map<string, ThreeDSession>();
  private sequence = 1000000081255900;

  reset(): void {
    this.orders.clear();
    this.sessions.clear();
  }

  /** The order's approved sale that is not voided. */
  sale(order: Order): Txn | undefined {
    return order.txns.find((t) => t.type === 'Auth' && t.code === '00' && t.voidDate === '');
  }

  refunded(order: Order): number {
    return order.txns.filter((t) => t.type === 'Refund' && t.code === '00' && t.voidDate === '').reduce((sum, t) => sum + t.amount, 0);
  }

  nextGuid(): string {
    this.sequence += 1;
    return String(this.sequence);
  }

  newTxn(type: TxnType, code: string, errMsg: string, amount: number, now: Date): Txn {
    const approved = code === '00';
    return {
      type,
      code,
      errMsg,
      amount,
      requestGuid: this.nextGuid(),
      authCode: approved ? `S${randomInt(10000, 99999)}` : '',
      hostRefNum: approved ? `${String(now.getUTCFullYear()).slice(-1)}${String(randomInt(1e10, 1e11 - 1))}` : '',
      insertDatetime: now.toISOString().slice(0, 19),
      voidDate: '',
      voidTime: '',
    };
  }

  newSession(fields: Omit<ThreeDSession, 'token' | 'requestGuid' | 'answered' | 'used'>): ThreeDSession {
    return openSession(this.sessions, { ...fields, requestGuid: this.nextGuid() });
  }

  sessionByGuid(requestGuid: string): ThreeDSession | undefined {
    return [...this.sessions.values()].find((s) => s.requestGuid === requestGuid);
  }

  /** JSON for GET /_emulator/state: no card numbers. */
  snapshot(): unknown {
    return {
      orders: [...this.orders.values()].map((o) => ({ ...o, charged: this.sale(o)?.amount ?? 0, refunded: this.refunded(o) })),
      threeDSessions: [...this.sessions.values()].map((s) => ({ token: s.token, requestGuid: s.requestGuid, orderId: s.orderId, amount: s.amount, currency: s.currency, secureType: s.secureType, threeDStatus: s.threeDStatus, used: s.used })),
    };
  }
}
