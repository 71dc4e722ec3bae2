// The results of one search, grouped by kind (payments, orders, subscriptions, payment links,
// customers), each row a link to its record. What matches is decided by the server's `search`.
import type { ReactNode } from 'react';
import { useQuery } from 'urql';
import { fill, useT } from '../i18n.ts';
import { Link } from '../ui.tsx';
import { useInstant, useMoney } from './format.ts';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

const SEARCH = graphql(`
  query Search($q: String!, $slug: String) {
    search(q: $q, workspaceSlug: $slug) {
      payments { token amount currency status channelReference cardLastFourDigits createdAt }
      orders { token channelReference amount currency status createdAt }
      subscriptions { token channelReference status currency }
      paymentLinks { token reference description currency isActive }
      customers { token channelReference firstname lastname email createdAt }
    }
  }
`);

const KINDS = ['payments', 'orders', 'subscriptions', 'paymentLinks', 'customers'] as const;

export function SearchPage({ q, viewer }: { q: string; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const instant = useInstant();
  const [{ data, error, fetching }] = useQuery({ query: SEARCH, variables: { q, slug: viewer.support ? viewer.slug : undefined } });
  const r = data?.search;
  const empty = r && KINDS.every((kind) => !r[kind]?.length);
  return (
    <section aria-labelledby="search-title">
      <h1 id="search-title">{fill(t.searchResults, { q })}</h1>
      <p className="muted">{t.searchHelp}</p>
      {error && <p className="error" role="alert">{error.graphQLErrors[0]?.message ?? error.message}</p>}
      {fetching && !data && <p aria-busy="true">…</p>}
      {empty && <p data-field="noResults">{q.trim().length < 3 && !/^\d+(\.\d{1,2})?$/.test(q.trim()) ? t.searchTooShort : t.searchNone}</p>}
      {r && (
        <>
          <Group kind="payments" title={t.payments} rows={r.payments}>
            {(p) => <><Link to={`payments/${p.token}`}>{money(p.amount, p.currency)}</Link> · {p.status} · {p.channelReference ?? '—'}{p.cardLastFourDigits ? ` · •••• ${p.cardLastFourDigits}` : ''} · {instant(p.createdAt)}</>}
          </Group>
          <Group kind="orders" title={t.orders} rows={r.orders}>
            {(o) => <><Link to={`orders/${o.token}`}>{o.channelReference}</Link> · {money(o.amount, o.currency)} · {o.status} · {instant(o.createdAt)}</>}
          </Group>
          <Group kind="subscriptions" title={t.subscriptions} rows={r.subscriptions}>
            {(s) => <><Link to={`subscriptions/${s.token}`}>{s.channelReference}</Link> · {s.status}</>}
          </Group>
          <Group kind="paymentLinks" title={t.links} rows={r.paymentLinks}>
            {(l) => <><Link to={`links/${l.token}`}>{l.reference}</Link>{l.description ? ` · ${l.description}` : ''} · {l.isActive ? t.open : t.closed}</>}
          </Group>
          <Group kind="customers" title={t.customers} rows={r.customers}>
            {(c) => <><Link to={`customers/${c.token}`}>{customerName(c)}</Link> · {c.email ?? '—'} · {c.channelReference}</>}
          </Group>
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
