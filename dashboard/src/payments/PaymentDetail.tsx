// One payment: amounts, conversion, installments, card (first digits and last four only),
// customer, refunds, the calls made to its provider and webhook notifications; partial refund and
// cancel after a confirmation.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { fill, useT, type Labels } from '../i18n.ts';
import { navigate } from '../router.ts';
import { Confirm, OutcomeView, outcomeOf, type Outcome } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import { PROVIDER_ATTEMPT_FIELDS, ProviderAttempts } from './ProviderAttempts.tsx';
import { PaymentTimeline, TIMELINE_FIELDS } from './PaymentTimeline.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

const FIELDS = graphql(`fragment PaymentDetailFields on Payment {
  token createdAt completedAt amount baseAmount currency status paymentStatus refundedAmount installmentNumber
  securityType source isTest channelReference channelToken paymentProviderToken errorCode errorMessage providerErrorCode providerErrorMessage routingReason routingDetail
  cardFirstDigits cardLastFourDigits cardScheme cardHolderName conversion { amount currency rate } customer { channelReference }
  refunds { amount type status createdAt errorCode errorMessage } ...ProviderAttemptFields ...PaymentTimelineFields
}`, [PROVIDER_ATTEMPT_FIELDS, TIMELINE_FIELDS]);
const PAYMENT = graphql(`
  query Payment($token: String!) {
    payment(token: $token) { ...PaymentDetailFields }
  }
`, [FIELDS]);
const UPDATED = graphql(`subscription PaymentUpdated($token: String!) { paymentUpdated(token: $token) { ...PaymentDetailFields } }`, [FIELDS]);
const REFUND = graphql(`
  mutation Refund($token: String!, $amount: AmountInput) {
    refundPayment(input: { transaction: { token: $token }, amount: $amount }) { result { successful message } errors { path message } refund { amount type } }
  }
`);
const CANCEL = graphql(`
  mutation Cancel($token: String!) {
    cancelPayment(input: { transaction: { token: $token } }) { result { successful message } errors { path message } refund { amount type } }
  }
`);

export function PaymentDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const [{ data, error }, refetch] = useQuery({ query: PAYMENT, variables: { token } });
  useSubscription({ query: UPDATED, variables: { token }, pause: viewer.support }, () => refetch({ requestPolicy: 'network-only' }));
  const p = data?.payment;
  return (
    <section aria-labelledby="payment-title">
      <a href="/dashboard/payments" onClick={(e) => (e.preventDefault(), navigate('payments'))}>← {t.back}</a>
      <h1 id="payment-title">{p ? `${p.amount} ${p.currency}` : token}</h1>
      {error && <p className="error" role="alert">{error.message}</p>}
      {p && (
        <>
          <dl>
            <dt>Token</dt><dd>{p.token}</dd>
            <dt>{t.status}</dt><dd data-field="status">{p.status}</dd>
            <dt>{t.paymentStatus}</dt><dd data-field="paymentStatus">{p.paymentStatus ?? '—'}</dd>
            <dt>{t.amount}</dt><dd>{p.amount} {p.currency}{p.baseAmount && p.baseAmount !== p.amount ? ` (${p.baseAmount})` : ''}</dd>
            <dt>{t.refunded}</dt><dd data-field="refundedAmount">{p.refundedAmount ?? '0.00'} {p.currency}</dd>
            {p.conversion && <><dt>{t.conversion}</dt><dd>{p.conversion.amount} {p.conversion.currency} @ {p.conversion.rate}</dd></>}
            <dt>{t.installments}</dt><dd>{p.installmentNumber ?? 1}</dd>
            <dt>{t.card}</dt><dd>{p.cardFirstDigits ? `${p.cardScheme ?? ''} ${p.cardFirstDigits}•••• ${p.cardLastFourDigits} ${p.cardHolderName ?? ''}` : '—'}</dd>
            <dt>{t.customer}</dt><dd>{p.customer?.channelReference ?? '—'}</dd>
            <dt>{t.reference}</dt><dd>{p.channelReference ?? '—'}</dd>
            {p.routingReason && <><dt>{t.routing}</dt><dd data-field="routing">{routingText(t, p.routingReason, p.routingDetail as RoutingDetail)}</dd></>}
            {p.errorMessage && <><dt>{t.error}</dt><dd className="error">{p.errorCode}: {p.errorMessage}</dd></>}
            {(p.providerErrorCode || p.providerErrorMessage) && (
              <><dt>{t.providerError}</dt><dd data-field="providerError">{[p.providerErrorCode, p.providerErrorMessage].filter(Boolean).join(': ')}</dd></>
            )}
          </dl>
          {!viewer.support && p.status === 'successful' && p.paymentStatus !== 'refunded' && p.paymentStatus !== 'cancelled' && <Actions payment={{ token, amount: p.amount, currency: p.currency }} />}
          {!!p.refunds?.length && (
            <div className="card">
              <h2>{t.refunds}</h2>
              <ul>{p.refunds.map((r, i) => <li key={i}>{r.amount} {p.currency} · {r.type} · {r.status}{r.errorMessage ? ` · ${r.errorMessage}` : ''}</li>)}</ul>
            </div>
          )}
          <PaymentTimeline timeline={p.timeline} currency={p.currency} />
          <ProviderAttempts attempts={p.providerAttempts ?? []} />
          <div className="card">
            <h2>{t.notifications}</h2>
            <NotificationList viewer={viewer} recordToken={token} />
          </div>
        </>
      )}
    </section>
  );
}

