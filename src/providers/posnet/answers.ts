// Reading PosNet's <posnetResponse> into the contract's results. `approved` "1" with no respCode is
// done; anything else is a refusal (codes.ts). An answer with no `approved` at all is no answer.
import type { BankCredit, BankOrderHistory, LostReversalVerdict } from '../lost-refund.ts';
import type { Reading } from '../bank-pos/connector.ts';
import type { Currency, Declined, PaymentStatusResult, ProviderFailure, RefundStatusResult, Succeeded } from '../types.ts';
import { APPROVED, paymentFailure, reversalFailure, type PosnetSaid } from './codes.ts';
import { POSNET_CURRENCY } from './requests.ts';
import { listAt, textAt, type XmlTree } from './xml.ts';

export function saidOf(answer: XmlTree): PosnetSaid | null {
  const approved = textAt(answer, 'approved');
  if (approved === undefined || approved === '') return null;
  return { approved, respCode: textAt(answer, 'respCode') ?? '', respText: textAt(answer, 'respText') ?? '' };
}

const done = (said: PosnetSaid) => said.approved === APPROVED && said.respCode === '';

/** A sale (plain or the 3-D one): the reference is the order as inquiries name it. */
export function saleResult(answer: XmlTree, reference: string): Succeeded | Declined | ProviderFailure | null {
  const said = saidOf(answer);
  if (said === null) return null;
  return done(said) ? { status: 'succeeded', providerReference: reference } : paymentFailure(said);
}

/** A return or reverse: the bank's hostlogkey names it for support. */
export function reversalResult(answer: XmlTree, reference: string): Succeeded | Declined | ProviderFailure | null {
  const said = saidOf(answer);
  if (said === null) return null;
  if (!done(said)) return reversalFailure(said);
  return { status: 'succeeded', providerReference: textAt(answer, 'hostlogkey') || reference };
}

/** PosNet's "no such transaction". */
const NOT_FOUND = '0123';

/** "1.000,16" (major units, "." for thousands, "," for the cents) -> 100016; null for anything else. */
export function fromStatusAmount(text: string): bigint | null {
  const match = /^(\d{1,3}(?:\.\d{3})*|\d+),(\d{2})$/.exec(text.trim());
  return match ? BigInt(match[1]!.replaceAll('.', '')) * 100n + BigInt(match[2]!) : null;
}

interface Line {
  state: string;
  amount: bigint | null;
  currency: string;
  hostlogkey: string;
}

function linesOf(answer: XmlTree): Line[] {
  return listAt(answer, 'transactions', 'transaction').map((t) => ({
    state: (textAt(t, 'state') ?? '').toLowerCase(),
    amount: fromStatusAmount(textAt(t, 'amount') ?? ''),
    currency: textAt(t, 'currencyCode') ?? '',
    hostlogkey: textAt(t, 'hostlogkey') ?? '',
  }));
}

/** The agreement inquiry's transactions; 'none' when PosNet has no such order; 'retry' when it cannot say. */
function inquiry(answer: XmlTree): Line[] | 'none' | 'retry' {
  const said = saidOf(answer);
  if (said === null) return 'retry';
  if (!done(said)) return said.respCode === NOT_FOUND ? 'none' : 'retry';
  return linesOf(answer);
}

/**
 * A payment whose answer was lost: a sale of its amount and currency on the order is the payment
 * (unless reversed since: then the bank took no money, declined); no such order is unknown.
 */
export function paymentStatusResult(answer: XmlTree, reference: string, expected: { amount: bigint; currency: Currency }): Reading<PaymentStatusResult> {
  const lines = inquiry(answer);
  if (lines === 'none') return { status: 'unknown' };
  if (lines === 'retry') return 'retry';
  const sale = lines.find((l) => l.state === 'sale');
  if (sale === undefined) return lines.length === 0 ? { status: 'unknown' } : 'retry';
  if (sale.amount !== expected.amount || sale.currency !== POSNET_CURRENCY[expected.currency]) return 'retry';
  if (lines.some((l) => l.state === 'reverse')) return { status: 'declined', code: 'provider_error', message: 'The bank reversed the sale', providerCode: 'state:reverse' };
  return { status: 'succeeded', providerReference: reference };
}

/**
 * The order's history for the lost-refund rule: PosNet lists the transactions it made (a refused
 * return is not listed), so every return line is an approved credit and the list is complete.
 */
export function orderHistory(answer: XmlTree): Reading<BankOrderHistory> {
  const lines = inquiry(answer);
  if (lines === 'none' || lines === 'retry') return 'retry';
  if (lines.some((l) => l.amount === null)) return 'retry';
  const credits: BankCredit[] = lines.filter((l) => l.state === 'return').map((l) => ({ amount: l.amount!, state: 'approved', code: '', reference: l.hostlogkey }));
  const hasSale = lines.some((l) => l.state === 'sale');
  const sale = !hasSale ? 'none' : lines.some((l) => l.state === 'reverse') ? 'voided' : 'standing';
  return { credits, sale, complete: true };
}

export function refundStatusOf(verdict: LostReversalVerdict, reference: string): Reading<RefundStatusResult> {
  if (verdict.kind === 'succeeded') return { status: 'succeeded', providerReference: verdict.reference || reference };
  if (verdict.kind === 'declined') return { status: 'declined', code: 'refund_rejected', message: 'PosNet refused the refund', providerCode: verdict.credit.code };
  return verdict.kind === 'unknown' ? { status: 'unknown' } : 'retry';
}
