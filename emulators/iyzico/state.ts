import { randomBytes } from 'node:crypto';
import type { CardOutcome, CardProfile } from './cards.ts';
import { ERRORS, IyziFailure } from './errors.ts';

/** Card facts iyzico echoes back; the full number and CVC are never kept. */
export interface CardFacts extends CardProfile {
  binNumber: string;
  lastFourDigits: string;
}

export interface ItemTransaction {
  itemId: string;
  paymentTransactionId: string;
  price: number; // minor units
  paidPrice: number; // minor units
  refunded: number; // minor units
}

export type PaymentStatus = 'SUCCESS' | 'FAILURE' | 'INIT_THREEDS' | 'CALLBACK_THREEDS';

export interface Payment {
  paymentId: string;
  conversationId?: string;
  basketId?: string;
  currency: string;
  installment: number;
  price: number; // minor units
  paidPrice: number; // minor units
  status: PaymentStatus;
  threeDS: boolean;
  card: CardFacts;
  outcome: CardOutcome;
  items: ItemTransaction[];
  cancelled: boolean;
  authCode: string;
  hostReference: string;
  callbackUrl?: string;
  conversationData?: string;
  mdStatus?: string;
  /** Secret in the ACS form so only the shopper's browser (holding the HTML) can answer it. */
  acsToken?: string;
  createdAt: number;
}

/** What the bank said to a refund or cancel that reached it: reporting lists failed ones too. */
export type ReversalOutcome = { status: 'SUCCESS' } | { status: 'FAILURE'; errorCode: string; errorMessage: string; errorGroup?: string };

/** One item transaction's refund (a v2 refund spread over several items is one of these per item). */
export interface Refund {
  refundTxId: string;
  paymentId: string;
  paymentTransactionId: string;
  conversationId?: string;
  price: number; // minor units
  outcome: ReversalOutcome;
  at: number;
}

export interface Cancel {
  refundId: string;
  paymentId: string;
  conversationId?: string;
  price: number; // minor units
  outcome: ReversalOutcome;
  at: number;
}

export interface StoredCard {
  cardUserKey: string;
  cardToken: string;
  cardAlias?: string;
  email?: string;
  externalId?: string;
  card: CardFacts;
  /** Kept only so a stored-card payment resolves to the same test card outcome. */
  outcome: CardOutcome;
}

/** Everything the emulator remembers, in memory, per server. */
export class EmulatorState {
  readonly payments = new Map<string, Payment>();
  readonly refunds: Refund[] = [];
  readonly cancels: Cancel[] = [];
  readonly cards = new Map<string, StoredCard>(); // by cardToken
  private nextId = 20_000_001;
  /** Told of every payment attempt's final outcome (the webhook sender listens). */
  readonly paymentListeners: Array<(payment: Payment) => void> = [];

  paymentSettled(payment: Payment): void {
    for (const listener of this.paymentListeners) listener(payment);
  }

  newId(): string {
    return String(this.nextId++);
  }

  newToken(): string {
    return randomBytes(16).toString('base64url');
  }

  addPayment(p: Payment): Payment {
    this.payments.set(p.paymentId, p);
    return p;
  }

  payment(paymentId: unknown): Payment {
    const found = typeof paymentId === 'string' ? this.payments.get(paymentId) : undefined;
    if (!found) throw new IyziFailure(ERRORS.paymentNotFound);
    return found;
  }

  /** Every payment made under a conversationId, oldest first (reporting lists them all). */
  paymentsByConversation(conversationId: unknown): Payment[] {
    return [...this.payments.values()].filter((p) => p.conversationId === conversationId);
  }

  /** The latest payment made under a conversationId, as /payment/detail finds it. */
  paymentByConversation(conversationId: unknown): Payment {
    const all = [...this.payments.values()].filter((p) => p.conversationId === conversationId);
    if (all.length === 0) throw new IyziFailure(ERRORS.paymentNotFound);
    return all[all.length - 1];
  }

  transaction(paymentTransactionId: unknown): { payment: Payment; item: ItemTransaction } {
    for (const payment of this.payments.values()) {
      const item = payment.items.find((i) => i.paymentTransactionId === paymentTransactionId);
      if (item && payment.status === 'SUCCESS') return { payment, item };
    }
    throw new IyziFailure(ERRORS.transactionNotFound);
  }

  snapshot() {
    return {
      payments: [...this.payments.values()],
      refunds: this.refunds,
      cancels: this.cancels,
      cards: [...this.cards.values()].map(({ outcome: _outcome, ...card }) => card),
    };
  }

  reset(): void {
    this.payments.clear();
    this.refunds.length = 0;
    this.cancels.length = 0;
    this.cards.clear();
  }
}
