// The overview's numbers in the reader's language: amounts (decimal strings from the API, passed
// to Intl as strings so no digit is lost to floating point), counts, rates and calendar days.
import type { Lang } from '../i18n.ts';
import { formatMoney, localeOf } from '../kit/money.ts';

export { localeOf };

export function formatters(lang: Lang) {
  const locale = localeOf(lang);
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
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
