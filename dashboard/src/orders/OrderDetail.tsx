// One order: amounts, items, customer, its payment page, every payment attempt, notifications.
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import { PaymentAttempts } from '../payments/PaymentAttempts.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { ItemsTable } from './ItemsTable.tsx';

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
  const money = useMoney();
  const { dateTime } = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: ORDER, variables: { token } });
  const o = data?.order;
  return (
    <section aria-labelledby="order-title">
      <Link to="orders">← {t.back}</Link>
      <h1 id="order-title">{o?.channelReference ?? t.order}</h1>
      {error && !data && <ErrorState message={error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading rows={6} />}
      {data && !o && <Empty>{t.notFound}</Empty>}
      {o && (
        <>
          <dl>
            <dt>{t.status}</dt><dd data-field="orderStatus"><StatusBadge kind="order" value={o.status} /></dd>
            <dt>{t.amount}</dt><dd data-field="amount">{money(o.amount, o.currency)}</dd>
            <dt>{t.subtotal}</dt><dd>{money(o.subtotal, o.currency)}</dd>
            <dt>{t.tax}</dt><dd>{money(o.taxAmount, o.currency)}</dd>
            {o.description && <><dt>{t.description}</dt><dd>{o.description}</dd></>}
            <dt>{t.customer}</dt><dd>{o.customer?.channelReference ?? '—'}</dd>
            <dt>{t.checkoutPage}</dt><dd>{o.status === 'open' && o.checkoutUrl ? <a href={o.checkoutUrl} target="_blank" rel="noreferrer">{o.checkoutUrl}</a> : '—'}</dd>
            <dt>{t.created}</dt><dd>{dateTime(o.createdAt)}</dd>
            <dt>{t.paidAt}</dt><dd>{dateTime(o.paidAt)}</dd>
            <dt>{t.recordToken}</dt><dd><code className="wrap">{o.token}</code></dd>
          </dl>
          <ZoneNote timeZone={viewer.timeZone} />
          <ItemsTable items={o.items ?? []} currency={o.currency} />
          <PaymentAttempts payments={o.payments ?? []} timeZone={viewer.timeZone} />
          <div className="card">
            <h2>{t.notifications}</h2>
            <NotificationList viewer={viewer} recordToken={token} />
          </div>
        </>
      )}
    </section>
  );
}
