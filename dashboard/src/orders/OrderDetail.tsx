// One order: amounts, items, customer, its payment page, every payment attempt, notifications.
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Link, useDateFormat } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import { PaymentAttempts } from '../payments/PaymentAttempts.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

const ORDER = graphql(`
  query Order($token: String!) {
    order(token: $token) {
      token channelReference status amount subtotal taxAmount currency description checkoutUrl successUrl cancelUrl createdAt paidAt
      customer { channelReference } items { channelReference name quantity unitAmount taxRate }
      payments { token createdAt amount currency status paymentStatus cardLastFourDigits }
    }
  }
`);

export function OrderDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const [{ data, error }] = useQuery({ query: ORDER, variables: { token } });
  const o = data?.order;
  return (
    <section aria-labelledby="order-title">
      <Link to="orders">← {t.back}</Link>
      <h1 id="order-title">{o ? o.channelReference : token}</h1>
      {error && <p className="error" role="alert">{error.message}</p>}
      {data && !o && <p role="alert">{t.none}</p>}
      {o && (
        <>
          <dl>
            <dt>Token</dt><dd>{o.token}</dd>
            <dt>{t.status}</dt><dd data-field="orderStatus">{o.status}</dd>
            <dt>{t.amount}</dt><dd>{o.amount} {o.currency} ({t.subtotal} {o.subtotal}, {t.tax} {o.taxAmount})</dd>
            {o.description && <><dt>{t.description}</dt><dd>{o.description}</dd></>}
            <dt>{t.customer}</dt><dd>{o.customer?.channelReference}</dd>
            <dt>{t.checkoutPage}</dt><dd>{o.status === 'open' ? <a href={o.checkoutUrl ?? undefined} target="_blank" rel="noreferrer">{o.checkoutUrl}</a> : '—'}</dd>
            <dt>{t.created}</dt><dd>{date(o.createdAt)}</dd>
            <dt>{t.paidAt}</dt><dd>{date(o.paidAt)}</dd>
          </dl>
          <div className="card">
            <h2>{t.items}</h2>
            <ul>{(o.items ?? []).map((i, n) => <li key={n}>{i.quantity} × {i.name} ({i.channelReference}) · {i.unitAmount} {o.currency}{i.taxRate ? ` · %${i.taxRate}` : ''}</li>)}</ul>
          </div>
          <PaymentAttempts payments={o.payments ?? []} />
          <div className="card">
            <h2>{t.notifications}</h2>
            <NotificationList viewer={viewer} recordToken={token} />
          </div>
        </>
      )}
    </section>
  );
}
