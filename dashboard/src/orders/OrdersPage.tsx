// Orders, newest first, with status and reference filters.
import { useMemo, useState, type FormEvent } from 'react';

import { useT } from '../i18n.ts';
import { Link, ListTable, useConnection, useDateFormat } from '../ui.tsx';
import type { Viewer } from '../App.tsx';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';
import { OrderStatus } from '../schema-enums.ts';

const ORDERS = graphql(`
  query Orders($first: Int, $after: String, $last: Int, $before: String, $filter: OrderFilter, $slug: String) {
    orders(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token channelReference status amount currency description createdAt paidAt customer { channelReference } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);

export function OrdersPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const [draft, setDraft] = useState<{ status: OrderStatus | ''; reference: string }>({ status: '', reference: '' });
  const [applied, setApplied] = useState(draft);
  const filter = useMemo(() => ({ status: applied.status ? [applied.status] : undefined, channelReference: applied.reference || undefined }), [applied]);
  const list = useConnection(ORDERS, 'orders', filter, viewer, 'Order');
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">{t.orders}</h1>
      <form className="filters" role="search" onSubmit={(e: FormEvent) => (e.preventDefault(), setApplied(draft))}>
        <label>{t.status}
          <select name="status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value as OrderStatus | '' })}>
            <option value="">{t.any}</option>{OrderStatus.map((s) => <option key={s}>{s}</option>)}
          </select>
        </label>
        <label>{t.reference}<input name="reference" value={draft.reference} onChange={(e) => setDraft({ ...draft, reference: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('orders.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} head={[t.reference, t.amount, t.status, t.customer, t.created]}>
        {list.rows.map((o) => (
          <tr key={o.token} data-token={o.token}>
            <td><Link to={`orders/${o.token}`}>{o.channelReference}</Link>{o.description ? ` · ${o.description}` : ''}</td>
            <td>{o.amount} {o.currency}</td>
            <td>{o.status}</td>
            <td>{o.customer?.channelReference}</td>
            <td>{date(o.createdAt)}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
