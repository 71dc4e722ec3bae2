// Rates and amounts without a currency of their own (a cost table's fixed fee is in whatever
// currency the payment has; a rule's amount range may name none), as the reader's language writes
// them: "4,50" and "%4,50" in Turkish, "4.50" and "4.50%" in English.
import { useMemo } from 'react';
import { useT } from '../i18n.ts';
import { localeOf } from '../kit/money.ts';

export function useNumbers() {
  const { lang } = useT();
  return useMemo(() => {
    const locale = localeOf(lang);
    const decimal = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const percent = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });
    return {
      /** "1234.5" -> "1.234,50" / "1,234.50"; the decimal string is read as written (display only). */
      decimal: (amount: string) => decimal.format(amount as unknown as number),
      /** A rate in percent ("4.5") -> "%4,50" / "4.50%". A rate is no amount: a Number is fine for showing it. */
      percent: (rate: string) => percent.format(Number(rate) / 100),
    };
  }, [lang]);
}
