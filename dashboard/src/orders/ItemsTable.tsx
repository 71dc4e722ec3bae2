// The items of an order or a subscription: name, reference, quantity, unit price and (orders) the
// VAT rate, in the reader's language. Cards on phones.
import { useT } from '../i18n.ts';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty } from '../kit/states.tsx';
import { localeOf, useMoney } from '../kit/money.ts';

export interface ItemRow { channelReference: string | null; name: string | null; quantity: number | null; unitAmount: string | null; taxRate?: string | null }

export function ItemsTable({ items, currency }: { items: readonly ItemRow[]; currency: string | null }) {
  const { t, lang } = useT();
  const money = useMoney();
  // A rate is a percentage to read, not money: "10.00" -> "%10" (tr) / "10%" (en).
  const percent = new Intl.NumberFormat(localeOf(lang), { style: 'percent', maximumFractionDigits: 2 });
  const withTax = items.some((i) => i.taxRate != null);
  const head = [t.item, t.reference, t.quantity, t.unitAmount, ...(withTax ? [t.tax] : [])];
  return (
    <div className="card" data-list="items">
      <h2>{t.items}</h2>
      {items.length === 0 ? <Empty /> : (
        <CardTable head={head} label={t.items}>
          {items.map((i, n) => (
            <tr key={n} data-item={i.channelReference ?? undefined}>
              <td className="wrap">{i.name}</td>
              <td>{i.channelReference ?? '—'}</td>
              <td>{i.quantity}</td>
              <td>{money(i.unitAmount, currency)}</td>
              {withTax && <td>{i.taxRate == null ? '—' : percent.format(Number(i.taxRate) / 100)}</td>}
            </tr>
          ))}
        </CardTable>
      )}
    </div>
  );
}
