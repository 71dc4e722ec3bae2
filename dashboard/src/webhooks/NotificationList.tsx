// Notifications with every attempt (HTTP code, response excerpt or connection error) and a resend
// button once the automatic attempts ended; used by the webhooks screen and by a record's detail.
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Link, OutcomeView, Pager, outcomeOf, pageVariables, useDateFormat, type Outcome, type PageArgs } from '../ui.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';
import type { NotificationStatus } from '../schema-enums.ts';

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


export function NotificationList({ viewer, recordToken, status, reload = 0 }: { viewer: Viewer; recordToken?: string; status?: NotificationStatus; reload?: number }) {
  const { t } = useT();
  const date = useDateFormat();
  const [page, setPage] = useState<PageArgs>({});
  const filter = { recordToken: recordToken || undefined, status: status ? [status] : undefined };
  const [{ data, error }, refetch] = useQuery({
    query: NOTIFICATIONS,
    variables: { ...pageVariables(page), filter, slug: viewer.support ? viewer.slug : undefined },
    context: NOTIFICATION_TYPES,
  });
  useEffect(() => {
    if (reload) refetch({ requestPolicy: 'network-only' });
  }, [reload, refetch]);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, resend] = useMutation(RESEND);
  const rows = data?.notifications.edges.map((e) => e.node) ?? [];
  return (
    <div>
      {error && <p className="error" role="alert">{error.message}</p>}
      <OutcomeView outcome={outcome} />
      <ul className="notifications">
        {rows.map((n) => {
          const last = n.attempts.at(-1);
          return (
            <li key={n.id} data-notification={n.id} className="card">
              <div className="row">
                <strong>{n.event}</strong>
                <span data-field="notificationStatus" className={n.status === 'delivered' ? 'ok' : n.status === 'pending' ? '' : 'error'}>{n.status}</span>
                <span>{t.attempts}: {n.attemptCount}</span>
                {last?.httpStatus != null && <span data-field="httpStatus">HTTP {last.httpStatus}</span>}
                {!viewer.support && n.status !== 'pending' && (
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
      {data && rows.length === 0 && <p>{t.none}</p>}
      <Pager info={data?.notifications.pageInfo} onPage={setPage} />
    </div>
  );
}
