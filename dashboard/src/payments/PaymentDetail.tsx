// One payment: amounts, conversion, installments, card (first digits and last four only),
// customer (name and e-mail, linked to its page), refunds, the calls made to its provider and
// webhook notifications. Statuses are badges, money and times are in the reader's language (times
// in the workspace's zone, said on the page).
// Refund and cancel (RefundBox) show only to roles that may call them.
import { useQuery, useSubscription } from 'urql';
import { fill, useT, type Labels } from '../i18n.ts';
import { navigate } from '../router.ts';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import { PROVIDER_ATTEMPT_FIELDS, ProviderAttempts } from './ProviderAttempts.tsx';
import { PaymentTimeline, TIMELINE_FIELDS } from './PaymentTimeline.tsx';
import { RefundBox } from './RefundBox.tsx';
import { BlockCard } from '../risk/BlockCard.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql } from '../graphql.ts';
import { Link } from '../ui.tsx';
import { customerName } from '../search/SearchPage.tsx';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { maskedCard } from '../kit/card-brand.ts';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';

const FIELDS = graphql(`fragment PaymentDetailFields on Payment {
  token createdAt completedAt amount baseAmount currency status paymentStatus refundedAmount refundableAmount refundCurrency installmentNumber
  securityType source isTest channelReference channelToken paymentProviderToken errorCode errorMessage providerErrorCode providerErrorMessage routingReason routingDetail
  cardFirstDigits cardLastFourDigits cardScheme cardHolderName conversion { amount currency rate }
  customer { channelReference } customerRecord { token firstname lastname email channelReference }
  refunds { amount type status createdAt errorCode errorMessage } ...ProviderAttemptFields ...PaymentTimelineFields
}`, [PROVIDER_ATTEMPT_FIELDS, TIMELINE_FIELDS]);
const PAYMENT = graphql(`
  query Payment($token: String!) {
    payment(token: $token) { ...PaymentDetailFields }
  }
`, [FIELDS]);
const UPDATED = graphql(`subscription PaymentUpdated($token: String!) { paymentUpdated(token: $token) { ...PaymentDetailFields } }`, [FIELDS]);

