// The payment's history, oldest first, each step named in the reader's language with its time in
// the workspace's time zone (said once above the list): created, 3D page opened and answered,
// provider calls, settlement, refunds and cancels, events and webhook attempts.
import { fill, useT, type Labels } from '../i18n.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { useInstant, useMoney } from '../search/format.ts';

/** The fields the list reads, for the payment's query. */
export const TIMELINE_FIELDS = graphql(`fragment PaymentTimelineFields on Payment { timeline { timeZone entries { at kind status name detail amount } } }`);

export type Timeline = ResultOf<typeof TIMELINE_FIELDS>['timeline'];
export type TimelineEntry = NonNullable<NonNullable<Timeline>['entries']>[number];

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
            <time dateTime={e.at ?? undefined}>{instant(e.at)}</time>
            <span data-field="what">{what(t, e, e.amount ? money(e.amount, currency) : null)}</span>
            {e.detail && <span className="muted" data-field="detail">{e.detail}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** "Provider call: start3D → redirect", "Refund ₺10,00: succeeded", "Settled: successful". */
function what(t: Labels, e: TimelineEntry, amount: string | null): string {
  const label = t[`tl_${e.kind}` as keyof Labels] ?? e.kind;
  const head = [label, e.name, amount].filter(Boolean).join(' ');
  if (!e.status) return head;
  return e.kind === 'provider_call' || e.kind === 'webhook_attempt' ? `${head} → ${e.status}` : `${head}: ${e.status}`;
}