function Actions({ payment }: { payment: { token: string; amount: string | null; currency: string | null } }) {
  const { t } = useT();
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState<'refund' | 'cancel' | null>(null);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, refund] = useMutation(REFUND);
  const [, cancel] = useMutation(CANCEL);
  const run = async () => {
    const answer = confirming === 'refund' ? outcomeOf(await refund({ token: payment.token, amount: amount || undefined }), 'refundPayment') : outcomeOf(await cancel({ token: payment.token }), 'cancelPayment');
    setConfirming(null);
    setOutcome(answer);
  };
  const ask = (e: FormEvent) => {
    e.preventDefault();
    setOutcome(undefined);
    setConfirming('refund');
  };
  return (
    <div className="card">
      <form className="row" onSubmit={ask}>
        <label>{t.refundAmount} ({payment.currency})<input name="refundAmount" inputMode="decimal" placeholder={payment.amount ?? undefined} value={amount} onChange={(e) => setAmount(e.target.value)} /></label>
        <button type="submit">{t.refund}</button>
        <button type="button" className="danger" onClick={() => (setOutcome(undefined), setConfirming('cancel'))}>{t.cancel}</button>
      </form>
      {confirming && (
        <Confirm
          text={confirming === 'refund' ? fill(t.confirmRefund, { amount: amount || (payment.amount ?? ''), currency: payment.currency ?? '' }) : t.confirmCancel}
          onConfirm={() => void run()}
          onDismiss={() => setConfirming(null)}
        />
      )}
      <OutcomeView outcome={outcome} />
    </div>
  );
}

type RoutingDetail = { ruleId?: string | null; cost?: number | null; passedOver?: string; failed?: string } | null;

/** Why the payment's account took it, in the reader's words (the detail's ids where they explain it). */
const REASONS: Record<string, keyof Labels> = {
  token: 'reasonToken', rule: 'reasonRule', cost: 'reasonCost', default: 'reasonDefault', saved_card: 'reasonSavedCard', health: 'reasonHealth', fallback: 'reasonFallback',
};

function routingText(t: Labels, reason: string, detail: RoutingDetail): string {
  const label = REASONS[reason] ? t[REASONS[reason]] : reason;
  const because = detail?.failed ? fill(t.routingFailed, { account: detail.failed }) : detail?.passedOver ? fill(t.routingPassedOver, { account: detail.passedOver }) : null;
  return because ? `${label}: ${because}` : label;
}
