// A payment with what its responses show: customer reference, stored card, conversion.
import type { Customer, Payment, PaymentAccount, Prisma, Refund, SavedCard } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Currency } from '../money.ts';
import { isMessageCode, message, type Language } from '../messages.ts';

export type PaymentView = Payment & {
  customer: Customer | null;
  storedCard: SavedCard | null;
  refunds: Refund[];
  paymentAccount: PaymentAccount | null;
};

/** Everything a payment response shows, read in one statement (relationJoins). */
export const paymentViewInclude = {
  customer: true,
  storedCard: true,
  refunds: { orderBy: { createdAt: 'asc' } },
  paymentAccount: true,
} satisfies Prisma.PaymentInclude;

export async function loadPaymentView(db: Tx, id: string): Promise<PaymentView> {
  return db.payment.findUniqueOrThrow({ where: { id }, include: paymentViewInclude });
}

export interface ConversionView {
  amount: bigint;
  currency: Currency;
  rate: string;
}

export function conversionOf(p: Payment): ConversionView | null {
  if (p.chargedAmount === null || !p.chargedCurrency || !p.conversionRate) return null;
  return { amount: p.chargedAmount, currency: p.chargedCurrency, rate: p.conversionRate };
}

/** The amount and currency the card was really charged in (what refunds are counted in). */
export function chargedOf(p: Payment): { amount: bigint; currency: Currency } {
  return p.chargedAmount !== null && p.chargedCurrency ? { amount: p.chargedAmount, currency: p.chargedCurrency } : { amount: p.amount, currency: p.currency };
}

/** Our own failure codes and the simulator's decline codes are shown in the caller's language; another bank's text is shown as recorded. */
export function localizedError(code: string | null, recorded: string | null, lang: Language): string | null {
  // A provider decline first (its codes may share a name with a gateway message), then ours.
  const decline = `decline_${code}`;
  if (code && isMessageCode(decline)) return message(decline, lang);
  if (code && isMessageCode(code)) return message(code, lang);
  return recorded;
}

/**
 * retrieve-payment's `result`: successful only when completed; message empty for a started 3D
 * payment, the 3D timeout text for an expired one, else the recorded error.
 */
export function retrieveResult(p: Payment, lang: Language): { successful: boolean; message: string | null } {
  switch (p.status) {
    case 'successful':
      return { successful: true, message: null };
    case 'started':
      return { successful: false, message: '' };
    case 'expired':
      return { successful: false, message: message('payment_expired_3ds', lang) };
    default:
      return { successful: false, message: localizedError(p.errorCode, p.errorMessage, lang) ?? '' };
  }
}
