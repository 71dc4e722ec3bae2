// A customer's subscriptions: reference (a link), amount per period, status badge, period end.
import { useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty } from '../kit/states.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';

export interface CustomerSubscriptionRow { token: string | null; channelReference: string | null; status: string | null; period: string | null; amount: string | null; currency: string | null; endsAt: string | null }

export function CustomerSubscriptions({ subscriptions, timeZone }: { subscriptions: readonly CustomerSubscriptionRow[]; timeZone: string | null }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(timeZone);
  return (
    <div className="card" data-list="customer-subscriptions">
      <h2>{t.subscriptions}</h2>
      {subscriptions.length === 0 ? <Empty /> : (
        <CardTable head={[t.reference, t.amount, t.status, t.periodEnd]} label={t.subscriptions}>
          {subscriptions.map((s) => (
            <tr key={s.token} data-token={s.token ?? undefined}>
              <td><Link to={`subscriptions/${s.token}`}>{s.channelReference}</Link></td>
              <td>{money(s.amount, s.currency)} / {s.period === 'yearly' ? t.yearly : t.monthly}</td>
              <td><StatusBadge kind="subscription" value={s.status} /></td>
              <td>{dateTime(s.endsAt)}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </div>
  );
}
