import { DECLINE_BY_CONTROL, type CardOutcome } from './cards.ts';
import { newAuthCode, newHostRefNum, newTransId, type EstOrder, type EstState, type EstTransaction } from './state.ts';

export interface ChargeInput {
  oid: string;
  currency: string;
  installments: string;
  amountMinor: number;
  outcome: CardOutcome;
  forceDecline: boolean;
  maskedCreditCard: string;
  threeD: { mdStatus: string; eci: string; cavv: string; xid: string } | null;
}

/** EST refuses a second sale on an order id that already has an approved one. */
export const DUPLICATE_ORDER = { errMsg: 'Bu siparis numarasi ile daha once basarili islem yapilmis.', errorCode: 'CORE-2001' };

/** Whether `oid` already has an approved sale (the answer to a second Auth). */
export function alreadyPaid(state: EstState, oid: string): boolean {
  return state.sale(state.orders.get(oid)) !== undefined;
}

/** Charges the card: records the sale (approved or declined) on the order and answers it. */
export function charge(state: EstState, input: ChargeInput, now: Date): { order: EstOrder; tx: EstTransaction } {
  const outcome = input.forceDecline ? DECLINE_BY_CONTROL : input.outcome;
  const approved = outcome.code === '00';
  const order = state.orders.get(input.oid) ?? {
    oid: input.oid,
    currency: input.currency,
    installments: input.installments,
    maskedCreditCard: input.maskedCreditCard,
    mdStatus: '',
    eci: '',
    cavv: '',
    xid: '',
    transactions: [],
  };
  Object.assign(order, { currency: input.currency, installments: input.installments, maskedCreditCard: input.maskedCreditCard, ...(input.threeD ?? {}) });
  const tx: EstTransaction = {
    chargeType: 'S',
    status: approved ? 'A' : 'D',
    amountMinor: input.amountMinor,
    transId: newTransId(now),
    authCode: approved ? newAuthCode() : '',
    hostRefNum: newHostRefNum(),
    procReturnCode: outcome.code,
    errMsg: outcome.message,
    at: now,
    voidedAt: null,
  };
  order.transactions.push(tx);
  state.orders.set(order.oid, order);
  return { order, tx };
}
