// The results of one search, grouped by kind (payments, orders, subscriptions, payment links,
// customers), each row a link to its record with its status as a badge. What matches is decided
// by the server's `search`.
import type { ReactNode } from 'react';
import { useQuery } from 'urql';
import { fill, useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';

const SEARCH = graphql(`
  query Search($q: String!, $slug: String) {
    search(q: $q, workspaceSlug: $slug) {
      payments { token amount currency status paymentStatus channelReference cardLastFourDigits createdAt }
      orders { token channelReference amount currency status createdAt }
      subscriptions { token channelReference status period amount currency }
      paymentLinks { token reference description amount currency isActive }
      customers { token channelReference firstname lastname email createdAt }
    }
  }
`);

const KINDS = ['payments', 'orders', 'subscriptions', 'paymentLinks', 'customers'] as const;

/** Whether the server reads `q` at all: 3 characters or more, else only last four digits or an amount. */
const searchable = (q: string) => q.trim().length >= 3 || /^\d+(\.\d{1,2})?$/.test(q.trim());

export function SearchPage({ q, viewer }: { q: string; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: SEARCH, variables: { q, slug: viewer.support ? viewer.slug : undefined } });
  const r = data?.search;
  const empty = r && KINDS.every((kind) => !r[kind]?.length);
  const sep = ' · ';
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">{fill(t.searchResults, { q })}</h1>
      <p className="muted">{t.searchHelp}</p>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading rows={4} />}
      {empty && <Empty><span data-field="noResults">{searchable(q) ? t.searchNone : t.searchTooShort}</span></Empty>}
      {r && !empty && (
        <>
          <Group kind="payments" title={t.payments} rows={r.payments}>
            {(p) => <><Link to={`payments/${p.token}`}>{money(p.amount, p.currency)}</Link> <StatusBadge kind="payment" value={p.status} /> <StatusBadge kind="money" value={p.paymentStatus} />{sep}{p.channelReference ?? '—'}{p.cardLastFourDigits ? `${sep}•••• ${p.cardLastFourDigits}` : ''}{sep}{dateTime(p.createdAt)}</>}
          </Group>
          <Group kind="orders" title={t.orders} rows={r.orders}>
            {(o) => <><Link to={`orders/${o.token}`}>{o.channelReference}</Link> <StatusBadge kind="order" value={o.status} />{sep}{money(o.amount, o.currency)}{sep}{dateTime(o.createdAt)}</>}
          </Group>
          <Group kind="subscriptions" title={t.subscriptions} rows={r.subscriptions}>
            {(s) => <><Link to={`subscriptions/${s.token}`}>{s.channelReference}</Link> <StatusBadge kind="subscription" value={s.status} />{sep}{money(s.amount, s.currency)} / {s.period === 'yearly' ? t.yearly : t.monthly}</>}
          </Group>
          <Group kind="paymentLinks" title={t.links} rows={r.paymentLinks}>
            {(l) => <><Link to={`links/${l.token}`}>{l.reference}</Link> <StatusBadge kind="link" value={l.isActive ? 'open' : 'closed'} />{l.description ? `${sep}${l.description}` : ''}{l.amount ? `${sep}${money(l.amount, l.currency)}` : ''}</>}
          </Group>
          <Group kind="customers" title={t.customers} rows={r.customers}>
            {(c) => <><Link to={`customers/${c.token}`}>{customerName(c)}</Link>{sep}{c.email ?? '—'}{sep}{c.channelReference}</>}
          </Group>
          {(r.payments?.length || r.orders?.length) ? <ZoneNote timeZone={viewer.timeZone} /> : null}
        </>
      )}
    </section>
  );
}

/** A result row: every kind's rows carry their record's token. */
type Row = { token: string | null };

/** One kind's results under its heading; nothing at all when the kind has none. */
function Group<R extends Row>({ kind, title, rows, children }: { kind: string; title: string; rows: R[] | null; children: (row: R) => ReactNode }) {
  if (!rows?.length) return null;
  return (
    <div className="card" data-kind={kind}>
      <h2 id={`results-${kind}`}>{title} ({rows.length})</h2>
      <ul className="results" aria-labelledby={`results-${kind}`}>
        {rows.map((row) => <li key={row.token} data-token={row.token ?? undefined}>{children(row)}</li>)}
      </ul>
    </div>
  );
}

/** "Ayşe Yılmaz", or the channel reference of a customer sent without a name. */
export const customerName = (c: { firstname?: string | null; lastname?: string | null; channelReference?: string | null }) =>
  [c.firstname, c.lastname].filter(Boolean).join(' ') || (c.channelReference ?? '');
