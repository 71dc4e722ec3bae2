// Payment links, newest first: open/closed and reference filters, a page at a time (cards on a
// phone), and a way to create one for the roles that may.
import { useMemo, useState, type FormEvent } from 'react';
import { useT } from '../i18n.ts';
import { Link, ListTable, useConnection } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { StatusOptions } from '../kit/StatusOptions.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';

const LINKS = graphql(`
  query PaymentLinks($first: Int, $after: String, $last: Int, $before: String, $filter: PaymentLinkFilter, $slug: String) {
    paymentLinks(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token reference description amountType amount currency isActive transactionsCount createdAt } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);

export function LinksPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(viewer.timeZone);
  const [draft, setDraft] = useState({ active: '', reference: '' });
  const [applied, setApplied] = useState(draft);
  const filter = useMemo(() => ({ isActive: applied.active ? applied.active === 'open' : undefined, reference: applied.reference || undefined }), [applied]);
  const list = useConnection(LINKS, 'paymentLinks', filter, viewer, 'PaymentLink');
  const apply = (e: FormEvent) => (e.preventDefault(), setApplied(draft));
  const filtered = !!(applied.active || applied.reference);
  return (
    <section aria-labelledby="links-title">
      <div className="row spread">
        <h1 id="links-title">{t.links}</h1>
        {viewer.can('createPaymentLink') && <Link to="links/new">{t.newLink}</Link>}
      </div>
      <form className="filters" role="search" onSubmit={apply}>
        <label>{t.status}
          <select name="linkState" value={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.value })}>
            <option value="">{t.any}</option>
            <StatusOptions kind="link" />
          </select>
        </label>
        <label>{t.reference}<input name="reference" value={draft.reference} onChange={(e) => setDraft({ ...draft, reference: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('links.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} head={[t.reference, t.amountType, t.amount, t.status, t.payments, t.created]} empty={filtered ? t.kitEmptyFiltered : t.linksEmpty}>
        {list.rows.map((l) => (
          <tr key={l.token} data-token={l.token}>
            <td><Link to={`links/${l.token}`}>{l.reference}</Link>{l.description ? ` · ${l.description}` : ''}</td>
            <td><StatusBadge kind="linkAmountType" value={l.amountType} /></td>
            <td>{l.amount ? money(l.amount, l.currency) : l.currency}</td>
            <td data-field="linkState"><StatusBadge kind="link" value={l.isActive ? 'open' : 'closed'} /></td>
            <td>{l.transactionsCount}</td>
            <td>{dateTime(l.createdAt)}</td>
          </tr>
        ))}
      </ListTable>
      <ZoneNote timeZone={viewer.timeZone} />
    </section>
  );
}
