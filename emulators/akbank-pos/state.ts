// What the emulated Akbank remembers: orders (one per orderId) with their transactions as the
// order history lists them, the 3-D Secure authentications between the gate and the 3D model's
// sale, and the request randoms it has seen (a random used twice is refused). Amounts are integer
// minor units.
import { randomBytes, randomInt } from 'node:crypto';
import { openSession } from '../bank/acs.ts';
import { amountNumber, istanbulTime } from './config.ts';

export interface Txn {
  /** 1000 sale, 1002 refund, 1003 cancel. */
  txnCode: string;
  responseCode: string;
  responseMessage: string;
  hostResponseCode: string;
  hostMessage: string;
  amount: number;
  authCode: string;
  rrn: string;
  batchNumber: number;
  stan: number;
  txnDateTime: string;
  /** "N" standing, "V" cancelled since. */
  txnStatus: 'N' | 'V';
}

export interface Order {
  orderId: string;
  currencyCode: number;
  installCount: number;
  cardMasked: string;
  txns: Txn[];
}

export interface ThreeDSession {
  token: string;
  orderId: string;
  amount: number;
  currencyCode: number;
  installCount: number;
  paymentModel: string;
  okUrl: string;
  failUrl: string;
  /** Empty in the 3D Host model until the shopper types it on the bank's page. */
  cardNumber: string;
  expiry: string;
  /** The secure data the 3D model's callback hands out, and its sale must bring back. */
  secure: { secureId: string; secureEcomInd: string; secureData: string; secureMd: string } | null;
  forceDecline: boolean;
  /** The callback was posted (an ACS page answers once). */
  answered: boolean;
  /** The 3D model's sale may use the authentication once. */
  used: boolean;
}

export const APPROVED = 'VPS-0000';

export class AkbankState {
  orders = new Map<string, Order>();
  sessions = new Map<string, ThreeDSession>();
  randoms = new Set<string>();
  private stan = 0;

  reset(): void {
    this.orders.clear();
    this.sessions.clear();
    this.randoms.clear();
  }

  /** The order's approved sale that is not cancelled. */
  sale(order: Order): Txn | undefined {
    return order.txns.find((t) => t.txnCode === '1000' && t.responseCode === APPROVED && t.txnStatus === 'N');
  }

  refunded(order: Order): number {
    return order.txns.filter((t) => t.txnCode === '1002' && t.responseCode === APPROVED && t.txnStatus === 'N').reduce((sum, t) => sum + t.amount, 0);
  }

  /** A transaction: approved when the issuer said '00' (or no issuer was asked and the bank said VPS-0000). */
  newTxn(txnCode: string, said: { responseCode: string; responseMessage: string; hostResponseCode?: string; hostMessage?: string }, amount: number, now: Date): Txn {
    const approved = said.responseCode === APPROVED;
    this.stan += 1;
    return {
      txnCode,
      responseCode: said.responseCode,
      responseMessage: said.responseMessage,
      hostResponseCode: said.hostResponseCode ?? '',
      hostMessage: said.hostMessage ?? '',
      amount,
      authCode: approved ? String(randomInt(100000, 999999)) : '000000',
      rrn: said.hostResponseCode ? String(randomInt(1e11, 1e12 - 1)) : '0',
      batchNumber: said.hostResponseCode ? 43 : 0,
      stan: this.stan,
      txnDateTime: istanbulTime(now),
      txnStatus: 'N',
    };
  }

  newSession(fields: Omit<ThreeDSession, 'token' | 'secure' | 'answered' | 'used'>): ThreeDSession {
    return openSession(this.sessions, { ...fields, secure: null });
  }

  /** Fresh secure data for an authenticated session (ECI 02/05 full, 01/06 an attempt). */
  authenticate(session: ThreeDSession, attempt: boolean): NonNullable<ThreeDSession['secure']> {
    const visa = session.cardNumber.startsWith('4');
    const eci = attempt ? (visa ? '06' : '01') : visa ? '05' : '02';
    session.secure = { secureId: randomBytes(15).toString('base64'), secureEcomInd: eci, secureData: randomBytes(21).toString('base64'), secureMd: randomBytes(32).toString('hex').toUpperCase() };
    return session.secure;
  }

  /** The order history's entries, newest first, as Akbank lists them (txnCode 1010). */
  history(order: Order): Array<Record<string, unknown>> {
    return [...order.txns].reverse().map((t) => ({
      amount: amountNumber(t.amount),
      authCode: t.authCode,
      hostResponseCode: t.hostResponseCode,
      orderId: order.orderId,
      maskedCardNumber: order.cardMasked,
      txnDateTime: t.txnDateTime,
      responseCode: t.responseCode,
      rrn: t.rrn,
      installCount: order.installCount,
      txnCode: t.txnCode,
      txnStatus: t.txnStatus,
      hostMessage: t.hostMessage,
      orgOrderId: order.orderId,
      stan: t.stan,
      responseMessage: t.responseMessage,
      currencyCode: order.currencyCode,
      batchNumber: t.batchNumber,
    }));
  }

  /** JSON for GET /_emulator/state: no card numbers. */
  snapshot(): unknown {
    return {
      orders: [...this.orders.values()].map((o) => ({ ...o, charged: this.sale(o)?.amount ?? 0, refunded: this.refunded(o) })),
      threeDSessions: [...this.sessions.values()].map((s) => ({ token: s.token, orderId: s.orderId, amount: s.amount, currencyCode: s.currencyCode, paymentModel: s.paymentModel, authenticated: s.secure !== null, used: s.used })),
    };
  }
}