export function PaymentDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const dates = useDates(viewer.timeZone);
  const [{ data, error, fetching }, refetch] = useQuery({ query: PAYMENT, variables: { token } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  useSubscription({ query: UPDATED, variables: { token }, pause: viewer.support }, () => reload());
  const p = data?.payment;
  return (
    <section aria-labelledby="payment-title">
      <a href="/dashboard/payments" onClick={(e) => (e.preventDefault(), navigate('payments'))}>← {t.back}</a>
      <h1 id="payment-title">{p ? money(p.amount, p.currency) : t.payment}</h1>
      {error && <ErrorState message={error.graphQLErrors[0]?.message ?? error.message} onRetry={reload} />}
      {!data && !error && fetching && <Loading rows={8} />}
      {data && !p && <Empty>{t.paymentNotFound}</Empty>}
      {p && (
        <>
          <dl>
            <dt>Token</dt><dd>{p.token}</dd>
            <dt>{t.status}</dt><dd data-field="status"><StatusBadge kind="payment" value={p.status} /></dd>
            <dt>{t.paymentStatus}</dt><dd data-field="paymentStatus"><StatusBadge kind="money" value={p.paymentStatus} /></dd>
            <dt>{t.amount}</dt><dd data-field="amount">{money(p.amount, p.currency)}{p.baseAmount && p.baseAmount !== p.amount ? ` (${money(p.baseAmount, p.currency)})` : ''}</dd>
            <dt>{t.refunded}</dt><dd data-field="refundedAmount">{money(p.refundedAmount ?? '0.00', p.refundCurrency)}</dd>
            <dt>{t.refundable}</dt><dd data-field="refundableAmount">{money(p.refundableAmount, p.refundCurrency)}</dd>
            {p.conversion && <><dt>{t.conversion}</dt><dd data-field="conversion">{money(p.conversion.amount, p.conversion.currency)} @ {p.conversion.rate}</dd></>}
            <dt>{t.installments}</dt><dd>{p.installmentNumber ?? 1}</dd>
            <dt>{t.card}</dt><dd data-field="card">{[maskedCard(p.cardScheme, p.cardFirstDigits, p.cardLastFourDigits), p.cardHolderName].filter(Boolean).join(' ') || '—'}</dd>
            <dt>{t.customer}</dt><dd data-field="customer"><PaymentCustomer record={p.customerRecord} reference={p.customer?.channelReference} /></dd>
            <dt>{t.reference}</dt><dd>{p.channelReference ?? '—'}</dd>
            <dt>{t.source}</dt><dd data-field="source"><StatusBadge kind="source" value={p.source} /> <StatusBadge kind="security" value={p.securityType} /></dd>
            <dt>{t.created}</dt><dd data-field="createdAt">{dates.dateTime(p.createdAt)}</dd>
            <dt>{t.completedAt}</dt><dd data-field="completedAt">{dates.dateTime(p.completedAt)}</dd>
            {p.routingReason && <><dt>{t.routing}</dt><dd data-field="routing">{routingText(t, p.routingReason, p.routingDetail as RoutingDetail)}</dd></>}
            {p.errorMessage && <><dt>{t.error}</dt><dd className="error" data-field="error">{p.errorMessage}{p.errorCode ? <> (<code>{p.errorCode}</code>)</> : null}</dd></>}
            {(p.providerErrorCode || p.providerErrorMessage) && (
              <><dt>{t.providerError}</dt><dd data-field="providerError">{[p.providerErrorCode, p.providerErrorMessage].filter(Boolean).join(': ')}</dd></>
            )}
          </dl>
          <ZoneNote timeZone={viewer.timeZone} />
          {viewer.can('addRiskListEntry') && p.cardLastFourDigits && <BlockCard token={p.token ?? token} />}
          <RefundBox
            token={p.token ?? token}
            refundable={p.refundableAmount}
            currency={p.refundCurrency}
            canRefund={viewer.can('refundPayment')}
            canCancel={viewer.can('cancelPayment') && p.status === 'successful' && p.paymentStatus === 'paid' && p.refundedAmount === '0.00'}
            onDone={reload}
          />
          {!!p.refunds?.length && (
            <div className="card">
              <h2>{t.refunds}</h2>
              <ul>
                {p.refunds.map((r, i) => (
                  <li key={i} data-refund={i}>
                    {money(r.amount, p.refundCurrency)} <StatusBadge kind="refundType" value={r.type} /> <StatusBadge kind="refund" value={r.status} /> · {dates.dateTime(r.createdAt)}{r.errorMessage ? ` · ${r.errorMessage}` : ''}
                  </li>
                ))}
              </ul>
            </div>
          )}
          <PaymentTimeline timeline={p.timeline} currency={p.refundCurrency} />
          <ProviderAttempts attempts={p.providerAttempts ?? []} timeZone={viewer.timeZone} />
          <div className="card">
            <h2>{t.notifications}</h2>
            <NotificationList viewer={viewer} recordToken={token} />
          </div>
        </>
      )}
    </section>
  );
}

type CustomerRecord = { token: string | null; firstname: string | null; lastname: string | null; email: string | null; channelReference: string | null };

/** The customer by name, a link to its page, with its e-mail and reference; a payment without one: "—". */
function PaymentCustomer({ record, reference }: { record: CustomerRecord | null | undefined; reference: string | null | undefined }) {
  if (!record?.token) return <>{reference ?? '—'}</>;
  return (
    <>
      <Link to={`customers/${record.token}`}>{customerName(record)}</Link>
      {record.email && <div data-field="customerEmail">{record.email}</div>}
      {record.channelReference && <div className="muted">{record.channelReference}</div>}
    </>
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
