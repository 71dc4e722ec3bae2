// Amounts as the reader's language writes them. The API sends decimal strings ("12345678901234.56")
// and Intl.NumberFormat reads a string exactly (ES2023), so no digit is lost to floating point:
// never turn an amount into a Number to show it.
import { useT, type Lang } from '../i18n.ts';

export const localeOf = (lang: Lang) => (lang === 'tr' ? 'tr-TR' : 'en-GB');

/** "1234.50", "TRY" -> "₺1.234,50" (tr) / "TRY 1,234.50" (en); null -> "—". Display only. */
export function formatMoney(lang: Lang, amount: string | null | undefined, currency: string | null | undefined): string {
  if (amount == null || amount === '') return '—';
  if (!currency) return amount;
  // The type lists numbers only; the engine takes the decimal string as written.
  return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency }).format(amount as unknown as number);
}

/** `money(amount, currency)` in the chosen language. */
export function useMoney(): (amount: string | null | undefined, currency: string | null | undefined) => string {
  const { lang } = useT();
  return (amount, currency) => formatMoney(lang, amount, currency);
}
