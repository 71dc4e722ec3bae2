// One subscription: items, periods with their payment attempts, notifications, and cancelling it
// after a confirmation (a paid period runs to its end; no refund) for the roles that may.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { fill, useT } from '../i18n.ts';
import { Confirm, Link, outcomeOf, type Outcome } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import { PaymentAttempts } from '../payments/PaymentAttempts.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import { SubscriptionPeriods } from './SubscriptionPeriods.tsx';
import { ItemsTable } from '../orders/ItemsTable.tsx';

const FIELDS = graphql(`fragment SubscriptionDetailFields on SubscriptionRecord {
  token channelReference status period amount currency startsAt endsAt paidAt cancelledAt endedAt renewalLimit checkoutUrl createdAt
  customer { channelReference } items { channelReference name quantity unitAmount }
  periods { number amount status startsAt endsAt paidAt payments { token createdAt amount currency status paymentStatus cardLastFourDigits } }
}`);
const SUBSCRIPTION = graphql(`query Subscription($token: String!) { subscription(token: $token) { ...SubscriptionDetailFields } }`, [FIELDS]);
const CANCEL = graphql(`
  mutation CancelSubscription($token: String!) {
    cancelSubscription(input: { subscription: { token: $token } }) { result { successful message } errors { path message } subscription { ...SubscriptionDetailFields } }
  }
`, [FIELDS]);

/** The statuses a cancel still changes: a cancelled or completed subscription has nothing left to stop. */
const CANCELLABLE = new Set(['pending', 'active', 'past_due']);

export function SubscriptionDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const { dateTime } = useDates(viewer.timeZone);
  const [{ data, error }, reexecute] = useQuery({ query: SUBSCRIPTION, variables: { token } });
  const [cancelling, setCancelling] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, cancel] = useMutation(CANCEL);
  const s = data?.subscription;
  const cancellable = !!s && viewer.can('cancelSubscription') && CANCELLABLE.has(s.status ?? '') && !s.cancelledAt;
  const every = s?.period === 'yearly' ? t.yearly : t.monthly;
  return (
    <section aria-labelledby="subscription-title">
      <Link to="subscriptions">← {t.back}</Link>
      <h1 id="subscription-title">{s?.channelReference ?? t.subscription}</h1>
      {error && !data && <ErrorState message={error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {!data && !error && <Loading rows={6} />}
      {data && !s && <Empty>{t.notFound}</Empty>}
      {s && (
        <>
          <dl>
            <dt>{t.status}</dt><dd data-field="subscriptionStatus"><StatusBadge kind="subscription" value={s.status} /></dd>
            <dt>{t.amount}</dt><dd data-field="amount">{money(s.amount, s.currency)} / {every}</dd>
            <dt>{t.customer}</dt><dd>{s.customer?.channelReference ?? '—'}</dd>
            <dt>{t.startsAt}</dt><dd>{dateTime(s.startsAt)}</dd>
            <dt>{t.periodEnd}</dt><dd data-field="endsAt">{dateTime(s.endsAt)}</dd>
            <dt>{t.renewalLimit}</dt><dd>{s.renewalLimit ?? t.unlimited}</dd>
            {s.cancelledAt && <><dt>{t.cancelledAt}</dt><dd data-field="cancelledAt">{dateTime(s.cancelledAt)}</dd></>}
            {s.endedAt && <><dt>{t.endedAt}</dt><dd>{dateTime(s.endedAt)}</dd></>}
            <dt>{t.checkoutPage}</dt><dd>{s.checkoutUrl ? <a href={s.checkoutUrl} target="_blank" rel="noreferrer">{s.checkoutUrl}</a> : '—'}</dd>
            <dt>{t.recordToken}</dt><dd><code className="wrap">{s.token}</code></dd>
          </dl>
          <ZoneNote timeZone={viewer.timeZone} />
          {cancellable && (
            <div className="card">
              <button type="button" className="danger" onClick={() => (setOutcome(undefined), setCancelling(true))}>{t.cancelSubscription}</button>
              {cancelling && (
                <Confirm
                  text={t.confirmCancelSubscription}
                  onDismiss={() => setCancelling(false)}
                  onConfirm={async () => {
                    const res = await cancel({ token });
                    setCancelling(false);
                    setOutcome(outcomeOf(res, 'cancelSubscription'));
                  }}
                />
              )}
            </div>
          )}
          <ActionOutcome outcome={outcome} />
          <ItemsTable items={s.items ?? []} currency={s.currency} />
          <SubscriptionPeriods periods={s.periods ?? []} currency={s.currency} timeZone={viewer.timeZone} />
          {(s.periods ?? []).filter((p) => p.payments?.length).map((p) => (
            <PaymentAttempts key={p.number} payments={p.payments ?? []} timeZone={viewer.timeZone} title={fill(t.periodPayments, { n: String(p.number) })} />
          ))}
          <div className="card">
            <h2>{t.notifications}</h2>
            <NotificationList viewer={viewer} recordToken={token} />
          </div>
        </>
      )}
    </section>
  );
}
