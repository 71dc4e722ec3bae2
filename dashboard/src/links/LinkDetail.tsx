// One payment link: its amounts, items, hosted page address (with copy and QR code), the payments
// made through it, its notifications, and closing it after a confirmation.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Confirm, Link, outcomeOf } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import type { Viewer } from '../viewer.ts';
import { graphql, type ResultOf } from '../graphql.ts';
import { StatusBadge } from '../kit/StatusBadge.tsx';
import { useMoney } from '../kit/money.ts';
import { useDates } from '../kit/dates.ts';
import { ZoneNote } from '../kit/ZoneNote.tsx';
import { Empty, ErrorState, Loading } from '../kit/states.tsx';
import { CopyButton } from '../kit/CopyButton.tsx';
import { QrCode } from '../kit/QrCode.tsx';
import { CardTable } from '../kit/CardTable.tsx';
import { ActionOutcome } from '../kit/ActionOutcome.tsx';
import type { ApiOutcome } from '../kit/field-errors.ts';
import { useRate } from './format.ts';

const FIELDS = graphql(`fragment PaymentLinkDetailFields on PaymentLink {
  token reference description amountType itemName predefinedAmounts taxRate taxMode subtotal taxAmount amount currency currencyType currencies
  emailsCustomer isActive isTest expiresAt checkoutUrl createdAt transactionsCount items { name quantity unitAmount taxRate }
}`);
const LINK = graphql(`
  query PaymentLink($token: String!) {
    paymentLink(token: $token) { ...PaymentLinkDetailFields }
    linkPayments(token: $token) { token reference status amount currency paidAt createdAt transaction { token } customer { billingAddress { firstname lastname email } } }
  }
`, [FIELDS]);
const CLOSE = graphql(`
  mutation ClosePaymentLink($token: String!) {
    updatePaymentLink(input: { token: $token, paymentLink: { isActive: false } }) { result { successful message } errors { path message } paymentLink { ...PaymentLinkDetailFields } }
  }
`, [FIELDS]);

type LinkData = NonNullable<ResultOf<typeof LINK>['paymentLink']>;
type LinkPayments = NonNullable<ResultOf<typeof LINK>['linkPayments']>;

export function LinkDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const [{ data, error, fetching }, reexecute] = useQuery({ query: LINK, variables: { token } });
  const l = data?.paymentLink;
  return (
    <section aria-labelledby="link-title">
      <Link to="links">← {t.back}</Link>
      <h1 id="link-title">{l ? l.reference : t.links}</h1>
      {!data && fetching && <Loading rows={6} />}
      {error && <ErrorState message={error.networkError ? t.kitServerDown : error.message} onRetry={() => reexecute({ requestPolicy: 'network-only' })} />}
      {data && !l && <Empty>{t.linkNotFound}</Empty>}
      {l && <LinkBody token={token} link={l} payments={data.linkPayments ?? []} viewer={viewer} />}
    </section>
  );
}

