// One payment link: its amounts, items, hosted page address, the payments made through it, its
// notifications, and closing it after a confirmation.
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useT } from '../i18n.ts';
import { Confirm, Link, OutcomeView, outcomeOf, useDateFormat, type Outcome } from '../ui.tsx';
import { NotificationList } from '../webhooks/NotificationList.tsx';
import type { Viewer } from '../App.tsx';
import { graphql } from '../graphql.ts';

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

export function LinkDetail({ token, viewer }: { token: string; viewer: Viewer }) {
  const { t } = useT();
  const date = useDateFormat();
  const [{ data, error }] = useQuery({ query: LINK, variables: { token } });
  const [closing, setClosing] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [, close] = useMutation(CLOSE);
  const l = data?.paymentLink;
  const payments = data?.linkPayments ?? [];
  return (
    <section aria-labelledby="link-title">
      <Link to="links">← {t.back}</Link>
      <h1 id="link-title">{l ? l.reference : token}</h1>
      {error && <p className="error" role="alert">{error.message}</p>}
      {data && !l && <p role="alert">{t.none}</p>}
      {l && (
        <>
          <dl>
            <dt>Token</dt><dd>{l.token}</dd>
            <dt>{t.status}</dt><dd data-field="linkState">{l.isActive ? t.open : t.closed}</dd>
            <dt>{t.amountType}</dt><dd>{t[`amountType_${l.amountType}` as keyof typeof t] ?? l.amountType}</dd>
            {l.amount && <><dt>{t.amount}</dt><dd>{l.amount} {l.currency} ({t.subtotal} {l.subtotal}, {t.tax} {l.taxAmount})</dd></>}
            {!l.amount && <><dt>{t.currency}</dt><dd>{l.currency}{l.currencies ? ` (${l.currencies.join(', ')})` : ''}</dd></>}
            {l.itemName && <><dt>{t.itemName}</dt><dd>{l.itemName}</dd></>}
            {l.predefinedAmounts && <><dt>{t.predefinedAmounts}</dt><dd>{l.predefinedAmounts.join(' · ')}</dd></>}
            {l.taxRate && <><dt>{t.taxRate}</dt><dd>%{l.taxRate} ({l.taxMode})</dd></>}
            {l.description && <><dt>{t.description}</dt><dd>{l.description}</dd></>}
            <dt>{t.expiresOn}</dt><dd>{l.expiresAt ? date(l.expiresAt) : '—'}</dd>
            <dt>{t.checkoutPage}</dt><dd>{l.checkoutUrl ? <a href={l.checkoutUrl} target="_blank" rel="noreferrer" data-field="checkoutUrl">{l.checkoutUrl}</a> : '—'}</dd>
            <dt>{t.created}</dt><dd>{date(l.createdAt)}</dd>
          </dl>
          {!!l.items?.length && (
            <div className="card">
              <h2>{t.items}</h2>
              <ul>{l.items.map((i, n) => <li key={n}>{i.quantity} × {i.name} · {i.unitAmount} {l.currency}{i.taxRate ? ` · %${i.taxRate}` : ''}</li>)}</ul>
            </div>
          )}
          {!viewer.support && l.isActive && (
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
          <OutcomeView outcome={outcome} />
          <div className="card">
            <h2>{t.payments} ({l.transactionsCount})</h2>
            <ul>
              {payments.map((p) => (
                <li key={p.token} data-link-payment={p.token ?? undefined}>
                  {p.reference} · {p.amount} {p.currency} · {p.status} · {[p.customer?.billingAddress?.firstname, p.customer?.billingAddress?.lastname].filter(Boolean).join(' ')}
                  {' · '}{date(p.paidAt ?? p.createdAt)}
                  {p.transaction && <> · <Link to={`payments/${p.transaction.token}`}>{t.payment}</Link></>}
                </li>
              ))}
            </ul>
            {payments.length === 0 && <p>{t.none}</p>}
          </div>
          <div className="card">
            <h2>{t.notifications}</h2>
            <NotificationList viewer={viewer} recordToken={token} />
          </div>
        </>
      )}
    </section>
  );
}
