// Customers, newest first: name, e-mail, channel reference, number of payments, created; a page at a time.
// ListTable's states and phone cards; dates in the workspace's zone, noted under the list.
import { useMemo, useState, type FormEvent } from 'react';

import { useT } from '../i18n.ts';
import { Link, ListTable, useConnection } from '../ui.tsx';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { customerName } from '../search/SearchPage.tsx';
import type { Viewer } from '../viewer.ts';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';

const CUSTOMERS = graphql(`
  query Customers($first: Int, $after: String, $last: Int, $before: String, $filter: CustomerFilter, $slug: String) {
    customers(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token channelReference firstname lastname email paymentCount createdAt } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);

export function CustomersPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const { dateTime } = useDates(viewer.timeZone);
  const [draft, setDraft] = useState('');
  const [applied, setApplied] = useState('');
  const filter = useMemo(() => ({ channelReference: applied || undefined }), [applied]);
  const list = useConnection(CUSTOMERS, 'customers', filter, viewer, 'Customer');
  return (
    <section aria-labelledby="customers-title">
      <h1 id="customers-title">{t.customers}</h1>
      <form className="filters" role="search" onSubmit={(e: FormEvent) => (e.preventDefault(), setApplied(draft))}>
        <label>{t.reference}<input name="reference" value={draft} onChange={(e) => setDraft(e.target.value)} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('customers.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} head={[t.name, t.email, t.reference, t.paymentCount, t.created]} empty={applied ? t.kitEmptyFiltered : undefined}>
        {list.rows.map((c) => (
          <tr key={c.token} data-token={c.token}>
            <td><Link to={`customers/${c.token}`}>{customerName(c)}</Link></td>
            <td>{c.email ?? '—'}</td>
            <td>{c.channelReference}</td>
            <td data-field="paymentCount">{c.paymentCount}</td>
            <td>{dateTime(c.createdAt)}</td>
          </tr>
        ))}
      </ListTable>
      <ZoneNote timeZone={viewer.timeZone} />
    </section>
  );
}
