// Payment links, newest first: open/closed and reference filters, cursor paging, a way to create one.
import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Link, Pager, pageVariables, useDateFormat, type PageArgs } from '../ui.tsx';
import type { Viewer } from '../App.tsx';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';

const LINKS = graphql(`
  query PaymentLinks($first: Int, $after: String, $last: Int, $before: String, $filter: PaymentLinkFilter, $slug: String) {
    paymentLinks(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token reference description amountType amount currency isActive transactionsCount createdAt } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const LIST_TYPES = { additionalTypenames: ['PaymentLink'] };

export function LinksPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const [draft, setDraft] = useState({ active: '', reference: '' });
  const [filters, setFilters] = useState(draft);
  const [page, setPage] = useState<PageArgs>({});
  const filter = { isActive: filters.active ? filters.active === 'open' : undefined, reference: filters.reference || undefined };
  const [{ data, error }] = useQuery({ query: LINKS, variables: { ...pageVariables(page), filter, slug: viewer.support ? viewer.slug : undefined }, context: LIST_TYPES });
  const rows = data?.paymentLinks.edges.map((e) => e.node) ?? [];
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setPage({});
  };
  return (
    <section aria-labelledby="links-title">
      <div className="row spread">
        <h1 id="links-title">{t.links}</h1>
        {!viewer.support && <Link to="links/new">{t.newLink}</Link>}
      </div>
      <form className="filters" role="search" onSubmit={apply}>
        <label>{t.status}
          <select name="linkState" value={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.value })}>
            <option value="">{t.any}</option><option value="open">{t.open}</option><option value="closed">{t.closed}</option>
          </select>
        </label>
        <label>{t.reference}<input name="reference" value={draft.reference} onChange={(e) => setDraft({ ...draft, reference: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('links.csv', filter, viewer.support ? viewer.slug : undefined)} />
      {error && <p className="error" role="alert">{error.message}</p>}
      <div className="table-wrap" tabIndex={0}>
        <table>
          <thead><tr><th scope="col">{t.reference}</th><th scope="col">{t.amountType}</th><th scope="col">{t.amount}</th><th scope="col">{t.status}</th><th scope="col">{t.payments}</th><th scope="col">{t.created}</th></tr></thead>
          <tbody>
            {rows.map((l) => (
              <tr key={l.token} data-token={l.token}>
                <td><Link to={`links/${l.token}`}>{l.reference}</Link>{l.description ? ` · ${l.description}` : ''}</td>
                <td>{t[`amountType_${l.amountType}` as keyof typeof t] ?? l.amountType}</td>
                <td>{l.amount ? `${l.amount} ${l.currency}` : l.currency}</td>
                <td>{l.isActive ? t.open : t.closed}</td>
                <td>{l.transactionsCount}</td>
                <td>{date(l.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && rows.length === 0 && <p>{t.none}</p>}
      </div>
      <Pager info={data?.paymentLinks.pageInfo} onPage={setPage} />
    </section>
  );
}
