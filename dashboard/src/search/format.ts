// Money and instants for the search, customer and timeline screens, through Intl in the reader's
// language (tr-TR / en-GB). Amounts arrive as the API's decimal strings ("100.50").
import { useT } from '../i18n.ts';

const localeOf = (lang: string) => (lang === 'tr' ? 'tr-TR' : 'en-GB');

/** "100.50", "TRY" -> "₺100,50" (tr) / "TRY 100.50" (en): display only, never computed with. */
export function useMoney(): (amount: string | null | undefined, currency: string | null | undefined) => string {
  const { lang } = useT();
  return (amount, currency) => {
    if (amount == null) return '—';
    // The schema lets a currency be absent: the amount alone rather than a made-up currency.
    if (!currency) return amount;
    return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency, minimumFractionDigits: 2 }).format(Number(amount));
  };
}

/** An instant as a date and time with seconds in `timeZone` (the workspace's), or the reader's own zone. */
export function useInstant(timeZone?: string | null): (iso: string | null | undefined) => string {
  const { lang } = useT();
  const fmt = new Intl.DateTimeFormat(localeOf(lang), { dateStyle: 'short', timeStyle: 'medium', timeZone: timeZone ?? undefined });
  return (iso) => (iso ? fmt.format(new Date(iso)) : '—');
}
