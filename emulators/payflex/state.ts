// What the emulated VakıfBank remembers: the MPI's enrollments (by VerifyEnrollmentRequestId, with
// the ACS challenge and its result, until the 3-D sale uses it) and the VPOS's transactions (by
// TransactionId: sales, refunds, cancels). Amounts are integer minor units.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { hostDate } from './config.ts';

export interface Enrollment {
  id: string;
  merchantId: string;
  pan: string;
  /** YYMM. */
  expiry: string;
  amount: number;
  currency: string;
  installments: string;
  successUrl: string;
  failureUrl: string;
  sessionInfo: string;
  /** The ACS's address token and the MD its form must carry. */
  token: string;
  md: string;
  paReq: string;
  /** The ACS answers this at once (no challenge); null shows the Approve/Decline page. */
  preset: string | null;
  /** The MPI's result: Y, A, N (null until the ACS answered). */
  status: string | null;
  eci: string;
  cavv: string;
  /** A 3-D sale took it. */
  used: boolean;
}

export type TxnType = 'Sale' | 'Refund' | 'Cancel';

export interface Txn {
  transactionId: string;
  type: TxnType;
  merchantId: string;
  orderId: string;
  /** The sale a refund or cancel is about. */
  referenceTransactionId: string;
  code: string;
  message: string;
  amount: number;
  currency: string;
  secureType: '1' | '2';
  authCode: string;
  rrn: string;
  hostDate: string;
  canceled: boolean;
}

export class PayflexState {
  enrollments = new Map<string, Enrollment>();
  txns = new Map<string, Txn>();

  reset(): void {
    this.enrollments.clear();
    this.txns.clear();
  }

  enrollmentByToken(token: string): Enrollment | undefined {
    return [...this.enrollments.values()].find((e) => e.token === token);
  }

  newEnrollment(fields: Omit<Enrollment, 'token' | 'md' | 'paReq' | 'status' | 'eci' | 'cavv' | 'used'>): Enrollment {
    const xid = randomBytes(10).toString('base64');
    const enrollment: Enrollment = {
      ...fields,
      token: randomUUID(),
      md: randomBytes(24).toString('base64'),
      paReq: Buffer.from(`<ThreeDSecure><Message id="${fields.id}"><PAReq><Purchase><xid>${xid}</xid><amount>${fields.amount}</amount></Purchase></PAReq></Message></ThreeDSecure>`).toString('base64'),
      status: null,
      eci: '',
      cavv: '',
      used: false,
    };
    this.enrollments.set(enrollment.id, enrollment);
    return enrollment;
  }

  newTxn(fields: Omit<Txn, 'authCode' | 'rrn' | 'hostDate' | 'canceled' | 'transactionId'> & { transactionId?: string }, now: Date): Txn {
    const approved = fields.code === '0000';
    const txn: Txn = {
      ...fields,
      transactionId: fields.transactionId || randomBytes(16).toString('hex'),
      authCode: approved ? String(randomInt(100000, 999999)) : '000000',
      rrn: String(randomInt(1e11, 1e12 - 1)),
      hostDate: hostDate(now),
      canceled: false,
    };
    this.txns.set(txn.transactionId, txn);
    return txn;
  }

  /** The reversals (refunds, cancels) of a sale. */
  reversalsOf(sale: Txn): Txn[] {
    return [...this.txns.values()].filter((t) => t.referenceTransactionId === sale.transactionId && t.type !== 'Sale');
  }

  refunded(sale: Txn): number {
    return this.reversalsOf(sale)
      .filter((t) => t.type === 'Refund' && t.code === '0000')
      .reduce((sum, t) => sum + t.amount, 0);
  }

  /** The order's transactions in the order they were made (sales by OrderId, then what names them). */
  orderTxns(orderId: string): Txn[] {
    const sales = new Set([...this.txns.values()].filter((t) => t.type === 'Sale' && t.orderId === orderId).map((t) => t.transactionId));
    return [...this.txns.values()].filter((t) => sales.has(t.transactionId) || sales.has(t.referenceTransactionId));
  }

  /** JSON for GET /_emulator/state: no card numbers. */
  snapshot(): unknown {
    const orderIds = [...new Set([...this.txns.values()].filter((t) => t.type === 'Sale').map((t) => t.orderId))];
    return {
      orders: orderIds.map((orderId) => {
        const txns = this.orderTxns(orderId);
        const sale = txns.find((t) => t.type === 'Sale' && t.code === '0000');
        return {
          orderId,
          txns: txns.map((t) => ({ type: t.type, code: t.code, amount: t.amount, transactionId: t.transactionId })),
          charged: sale && !sale.canceled ? sale.amount : 0,
          refunded: sale ? this.refunded(sale) : 0,
        };
      }),
      enrollments: [...this.enrollments.values()].map((e) => ({ id: e.id, amount: e.amount, currency: e.currency, status: e.status, used: e.used })),
    };
  }
}
