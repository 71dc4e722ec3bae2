// What became of a refund or cancel whose answer was lost, read from a bank's order history (EST's
// ORDERHISTORY, GVP's orderhistoryinq). The banks keep no id of ours for a refund: the history only
// lists the order's credits by amount and whether each was approved. So a lost refund is found by
// counting, against what the gateway already knows of the payment's other refunds:
//
//  - the bank lists more approved credits of the lost refund's amount than the gateway's own
//    succeeded refunds of that amount, and earlier refunds of that amount still unanswered, account
//    for: it is there, succeeded (which of two same-amount refunds got it does not matter: the
//    money is the same, and the earlier one is given it first, so two sweeps never both take it);
//  - the history is incomplete (fewer transactions than the bank says it has): keep asking;
//  - some approved credit is left unexplained (one still claimed by an earlier unanswered refund
//    of that amount, another unanswered refund's of another amount, one made outside the gateway,
//    one the gateway gave up on that the bank did make): ambiguous, keep asking (the gateway gives
//    up at its deadline);
//  - every approved credit is accounted for and the bank lists a refused credit of that amount that
//    the gateway's failed refunds of that amount do not explain: declined with the bank's code;
//  - every approved credit is accounted for otherwise: the bank never received it (unknown).
//
// A lost cancel is the order's sale: voided -> succeeded; standing (approved, not voided) ->
// unknown; anything else (no sale listed, an incomplete history) -> keep asking.
import type { Currency, RefundStatusInput } from './types.ts';

/** One credit (refund) the bank lists on the order. */
export interface BankCredit {
  amount: bigint;
  /** Approved (and standing), refused by the bank, or approved and voided since (left out of the count). */
  state: 'approved' | 'refused' | 'voided';
  /** The bank's answer code (a refused one's reason). */
  code: string;
  /** The bank's id of the credit (EST TransId, GVP RetrefNum); '' when it gives none. */
  reference: string;
}

/** An order's history as a bank's inquiry lists it, in the terms the rule needs. */
export interface BankOrderHistory {
  credits: BankCredit[];
  /** The order's sale: standing (approved, not voided), voided, or none listed. */
  sale: 'standing' | 'voided' | 'none';
  /** Every transaction the bank has for the order was read (EST's TRXCOUNT lines all there). */
  complete: boolean;
}

export type LostReversalVerdict =
  | { kind: 'succeeded'; reference: string }
  | { kind: 'declined'; credit: BankCredit }
  | { kind: 'unknown' }
  /** Cannot say yet: the connector throws ProviderTimeoutError and the gateway asks again. */
  | { kind: 'retry' };

/** What the gateway knows of the lost refund, when the caller gave it (all three fields). */
interface Known {
  amount: bigint;
  currency: Currency;
  others: NonNullable<RefundStatusInput['otherRefunds']>;
}

function knownOf(input: RefundStatusInput): Known | null {
  if (input.amount === undefined || input.currency === undefined || input.otherRefunds === undefined) return null;
  return { amount: input.amount, currency: input.currency, others: input.otherRefunds };
}

/** Takes out of `pool` one item per amount in `amounts` (a multiset difference); what is left stays unexplained. */
function unexplained(pool: BankCredit[], amounts: bigint[]): BankCredit[] {
  const left = [...pool];
  for (const amount of amounts) {
    const i = left.findIndex((c) => c.amount === amount);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** The lost refund's fate by counting (see the header). */
export function judgeLostRefund(input: RefundStatusInput, history: BankOrderHistory): LostReversalVerdict {
  const known = knownOf(input);
  if (known === null) return { kind: 'retry' };
  const amountsOf = (status: 'succeeded' | 'declined' | 'pending') => known.others.filter((o) => o.status === status).map((o) => o.amount);
  const approved = unexplained(
    history.credits.filter((c) => c.state === 'approved'),
    amountsOf('succeeded'),
  );
  const ofAmount = approved.filter((c) => c.amount === known.amount);
  const earlierPending = amountsOf('pending').filter((a) => a === known.amount).length;
  // The bank's approved credits are taken in order: the earlier unanswered refunds first, then this one.
  const mine = ofAmount[earlierPending];
  if (mine !== undefined) return { kind: 'succeeded', reference: mine.reference };
  if (!history.complete || approved.length > 0) return { kind: 'retry' };
  const refused = unexplained(
    history.credits.filter((c) => c.state === 'refused' && c.amount === known.amount),
    amountsOf('declined'),
  );
  const credit = refused.at(-1);
  return credit === undefined ? { kind: 'unknown' } : { kind: 'declined', credit };
}

/** The lost cancel's fate from the order's sale (see the header). */
export function judgeLostCancel(history: BankOrderHistory, reference: string): LostReversalVerdict {
  if (!history.complete) return { kind: 'retry' };
  if (history.sale === 'voided') return { kind: 'succeeded', reference };
  if (history.sale === 'standing') return { kind: 'unknown' };
  return { kind: 'retry' };
}

/** Whether the lost call was a cancel (the gateway's keys are `cancel:<id>` and `refund:<id>`). */
export function isCancelKey(idempotencyKey: string): boolean {
  return idempotencyKey.startsWith('cancel:');
}
