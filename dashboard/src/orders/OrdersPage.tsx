// Orders, newest first, with status and reference filters; statuses as badges, amounts and dates
// in the reader's language, times in the workspace's zone.
import { useMemo, useState, type FormEvent } from 'react';

import { useT } from '../i18n.ts';
import { Link, ListTable, useConnection } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';
import type { OrderStatus } from '../schema-enums.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { StatusOptions } from '../kit/StatusOptions.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';

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
  const money = useMoney();
  const { dateTime } = useDates(viewer.timeZone);
  const [draft, setDraft] = useState<{ status: OrderStatus | ''; reference: string }>({ status: '', reference: '' });
  const [applied, setApplied] = useState(draft);
  const filter = useMemo(() => ({ status: applied.status ? [applied.status] : undefined, channelReference: applied.reference || undefined }), [applied]);
  const list = useConnection(ORDERS, 'orders', filter, viewer, 'Order');
  const filtered = !!(applied.status || applied.reference);
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">{t.orders}</h1>
      <form className="filters" role="search" onSubmit={(e: FormEvent) => (e.preventDefault(), setApplied(draft))}>
        <label>{t.status}
          <select name="status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value as OrderStatus | '' })}>
            <option value="">{t.any}</option><StatusOptions kind="order" />
          </select>
        </label>
        <label>{t.reference}<input name="reference" value={draft.reference} onChange={(e) => setDraft({ ...draft, reference: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('orders.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} head={[t.reference, t.amount, t.status, t.customer, t.created]} empty={filtered ? t.kitEmptyFiltered : undefined}>
        {list.rows.map((o) => (
          <tr key={o.token} data-token={o.token}>
            <td className="wrap"><Link to={`orders/${o.token}`}>{o.channelReference}</Link>{o.description ? ` · ${o.description}` : ''}</td>
            <td data-field="amount">{money(o.amount, o.currency)}</td>
            <td><StatusBadge kind="order" value={o.status} /></td>
            <td>{o.customer?.channelReference ?? '—'}</td>
            <td>{dateTime(o.createdAt)}</td>
          </tr>
        ))}
      </ListTable>
      <ZoneNote timeZone={viewer.timeZone} />
    </section>
  );
}
