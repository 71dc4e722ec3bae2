// A customer's newest payments: amount (a link to the payment), its status and money status as
// badges, reference, card's last four, when. Cards on phones.
import { useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { Empty } from '../kit/states.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';

export interface CustomerPaymentRow { token: string | null; amount: string | null; currency: string | null; status: string | null; paymentStatus: string | null; channelReference: string | null; cardLastFourDigits: string | null; createdAt: string | null }

export function CustomerPayments({ payments, count, timeZone }: { payments: readonly CustomerPaymentRow[]; count: number; timeZone: string | null }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(timeZone);
  return (
    <div className="card" data-list="customer-payments">
      <h2>{t.payments} ({count})</h2>
      {payments.length === 0 ? <Empty /> : (
        <CardTable head={[t.amount, t.status, t.paymentStatus, t.reference, t.card, t.created]} label={t.payments}>
          {payments.map((p) => (
            <tr key={p.token} data-token={p.token ?? undefined}>
              <td><Link to={`payments/${p.token}`}>{money(p.amount, p.currency)}</Link></td>
              <td><StatusBadge kind="payment" value={p.status} /></td>
              <td><StatusBadge kind="money" value={p.paymentStatus} /></td>
              <td>{p.channelReference ?? '—'}</td>
              <td>{p.cardLastFourDigits ? `•••• ${p.cardLastFourDigits}` : '—'}</td>
              <td>{dateTime(p.createdAt)}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </div>
  );
}
