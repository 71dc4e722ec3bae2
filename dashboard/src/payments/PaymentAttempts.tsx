// The payment attempts of an order or a subscription period, each linking to its payment page.
import { useT } from '../i18n.ts';
import { Link, useDateFormat } from '../ui.tsx';

/** The fields read, nullable as the schema declares them. */
export interface AttemptRow { token: string | null; createdAt: string | null; amount: string | null; currency: string | null; status: string | null; paymentStatus: string | null; cardLastFourDigits: string | null }

export function PaymentAttempts({ payments, title }: { payments: AttemptRow[]; title?: string }) {
  const { t } = useT();
  const date = useDateFormat();
  return (
    <div className="card">
      <h2>{title ?? t.payments}</h2>
      <ul>
        {payments.map((p) => (
          <li key={p.token} data-payment={p.token}>
            <Link to={`payments/${p.token}`}>{date(p.createdAt)}</Link> · {p.amount} {p.currency} · {p.status}{p.paymentStatus ? ` (${p.paymentStatus})` : ''}{p.cardLastFourDigits ? ` · •••• ${p.cardLastFourDigits}` : ''}
          </li>
        ))}
      </ul>
      {payments.length === 0 && <p>{t.none}</p>}
    </div>
  );
}
