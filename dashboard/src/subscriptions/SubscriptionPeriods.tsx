// A subscription's periods, oldest first: amount, whether it was paid (a badge), its dates in the
// workspace's zone. Cards on phones.
import { useT } from '../i18n.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty } from '../kit/states.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';

export interface PeriodRow { number: number | null; amount: string | null; status: string | null; startsAt: string | null; endsAt: string | null; paidAt: string | null }

export function SubscriptionPeriods({ periods, currency, timeZone }: { periods: readonly PeriodRow[]; currency: string | null; timeZone: string | null }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(timeZone);
  return (
    <div className="card" data-list="subscription-periods">
      <h2>{t.periods}</h2>
      {periods.length === 0 ? <Empty /> : (
        <CardTable head={[t.periodNumber, t.amount, t.status, t.periodDates, t.paidAt]} label={t.periods}>
          {periods.map((p) => (
            <tr key={p.number} data-period={p.number}>
              <td>{p.number}</td>
              <td>{money(p.amount, currency)}</td>
              <td><StatusBadge kind="period" value={p.status} /></td>
              <td className="wrap">{dateTime(p.startsAt)} – {dateTime(p.endsAt)}</td>
              <td>{dateTime(p.paidAt)}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </div>
  );
}
