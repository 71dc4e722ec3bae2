// The payment attempts of an order or a subscription period, each linking to its payment page:
// when, how much, both statuses as badges and the card's last four. Times are in `timeZone` (the
// workspace's, when the screen passes it), and the list says which zone.
import { useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { Empty } from '../kit/states.tsx';

/** The fields read, nullable as the schema declares them. */
export interface AttemptRow { token: string | null; createdAt: string | null; amount: string | null; currency: string | null; status: string | null; paymentStatus: string | null; cardLastFourDigits: string | null }

export function PaymentAttempts({ payments, title, timeZone }: { payments: AttemptRow[]; title?: string; timeZone?: string | null }) {
  const { t } = useT();
  const money = useMoney();
  const dates = useDates(timeZone);
  return (
    <div className="card">
      <h2>{title ?? t.payments}</h2>
      {payments.length === 0 ? <Empty>{t.none}</Empty> : (
        <>
          <ul>
            {payments.map((p) => (
              <li key={p.token} data-payment={p.token}>
                <Link to={`payments/${p.token}`}>{dates.dateTime(p.createdAt)}</Link> · {money(p.amount, p.currency)} · <StatusBadge kind="payment" value={p.status} />
                {p.paymentStatus && <> <StatusBadge kind="money" value={p.paymentStatus} /></>}
                {p.cardLastFourDigits ? ` · •••• ${p.cardLastFourDigits}` : ''}
              </li>
            ))}
          </ul>
          <p className="muted zone-note">{dates.zoneNote}</p>
        </>
      )}
    </div>
  );
}
