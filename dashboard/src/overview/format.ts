// The overview's numbers in the reader's language: amounts (decimal strings from the API, passed
// to Intl as strings so no digit is lost to floating point), counts, rates and calendar days.
import type { Lang } from '../i18n.ts';
import { formatMoney, localeOf } from '../kit/money.ts';

export { localeOf };

/**
 * The reader's own locale for the chosen language (the browser's first `en-…` for English, so an
 * American reader reads "Mar 4" and a British one "4 Mar"); the language's default otherwise.
 */
export function readerLocale(lang: Lang, preferred: readonly string[] = []): string {
  return preferred.find((tag) => tag.toLowerCase().split('-')[0] === lang) ?? localeOf(lang);
}

export function formatters(lang: Lang, preferred: readonly string[] = []) {
  const locale = localeOf(lang);
  // Calendar days as the reader writes them: the period, the table's days, the chart's axis.
  const day = new Intl.DateTimeFormat(readerLocale(lang, preferred), { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const count = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  return {
    money: (amount: string, currency: string) => formatMoney(lang, amount, currency),
    /** A chart axis label: short (1,5 B ₺), for a picture only. */
    axisMoney: (value: number, currency: string) => new Intl.NumberFormat(locale, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }).format(value),
    count: (n: number) => count.format(n),
    percent: (rate: number | null) => (rate === null ? '—' : percent.format(rate)),
    /** A YYYY-MM-DD calendar day (already the workspace's), shown without moving it to another zone. */
    day: (date: string) => day.format(new Date(`${date}T00:00:00Z`)),
  };
}

export type Formatters = ReturnType<typeof formatters>;
