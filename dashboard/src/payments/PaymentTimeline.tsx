// The payment's history, oldest first, each step named in the reader's language with its time in
// the workspace's time zone (said once above the list): created, 3D page opened and answered,
// provider calls, settlement, refunds and cancels, events and webhook attempts. Statuses and
// operations are badges; event names and HTTP answers stay as the integration reads them.
import { fill, useT } from '../i18n.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { useInstant, useMoney } from '../search/format.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { statusOf, type StatusKind } from '../kit/status.ts';

/** The fields the list reads, for the payment's query. */
export const TIMELINE_FIELDS = graphql(`fragment PaymentTimelineFields on Payment { timeline { timeZone entries { at kind status name detail amount } } }`);

export type Timeline = ResultOf<typeof TIMELINE_FIELDS>['timeline'];
export type TimelineEntry = NonNullable<NonNullable<Timeline>['entries']>[number];

/** Which badge kind an entry's name and status are read with, per entry kind (none: shown as is). */
const NAME_KIND: Partial<Record<string, StatusKind>> = { created: 'source', provider_call: 'operation' };
const STATUS_KIND: Partial<Record<string, StatusKind>> = { created: 'security', provider_call: 'attempt', settled: 'payment', refund: 'refund', cancel: 'refund' };

export function PaymentTimeline({ timeline, currency }: { timeline: Timeline | undefined; currency: string | null }) {
  const { t } = useT();
  const instant = useInstant(timeline?.timeZone);
  const money = useMoney();
  if (!timeline) return null;
  return (
    <div className="card">
      <h2 id="payment-timeline">{t.timeline}</h2>
      <p className="muted" data-field="timeZone">{fill(t.timelineZone, { zone: timeline.timeZone ?? '' })}</p>
      <ol className="timeline" aria-labelledby="payment-timeline">
        {(timeline.entries ?? []).map((e, i) => (
          <li key={i} data-kind={e.kind}>
            <time dateTime={e.at ?? undefined}>{instant(e.at)}</time>{' '}
            <span data-field="what"><What entry={e} amount={e.amount ? money(e.amount, currency) : null} /></span>
            {e.detail && <> <span className="muted" data-field="detail">{e.detail}</span></>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** "Provider call [3D start] → [Redirect (3D)]", "Refund ₺10,00: [Succeeded]", "Settled: [Successful]". */
function What({ entry: e, amount }: { entry: TimelineEntry; amount: string | null }) {
  const { lang } = useT();
  const kind = e.kind ?? '';
  const label = statusOf('timeline', kind, lang).label;
  const nameKind = NAME_KIND[kind];
  const statusKind = STATUS_KIND[kind];
  const arrow = kind === 'provider_call' || kind === 'webhook_attempt';
  return (
    <>
      {label}
      {e.name && <> {nameKind ? <StatusBadge kind={nameKind} value={e.name} /> : <code>{e.name}</code>}</>}
      {amount && <> {amount}</>}
      {e.status && <>{arrow ? ' → ' : ': '}{statusKind ? <StatusBadge kind={statusKind} value={e.status} /> : e.status}</>}
    </>
  );
}
