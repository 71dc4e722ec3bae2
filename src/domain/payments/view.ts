// A payment with what its responses show: customer reference, stored card, conversion.
import type { Customer, Payment, Prisma, SavedCard } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Currency } from '../money.ts';
import { isMessageCode, message, type Language } from '../messages.ts';

/**
 * What the answers of secure/regular-payment, retrieve-payment, refund-payment and cancel-payment
 * show of a payment (graphql/types/payments.ts): the columns their fields read, its customer's
 * reference and its stored card, read in one statement (relationJoins). Only those columns: a
 * payment row has some fifty, and reading and mapping all of them cost the Prisma client and the
 * pg driver a third more CPU per retrieve (docs/performance.md). Refunds and the account are not
 * part of those answers (payment lists and the dashboard read whole rows with the list).
 */
const VIEW_COLUMNS = [
  'id',
  'workspaceId',
  'channelId',
  'channelReference',
  'status',
  'amount',
  'currency',
  'chargedAmount',
  'chargedCurrency',
  'conversionRate',
  'refundedAmount',
  'errorCode',
  'errorMessage',
  'shouldSave',
  'periodId',
] as const satisfies ReadonlyArray<keyof Payment>;
type ViewColumn = (typeof VIEW_COLUMNS)[number];

export const paymentViewSelect = {
  ...(Object.fromEntries(VIEW_COLUMNS.map((column) => [column, true])) as Record<ViewColumn, true>),
  customer: { select: { channelReference: true } },
  storedCard: true,
} satisfies Prisma.PaymentSelect;

export type PaymentView = Pick<Payment, ViewColumn> & {
  customer: Pick<Customer, 'channelReference'> | null;
  storedCard: SavedCard | null;
};

/**
 * The columns a payment attempt has its settling UPDATE return (attempt.ts): the view's, and the
 * ids that say whether the customer and stored card at hand are the row's.
 */
export const VIEW_ROW_COLUMNS = [...VIEW_COLUMNS, 'customerId', 'storedCardId'] as const;
export type ViewRowColumn = (typeof VIEW_ROW_COLUMNS)[number];
export type ViewRow = Pick<Payment, ViewRowColumn>;

/** The view of a row already at hand (a payment attempt's UPDATE … RETURNING), as a read would give it. */
export function paymentViewOf(row: ViewRow, customer: Pick<Customer, 'channelReference'> | null, storedCard: SavedCard | null): PaymentView {
  const view: Record<string, unknown> = { customer: customer && { channelReference: customer.channelReference }, storedCard };
  for (const column of VIEW_COLUMNS) view[column] = row[column];
  return view as PaymentView;
}

export async function loadPaymentView(db: Tx, id: string): Promise<PaymentView> {
  return db.payment.findUniqueOrThrow({ where: { id }, select: paymentViewSelect });
}

export interface ConversionView {
  amount: bigint;
  currency: Currency;
  rate: string;
}

export function conversionOf(p: Pick<Payment, 'chargedAmount' | 'chargedCurrency' | 'conversionRate'>): ConversionView | null {
  if (p.chargedAmount === null || !p.chargedCurrency || !p.conversionRate) return null;
  return { amount: p.chargedAmount, currency: p.chargedCurrency, rate: p.conversionRate };
}

/** The amount and currency the card was really charged in (what refunds are counted in). */
export function chargedOf(p: Pick<Payment, 'amount' | 'currency' | 'chargedAmount' | 'chargedCurrency'>): { amount: bigint; currency: Currency } {
  return p.chargedAmount !== null && p.chargedCurrency ? { amount: p.chargedAmount, currency: p.chargedCurrency } : { amount: p.amount, currency: p.currency };
}

/**
 * A failure's text in the caller's language, from the catalog by its gateway code: connectors map
 * every provider code to one. A provider's own text is never shown (it stays on the payment for
 * support); a code the catalog does not know reads as a plain refusal by the bank.
 */
export function localizedError(code: string | null, recorded: string | null, lang: Language): string | null {
  // A provider decline first (its codes may share a name with a gateway message), then ours.
  const decline = `decline_${code}`;
  if (code && isMessageCode(decline)) return message(decline, lang);
  if (code && isMessageCode(code)) return message(code, lang);
  return code || recorded ? message('decline_card_declined', lang) : null;
}

/**
 * Failures a hosted page names to the shopper: they say nothing about whether the card is live
 * (the bank or the gateway could not be reached, the page's own amount or installments, a 3-D page
 * left too long, and a number failing the Luhn check, which the gateway finds itself before any
 * bank, as anyone could).
 */
const SHOPPER_NAMED = new Set(['provider_unreachable', 'provider_timeout', 'provider_error', 'invalid_amount', 'invalid_installment', 'payment_expired_3ds', 'internal_error', 'invalid_card_number']);

/**
 * The reason a hosted page gives a shopper for a failed or blocked attempt. Any card decline or
 * block reads the same (`page_card_not_accepted`): a card tester reads the page, and "insufficient
 * funds" or "invalid security code" would tell a live card from a dead one. The specific reason
 * stays on the payment for the merchant (dashboard, API: localizedError).
 */
export function shopperFailureReason(code: string | null, lang: Language): string {
  if (code && SHOPPER_NAMED.has(code)) return localizedError(code, null, lang) ?? message('internal_error', lang);
  return message('page_card_not_accepted', lang);
}

/**
 * The outcome a payment, refund or cancel answer shows: `errorCode` is the machine-readable reason
 * of a failure (the gateway's code a connector mapped the provider's to, e.g. `insufficient_funds`, or the
 * gateway's own, e.g. `provider_timeout`), null when successful or still open; `message` is its
 * text in the reader's language.
 */
export interface PaymentResult {
  successful: boolean;
  message: string | null;
  errorCode: string | null;
}

/** The answer for a settled call: successful, or failed for `failure`'s reason. */
export function settledResult(successful: boolean, failure: { code: string; text: string } | null, lang: Language): PaymentResult {
  if (!failure) return { successful, message: null, errorCode: null };
  return { successful, message: localizedError(failure.code, failure.text, lang), errorCode: failure.code };
}

/**
 * retrieve-payment's `result`: successful only when completed; message empty (and no code) for a
 * started 3D payment, the 3D timeout text for an expired one, else the recorded error.
 */
export function retrieveResult(p: Pick<Payment, 'status' | 'errorCode' | 'errorMessage'>, lang: Language): PaymentResult {
  switch (p.status) {
    case 'successful':
      return { successful: true, message: null, errorCode: null };
    case 'started':
      return { successful: false, message: '', errorCode: null };
    case 'expired':
      return { successful: false, message: message('payment_expired_3ds', lang), errorCode: 'payment_expired_3ds' };
    default:
      return { successful: false, message: localizedError(p.errorCode, p.errorMessage, lang) ?? '', errorCode: p.errorCode };
  }
}
