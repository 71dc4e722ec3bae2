// The payment's history, oldest first, each step named in the reader's language with its time in
// the workspace's time zone (said once above the list): created, 3D page opened and answered,
// provider calls, settlement, refunds and cancels, events and webhook attempts.
import { fill, useT, type Labels } from '../i18n.ts';
import { useInstant, useMoney } from '../search/format.ts';

export interface TimelineEntry {
  at: string;
  kind: string;
  status: string | null;
  name: string | null;
  detail: string | null;
  amount: string | null;
}

export interface Timeline { timeZone: string; entries: TimelineEntry[] }

/** The fields the list reads, for the payment's query. */
export const TIMELINE_FIELDS = 'timeline { timeZone entries { at kind status name detail amount } }';

export function PaymentTimeline({ timeline, currency }: { timeline: Timeline | null | undefined; currency: string }) {
  const { t } = useT();
  const instant = useInstant(timeline?.timeZone);
  const money = useMoney();
  if (!timeline) return null;
  return (
    <div className="card">
      <h2 id="payment-timeline">{t.timeline}</h2>
      <p className="muted" data-field="timeZone">{fill(t.timelineZone, { zone: timeline.timeZone })}</p>
      <ol className="timeline" aria-labelledby="payment-timeline">
        {timeline.entries.map((e, i) => (
          <li key={i} data-kind={e.kind}>
            <time dateTime={e.at}>{instant(e.at)}</time>
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
