// Notifications with every attempt (HTTP code, response excerpt or connection error) and a resend
// button once the automatic attempts ended (for the roles that may resend); used by the webhooks
// screen and by a record's detail. Times are in the workspace's zone, which the list says.
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Link, Pager, outcomeOf, pageVariables, type PageArgs } from '../ui.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import type { NotificationStatus } from '../schema-enums.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';

const NOTIFICATIONS = graphql(`
  query Notifications($first: Int, $after: String, $last: Int, $before: String, $filter: NotificationFilter, $slug: String) {
    notifications(first: $first, after: $after, last: $last, before: $before, filter: $filter, workspaceSlug: $slug) {
      edges { node { id event url recordToken status attemptCount nextAttemptAt deliveredAt createdAt attempts { number startedAt httpStatus error responseExcerpt } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
`);
const RESEND = graphql(`
  mutation Resend($id: ID!) {
    resendNotification(id: $id) { result { successful message } errors { path message } notification { id status attemptCount deliveredAt attempts { number startedAt httpStatus error responseExcerpt } } }
  }
`);

/** The screen of a notification's record, by the event's module. */
const RECORD_SCREEN: Record<string, string> = { transaction: 'payments', order: 'orders', subscription: 'subscriptions', payment_link: 'links' };

// An empty list names no type, so the document cache would not refetch it after a resend.
const NOTIFICATION_TYPES = { additionalTypenames: ['Notification'] };


/**
 * `filtered`: the caller's filter is the reader's (an empty list then says so); `zoneNote: false`
 * when the page already says which zone its times are in.
 */
export function NotificationList({ viewer, recordToken, status, reload = 0, filtered = false, zoneNote = true }: { viewer: Viewer; recordToken?: string; status?: NotificationStatus; reload?: number; filtered?: boolean; zoneNote?: boolean }) {
  const { t } = useT();
  const { dateTime: date } = useDates(viewer.timeZone);
  const [page, setPage] = useState<PageArgs>({});
  const filter = { recordToken: recordToken || undefined, status: status ? [status] : undefined };
  const [{ data, error, fetching }, refetch] = useQuery({
    query: NOTIFICATIONS,
    variables: { ...pageVariables(page), filter, slug: viewer.support ? viewer.slug : undefined },
    context: NOTIFICATION_TYPES,
  });
  useEffect(() => {
    if (reload) refetch({ requestPolicy: 'network-only' });
  }, [reload, refetch]);
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const [, resend] = useMutation(RESEND);
  const rows = data?.notifications.edges.map((e) => e.node) ?? [];
  const info = data?.notifications.pageInfo;
  return (
    <div>
      {error && <ErrorState message={error.networkError ? t.kitServerDown : error.message} onRetry={() => refetch({ requestPolicy: 'network-only' })} />}
      {!data && fetching && <Loading />}
      <ActionOutcome outcome={outcome} />
      <ul className="notifications">
        {rows.map((n) => {
          const last = n.attempts.at(-1);
          return (
            <li key={n.id} data-notification={n.id} className="card">
              <div className="row">
                <strong>{n.event}</strong>
                <span data-field="notificationStatus"><StatusBadge kind="notification" value={n.status} /></span>
                <span>{t.attempts}: {n.attemptCount}</span>
                {last?.httpStatus != null && <span data-field="httpStatus">HTTP {last.httpStatus}</span>}
                {viewer.can('resendNotification') && n.status !== 'pending' && (
                  <button type="button" onClick={async () => setOutcome(outcomeOf(await resend({ id: n.id }), 'resendNotification'))}>
                    {t.resend}
                  </button>
                )}
              </div>
              <div className="muted">
                {n.url} · {recordToken ? null : <><Link to={`${RECORD_SCREEN[n.event.split('.')[0]!] ?? 'payments'}/${n.recordToken}`}>{n.recordToken}</Link> · </>}
                {date(n.createdAt)}{n.nextAttemptAt ? ` · ${t.nextAttempt}: ${date(n.nextAttemptAt)}` : ''}
              </div>
              {n.attempts.length > 0 && (
                <details>
                  <summary>{t.attemptList}</summary>
                  <ol>
                    {n.attempts.map((a) => (
                      <li key={a.number}>
                        {date(a.startedAt)} · {a.httpStatus != null ? `HTTP ${a.httpStatus}` : a.error}
                        {a.responseExcerpt ? <> · <code>{a.responseExcerpt}</code></> : null}
                      </li>
                    ))}
                  </ol>
                </details>
              )}
            </li>
          );
        })}
      </ul>
      {data && rows.length === 0 && <Empty>{filtered ? t.kitEmptyFiltered : t.notificationsEmpty}</Empty>}
      {(info?.hasNextPage || info?.hasPreviousPage) && <Pager info={info} onPage={setPage} />}
      {zoneNote && rows.length > 0 && <ZoneNote timeZone={viewer.timeZone} />}
    </div>
  );
}
