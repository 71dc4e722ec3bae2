// One subscription: items, periods with their payment attempts, notifications, and cancelling it
// after a confirmation (a paid period runs to its end; no refund).
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Confirm, Link, OutcomeView, outcomeOf, useDateFormat, type Outcome } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import { PaymentAttempts } from '../payments/PaymentAttempts.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

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

export function SubscriptionDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const [{ data, error }] = useQuery({ query: SUBSCRIPTION, variables: { token } });
  const [cancelling, setCancelling] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, cancel] = useMutation(CANCEL);
  const s = data?.subscription;
  const cancellable = s && !viewer.support && ['pending', 'active', 'past_due'].includes(s.status ?? '') && !s.cancelledAt;
  return (
    <section aria-labelledby="subscription-title">
      <Link to="subscriptions">← {t.back}</Link>
      <h1 id="subscription-title">{s ? s.channelReference : token}</h1>
      {error && <p className="error" role="alert">{error.message}</p>}
      {data && !s && <p role="alert">{t.none}</p>}
      {s && (
        <>
          <dl>
            <dt>Token</dt><dd>{s.token}</dd>
            <dt>{t.status}</dt><dd data-field="subscriptionStatus">{s.status}</dd>
            <dt>{t.amount}</dt><dd>{s.amount} {s.currency} / {s.period === 'yearly' ? t.yearly : t.monthly}</dd>
            <dt>{t.customer}</dt><dd>{s.customer?.channelReference}</dd>
            <dt>{t.periodEnd}</dt><dd>{date(s.endsAt)}</dd>
            {s.cancelledAt && <><dt>{t.cancelledAt}</dt><dd data-field="cancelledAt">{date(s.cancelledAt)}</dd></>}
            {s.endedAt && <><dt>{t.endedAt}</dt><dd>{date(s.endedAt)}</dd></>}
            <dt>{t.checkoutPage}</dt><dd>{s.checkoutUrl ? <a href={s.checkoutUrl} target="_blank" rel="noreferrer">{s.checkoutUrl}</a> : '—'}</dd>
          </dl>
          <div className="card">
            <h2>{t.items}</h2>
            <ul>{(s.items ?? []).map((i, n) => <li key={n}>{i.quantity} × {i.name} ({i.channelReference}) · {i.unitAmount} {s.currency}</li>)}</ul>
          </div>
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
          <OutcomeView outcome={outcome} />
          {(s.periods ?? []).map((p) => (
            <PaymentAttempts key={p.number} payments={p.payments ?? []} title={`${t.period} ${p.number}: ${p.amount} ${s.currency} · ${p.status} · ${date(p.startsAt)} – ${date(p.endsAt)}`} />
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
