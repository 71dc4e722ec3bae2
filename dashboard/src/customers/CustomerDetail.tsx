// One customer: contact data as the merchant's requests gave it, the newest payments, saved cards
// (first digits and last four only, as stored) and subscriptions, each linked to its record.
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { navigate } from '../router.ts';
import { Link } from '../ui.tsx';
import { useInstant, useMoney } from '../search/format.ts';
import { customerName } from '../search/SearchPage.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

const CUSTOMER = graphql(`
  query Customer($token: String!) {
    customer(token: $token) {
      token channelReference firstname lastname email phone address district province country paymentCount createdAt
      payments { token amount currency status channelReference cardLastFourDigits createdAt }
      savedCards { token scheme firstDigits lastFourDigit expiryMonth expiryYear holderName isDefault }
      subscriptions { token channelReference status period currency }
    }
  }
`);

export function CustomerDetail({ token }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const instant = useInstant();
  const [{ data, error }] = useQuery({ query: CUSTOMER, variables: { token } });
  const c = data?.customer;
  if (data && !c) return <p role="alert">{t.none}</p>;
  return (
    <section aria-labelledby="customer-title">
      <a href="/dashboard/customers" onClick={(e) => (e.preventDefault(), navigate('customers'))}>← {t.back}</a>
      <h1 id="customer-title">{c ? customerName(c) : token}</h1>
      {error && <p className="error" role="alert">{error.message}</p>}
      {c && (
        <>
          <dl>
            <dt>{t.reference}</dt><dd data-field="channelReference">{c.channelReference}</dd>
            <dt>{t.email}</dt><dd data-field="email">{c.email ?? '—'}</dd>
            <dt>{t.phone}</dt><dd>{c.phone ?? '—'}</dd>
            <dt>{t.address}</dt><dd>{[c.address, c.district, c.province, c.country].filter(Boolean).join(', ') || '—'}</dd>
            <dt>{t.created}</dt><dd>{instant(c.createdAt)}</dd>
          </dl>
          <div className="card">
            <h2 id="customer-payments">{t.payments} ({c.paymentCount})</h2>
            <div className="table-wrap" tabIndex={0}>
              <table aria-labelledby="customer-payments">
                <thead><tr><th scope="col">{t.amount}</th><th scope="col">{t.status}</th><th scope="col">{t.reference}</th><th scope="col">{t.card}</th><th scope="col">{t.created}</th></tr></thead>
                <tbody>
                  {(c.payments ?? []).map((p) => (
                    <tr key={p.token} data-token={p.token ?? undefined}>
                      <td><Link to={`payments/${p.token}`}>{money(p.amount, p.currency)}</Link></td>
                      <td>{p.status}</td>
                      <td>{p.channelReference ?? '—'}</td>
                      <td>{p.cardLastFourDigits ? `•••• ${p.cardLastFourDigits}` : '—'}</td>
                      <td>{instant(p.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {!c.payments?.length && <p>{t.none}</p>}
          </div>
          <div className="card">
            <h2>{t.savedCards}</h2>
            <ul data-field="savedCards">
              {(c.savedCards ?? []).map((s) => (
                <li key={s.token}>{s.scheme ?? ''} {s.firstDigits}•••• {s.lastFourDigit} · {t.expiry} {s.expiryMonth}/{s.expiryYear} · {s.holderName}{s.isDefault ? ` · ${t.isDefaultCard}` : ''}</li>
              ))}
            </ul>
            {!c.savedCards?.length && <p>{t.none}</p>}
          </div>
          <div className="card">
            <h2>{t.subscriptions}</h2>
            <ul data-field="subscriptions">
              {(c.subscriptions ?? []).map((s) => (
                <li key={s.token}><Link to={`subscriptions/${s.token}`}>{s.channelReference}</Link> · {s.status} · {s.period} · {s.currency}</li>
              ))}
            </ul>
            {!c.subscriptions?.length && <p>{t.none}</p>}
          </div>
        </>
      )}
    </section>
  );
}