function LinkBody({ token, link: l, payments, viewer }: { token: string; link: LinkData; payments: LinkPayments; viewer: Viewer }) {
  const { t } = useT();
  const money = useMoney();
  const rate = useRate();
  const dates = useDates(viewer.timeZone);
  const [closing, setClosing] = useState(false);
  const [outcome, setOutcome] = useState<ApiOutcome | undefined>();
  const [, close] = useMutation(CLOSE);
  return (
    <>
      <div className="card">
        <h2>{t.checkoutPage}</h2>
        {l.checkoutUrl ? (
          <div className="link-share">
            <p><a href={l.checkoutUrl} target="_blank" rel="noreferrer" data-field="checkoutUrl">{l.checkoutUrl}</a></p>
            <CopyButton text={l.checkoutUrl} />
            <p className="muted">{t.linkShare}</p>
            <QrCode value={l.checkoutUrl} size={160} />
          </div>
        ) : <p className="muted">{t.linkClosedNoPage}</p>}
      </div>
      <dl>
        <dt>{t.status}</dt><dd data-field="linkState"><StatusBadge kind="link" value={l.isActive ? 'open' : 'closed'} /></dd>
        <dt>{t.amountType}</dt><dd><StatusBadge kind="linkAmountType" value={l.amountType} /></dd>
        {l.amount && <><dt>{t.amount}</dt><dd data-field="linkAmount">{money(l.amount, l.currency)} ({t.subtotal} {money(l.subtotal, l.currency)}, {t.tax} {money(l.taxAmount, l.currency)})</dd></>}
        {!l.amount && <><dt>{t.currency}</dt><dd>{l.currency}{l.currencies?.length ? ` (${l.currencies.join(', ')})` : ''}</dd></>}
        {l.itemName && <><dt>{t.itemName}</dt><dd>{l.itemName}</dd></>}
        {!!l.predefinedAmounts?.length && <><dt>{t.predefinedAmounts}</dt><dd data-field="predefinedAmounts">{l.predefinedAmounts.map((a) => money(a, l.currency)).join(' · ')}</dd></>}
        {l.taxRate && <><dt>{t.taxRate}</dt><dd>{rate(l.taxRate)} ({l.taxMode === 'exclusive' ? t.taxExclusive : t.taxInclusive})</dd></>}
        {l.description && <><dt>{t.description}</dt><dd>{l.description}</dd></>}
        <dt>{t.expiresOn}</dt><dd>{dates.date(l.expiresAt)}</dd>
        <dt>{t.created}</dt><dd>{dates.dateTime(l.createdAt)}</dd>
        <dt>Token</dt><dd className="wrap">{l.token}</dd>
      </dl>
      {!!l.items?.length && (
        <div className="card">
          <h2>{t.items}</h2>
          <CardTable head={[t.itemName, t.quantity, t.unitAmount, t.taxRate]}>
            {l.items.map((i, n) => (
              <tr key={n} data-item={n}>
                <td>{i.name}</td><td>{i.quantity}</td><td>{money(i.unitAmount, l.currency)}</td><td>{rate(i.taxRate)}</td>
              </tr>
            ))}
          </CardTable>
        </div>
      )}
      {viewer.can('updatePaymentLink') && l.isActive && (
        <div className="card">
          <button type="button" className="danger" onClick={() => (setOutcome(undefined), setClosing(true))}>{t.closeLink}</button>
          {closing && (
            <Confirm
              text={t.confirmCloseLink}
              onDismiss={() => setClosing(false)}
              onConfirm={async () => {
                const res = await close({ token });
                setClosing(false);
                setOutcome(outcomeOf(res, 'updatePaymentLink'));
              }}
            />
          )}
        </div>
      )}
      <ActionOutcome outcome={outcome} />
      <div className="card">
        <h2>{t.payments} ({l.transactionsCount})</h2>
        {payments.length === 0 ? <Empty>{t.linkNoPayments}</Empty> : <LinkPaymentsTable payments={payments} timeZone={viewer.timeZone} />}
      </div>
      <div className="card">
        <h2>{t.notifications}</h2>
        <NotificationList viewer={viewer} recordToken={token} zoneNote={false} />
      </div>
      <ZoneNote timeZone={viewer.timeZone} />
    </>
  );
}

function LinkPaymentsTable({ payments, timeZone }: { payments: LinkPayments; timeZone: string | null }) {
  const { t } = useT();
  const money = useMoney();
  const dates = useDates(timeZone);
  return (
    <CardTable head={[t.reference, t.status, t.amount, t.payer, t.created, t.payment]}>
      {payments.map((p) => {
        const b = p.customer?.billingAddress;
        return (
          <tr key={p.token} data-link-payment={p.token ?? undefined}>
            <td>{p.reference}</td>
            <td><StatusBadge kind="linkPayment" value={p.status} /></td>
            <td>{money(p.amount, p.currency)}</td>
            <td>{[b?.firstname, b?.lastname].filter(Boolean).join(' ') || '—'}</td>
            <td>{dates.dateTime(p.createdAt)}</td>
            <td>{p.transaction ? <Link to={`payments/${p.transaction.token}`}>{t.payment}</Link> : '—'}</td>
          </tr>
        );
      })}
    </CardTable>
  );
}
