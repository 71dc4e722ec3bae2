// Payments, newest first: filters, cursor paging, and a refetch on every live event of the
// workspace (graphql-ws), so new rows appear and changed rows update while the page is open.
import { useRef, useState, type FormEvent } from 'react';
import { useQuery, useSubscription } from 'urql';
import { useT } from '../i18n.ts';
import { navigate } from '../router.ts';
import type { Viewer } from '../App.tsx';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';
import { PaymentMoneyStatus, PaymentStatus } from '../schema-enums.ts';

const PAYMENTS = graphql(`
  query Payments($first: Int, $after: String, $last: Int, $before: String, $filter: PaymentFilter, $slug: String) {
    payments(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token createdAt amount currency status paymentStatus cardFirstDigits cardLastFourDigits channelReference isTest } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const EVENTS = graphql(`
  subscription Events {
    events { id kind recordToken transactionToken }
  }
`);

const PAGE = 20;

interface Filters { status: PaymentStatus | ''; paymentStatus: PaymentMoneyStatus | ''; from: string; to: string; reference: string; lastFour: string }
const EMPTY: Filters = { status: '', paymentStatus: '', from: '', to: '', reference: '', lastFour: '' };

function toFilter(f: Filters) {
  return {
    status: f.status ? [f.status] : undefined,
    paymentStatus: f.paymentStatus ? [f.paymentStatus] : undefined,
    channelReference: f.reference || undefined,
    cardLastFour: f.lastFour || undefined,
    created: f.from || f.to ? { from: f.from ? new Date(f.from + 'T00:00:00').toISOString() : undefined, to: f.to ? new Date(f.to + 'T23:59:59.999').toISOString() : undefined } : undefined,
  };
}

export function PaymentsPage({ viewer }: { viewer: Viewer }) {
  const { t, lang } = useT();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState<{ after?: string; before?: string }>({});
  const variables = { ...(page.before ? { last: PAGE, before: page.before } : { first: PAGE, after: page.after }), filter: toFilter(filters), slug: viewer.support ? viewer.slug : undefined };
  const [{ data, error }, refetch] = useQuery({ query: PAYMENTS, variables });
  // The handler outlives renders: it must refetch the page and filters shown now, not the first ones.
  const latest = useRef(refetch);
  latest.current = refetch;
  useSubscription({ query: EVENTS, pause: viewer.support }, (_prev, event) => {
    latest.current({ requestPolicy: 'network-only' });
    return event;
  });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
    setPage({});
  };
  const field = (k: keyof Filters) => ({ value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  const rows = data?.payments.edges.map((e) => e.node) ?? [];
  const info = data?.payments.pageInfo;
  const fmt = new Intl.DateTimeFormat(lang === 'tr' ? 'tr-TR' : 'en-GB', { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <section aria-labelledby="payments-title">
      <h1 id="payments-title">{t.payments}</h1>
      <form className="filters" onSubmit={apply} role="search">
        <label>{t.status}<select name="status" {...field('status')}><option value="">{t.any}</option>{PaymentStatus.map((s) => <option key={s}>{s}</option>)}</select></label>
        <label>{t.paymentStatus}<select name="paymentStatus" {...field('paymentStatus')}><option value="">{t.any}</option>{PaymentMoneyStatus.map((s) => <option key={s}>{s}</option>)}</select></label>
        <label>{t.from}<input type="date" name="from" {...field('from')} /></label>
        <label>{t.to}<input type="date" name="to" {...field('to')} /></label>
        <label>{t.reference}<input name="reference" {...field('reference')} /></label>
        <label>{t.cardLastFour}<input name="cardLastFour" inputMode="numeric" maxLength={4} size={4} pattern="[0-9]{4}" {...field('lastFour')} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('payments.csv', variables.filter, variables.slug)} />
      {error && <p className="error" role="alert">{error.message}</p>}
      <div className="table-wrap" tabIndex={0}>
        <table aria-live="polite">
          <thead><tr><th scope="col">{t.created}</th><th scope="col">{t.amount}</th><th scope="col">{t.status}</th><th scope="col">{t.paymentStatus}</th><th scope="col">{t.card}</th><th scope="col">{t.reference}</th></tr></thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.token} data-token={p.token}>
                <td><a href={`/dashboard/payments/${p.token}`} onClick={(e) => (e.preventDefault(), navigate(`payments/${p.token}`))}>{p.createdAt ? fmt.format(new Date(p.createdAt)) : p.token}</a></td>
                <td>{p.amount} {p.currency}</td>
                <td>{p.status}</td>
                <td>{p.paymentStatus ?? ''}</td>
                <td>{p.cardFirstDigits ? `${p.cardFirstDigits}•••• ${p.cardLastFourDigits}` : ''}</td>
                <td>{p.channelReference ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && rows.length === 0 && <p>{t.none}</p>}
      </div>
      <div className="row">
        <button type="button" disabled={!info?.hasPreviousPage} onClick={() => setPage({ before: info?.startCursor ?? undefined })}>{t.previous}</button>
        <button type="button" disabled={!info?.hasNextPage} onClick={() => setPage({ after: info?.endCursor ?? undefined })}>{t.next}</button>
      </div>
    </section>
  );
}
