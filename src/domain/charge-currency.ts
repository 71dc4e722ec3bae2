// Which currency and amount the card is really charged in: the payment's own when the account
// takes it, else (conversion accounts only) the account's first currency at the current rate.
import type { PaymentAccount } from '../generated/prisma/client.ts';
import type { Currency } from './money.ts';
import { convert, type RateSource } from './conversion.ts';
import { ValidationError, type Path } from './errors.ts';

export interface ChargePlan {
  currency: Currency;
  amount: bigint;
  conversion: { amount: bigint; currency: Currency; rate: string } | null;
}

/** The currency the account charges a payment of `currency` in, or null when it cannot take it at all. */
export function chargeCurrency(account: Pick<PaymentAccount, 'currencies' | 'conversion'>, currency: Currency): Currency | null {
  if (account.currencies.includes(currency)) return currency;
  return (account.conversion && account.currencies[0]) || null;
}

export function planCharge(account: PaymentAccount, amount: bigint, currency: Currency, rates: RateSource, path: Path): ChargePlan {
  const target = chargeCurrency(account, currency);
  if (target === currency) return { currency, amount, conversion: null };
  if (!target) throw ValidationError.single(path, 'currency_not_supported');
  const rate = rates.rate(currency, target);
  if (!rate) throw ValidationError.single(path, 'conversion_rate_unavailable');
  const converted = convert(amount, rate);
  return { currency: target, amount: converted, conversion: { amount: converted, currency: target, rate: rate.text } };
}
