// Subscriptions, newest first, with status and reference filters; statuses as badges, amounts and
// dates in the reader's language, the period end in the workspace's zone.
import { useMemo, useState, type FormEvent } from 'react';

import { useT } from '../i18n.ts';
import { Link, ListTable, useConnection } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { ExportLink, exportHref } from '../export/ExportLink.tsx';
import { graphql } from '../graphql.ts';
import type { SubscriptionStatus } from '../schema-enums.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { StatusOptions } from '../kit/StatusOptions.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';

const SUBSCRIPTIONS = graphql(`
  query Subscriptions($first: Int, $after: String, $last: Int, $before: String, $filter: SubscriptionFilter, $slug: String) {
    subscriptions(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { token channelReference status period amount currency endsAt createdAt customer { channelReference } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);

export function SubscriptionsPage({ viewer }: { viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(viewer.timeZone);
  const [draft, setDraft] = useState<{ status: SubscriptionStatus | ''; reference: string }>({ status: '', reference: '' });
  const [applied, setApplied] = useState(draft);
  const filter = useMemo(() => ({ status: applied.status ? [applied.status] : undefined, channelReference: applied.reference || undefined }), [applied]);
  const list = useConnection(SUBSCRIPTIONS, 'subscriptions', filter, viewer, 'SubscriptionRecord');
  const filtered = !!(applied.status || applied.reference);
  return (
    <section aria-labelledby="subscriptions-title">
      <h1 id="subscriptions-title">{t.subscriptions}</h1>
      <form className="filters" role="search" onSubmit={(e: FormEvent) => (e.preventDefault(), setApplied(draft))}>
        <label>{t.status}
          <select name="status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value as SubscriptionStatus | '' })}>
            <option value="">{t.any}</option><StatusOptions kind="subscription" />
          </select>
        </label>
        <label>{t.reference}<input name="reference" value={draft.reference} onChange={(e) => setDraft({ ...draft, reference: e.target.value })} /></label>
        <button type="submit" className="primary">{t.filter}</button>
      </form>
      <ExportLink href={exportHref('subscriptions.csv', filter, viewer.support ? viewer.slug : undefined)} />
      <ListTable list={list} head={[t.reference, t.amount, t.period, t.status, t.customer, t.periodEnd]} empty={filtered ? t.kitEmptyFiltered : undefined}>
        {list.rows.map((s) => (
          <tr key={s.token} data-token={s.token}>
            <td><Link to={`subscriptions/${s.token}`}>{s.channelReference}</Link></td>
            <td data-field="amount">{money(s.amount, s.currency)}</td>
            <td>{s.period === 'yearly' ? t.yearly : t.monthly}</td>
            <td><StatusBadge kind="subscription" value={s.status} /></td>
            <td>{s.customer?.channelReference ?? '—'}</td>
            <td>{dateTime(s.endsAt)}</td>
          </tr>
        ))}
      </ListTable>
      <ZoneNote timeZone={viewer.timeZone} />
    </section>
  );
}
