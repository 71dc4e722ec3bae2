// Payments, newest first: filters, cursor paging, and a refetch on every live event of the
// workspace (graphql-ws), so new rows appear and changed rows update while the page is open.
// Times are in the workspace's zone (said under the list); on phones each row is a card. Each row
// names its card's brand and its customer (a link to the customer's page).
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useSubscription } from 'urql';
import { useT } from '../i18n.ts';
import type { Viewer } from '../viewer.ts';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';
import { PaymentMoneyStatus, PaymentStatus } from '../schema-enums.ts';
import { Link, ListTable, useConnection } from '../ui.tsx';
import { customerName } from '../search/SearchPage.tsx';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { maskedCard } from '../kit/card-brand.ts';
import { statusOf } from '../kit/status.ts';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { NO_FILTERS, inKitOrder, toFilter, type Filters } from './filters.ts';

const PAYMENTS = graphql(`
  query Payments($first: Int, $after: String, $last: Int, $before: String, $filter: PaymentFilter, $slug: String) {
    payments(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token createdAt amount currency status paymentStatus cardFirstDigits cardLastFourDigits cardScheme channelReference isTest
        customer { channelReference } customerRecord { token firstname lastname channelReference } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const EVENTS = graphql(`
  subscription Events {
    events { id kind recordToken transactionToken }
  }
`);

/** One page of the connection (useConnection's size): the skeleton reserves as many rows. */
const PAGE = 20;
const STATUSES = inKitOrder('payment', PaymentStatus);
const MONEY_STATUSES = inKitOrder('money', PaymentMoneyStatus);

export function PaymentsPage({ viewer }: { viewer: Viewer }) {
  const { t, lang } = useT();
  const money = useMoney();
  const dates = useDates(viewer.timeZone);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const filter = useMemo(() => toFilter(filters, viewer.timeZone), [filters, viewer.timeZone]);
  const list = useConnection(PAYMENTS, 'payments', filter, viewer, 'Payment');
  // The handler outlives renders: it must refetch the page and filters shown now, not the first ones.
  const latest = useRef(list.retry);
  latest.current = list.retry;
  useSubscription({ query: EVENTS, pause: viewer.support }, (_prev, event) => {
    latest.current();
    return event;
  });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  const field = (k: keyof Filters) => ({ value: draft[k], onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value }) });
  const filtered = Object.values(filters).some(Boolean);
  return (
    <section aria-labelledby="payments-title">
      <h1 id="payments-title">{t.payments}</h1>
      <form className="filters" onSubmit={apply} role="search">
        <label>{t.status}
          <select name="status" {...field('status')}>
            <option value="">{t.any}</option>
            {STATUSES.map((s) => <option key={s} value={s}>{statusOf('payment', s, lang).label}</option>)}
          </select>
        </label>
        <label>{t.paymentStatus}
          <select name="paymentStatus" {...field('paymentStatus')}>
            <option value="">{t.any}</option>
            {MONEY_STATUSES.map((s) => <option key={s} value={s}>{statusOf('money', s, lang).label}</option>)}
          </select>
        </label>
        <label>{t.from}<input type="date" name="from" {...field('from')} /></label>
        <label>{t.to}<input type="date" name="to" {...field('to')} /></label>
        <label>{t.reference}<input name="reference" {...field('reference')} /></label>
        <label>{t.cardLastFour}<input name="cardLastFour" inputMode="numeric" maxLength={4} size={4} pattern="[0-9]{4}" {...field('lastFour')} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('payments.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} loadingRows={PAGE} empty={filtered ? t.kitEmptyFiltered : t.paymentsEmpty} head={[t.created, t.amount, t.status, t.paymentStatus, t.card, t.customer, t.reference]}>
        {list.rows.map((p) => (
          <tr key={p.token} data-token={p.token}>
            <td><Link to={`payments/${p.token}`}>{p.createdAt ? dates.dateTime(p.createdAt) : p.token}</Link></td>
            <td data-field="amount">{money(p.amount, p.currency)}</td>
            <td><StatusBadge kind="payment" value={p.status} /></td>
            <td><StatusBadge kind="money" value={p.paymentStatus} /></td>
            <td data-field="card">{maskedCard(p.cardScheme, p.cardFirstDigits, p.cardLastFourDigits) ?? '—'}</td>
            <td data-field="customer">{p.customerRecord?.token ? <Link to={`customers/${p.customerRecord.token}`}>{customerName(p.customerRecord)}</Link> : (p.customer?.channelReference ?? '—')}</td>
            <td>{p.channelReference ?? '—'}</td>
          </tr>
        ))}
      </ListTable>
      <ZoneNote timeZone={viewer.timeZone} />
    </section>
  );
}
