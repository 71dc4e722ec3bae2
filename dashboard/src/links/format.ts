// A tax rate as the reader's language writes a percentage: "20.00" -> "%20" (tr) / "20%" (en).
// A rate is not money: a Number is exact enough to show it.
import { useT, type Lang } from '../i18n.ts';
import { localeOf } from '../kit/money.ts';

export function formatRate(lang: Lang, rate: string | null | undefined): string {
  if (rate == null || rate === '') return '—';
  const n = Number(rate);
  if (!Number.isFinite(n)) return rate;
  return new Intl.NumberFormat(localeOf(lang), { style: 'percent', maximumFractionDigits: 2 }).format(n / 100);
}

export function useRate(): (rate: string | null | undefined) => string {
  const { lang } = useT();
  return (rate) => formatRate(lang, rate);
}
