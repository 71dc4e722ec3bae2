// The hosted checkout page of a subscription (subscription.checkout_url): the items, the period
// and the amount of the period to pay (the first one, or a past due one), the shared card form
// (no installments: a period costs what it costs), then 3D Secure. The card is stored on the
// customer for the renewals. Every rule is the domain's (subscriptions/pay.ts); this page only
// translates, with our texts from the message catalog in the shopper's language and local times
// in the workspace's time zone.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import { DomainError } from '../domain/errors.ts';
import { message, type Language, type MessageCode } from '../domain/messages.ts';
import { displayMoney } from '../domain/money.ts';
import { shopperFailureReason } from '../domain/payments/view.ts';
import { failedAttempt, findCheckoutSubscription, notPayableReason, paySubscription, type CheckoutSubscription } from '../domain/subscriptions/pay.ts';
import { currentPeriod, isPayable } from '../domain/subscriptions/view.ts';
import type { PageRequest } from './page-request.ts';
import { displayDateTime, escape, pageLanguage, renderJson, renderCheckoutNotFound, renderPage, seeOther } from './html.ts';
import { workspacePage } from './brand.ts';
import { pathOf, readForm } from './forms.ts';
import { renderSinglePaymentCard, cardForm, cardFormErrors, readCardForm, renderCardPage, CHECKOUT_STYLE, type FieldErrors, type KeptCard } from './card-form.ts';


interface PageState {
  /** In an embedded checkout's frame: no cancel link (the merchant's overlay closes it). */
  framed?: boolean;
  notice?: string | null;
  fields?: FieldErrors;
  keep?: KeptCard;
  status?: number;
}


export async function showSubscriptionCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<void> {
  const lang = pageLanguage(req);
  const sub = await findCheckoutSubscription(s, token);
  if (!sub) return renderCheckoutNotFound(res, lang);
  // Back from a failed 3D step: say why, and offer the form again.
  const attempt = new URL(req.url ?? '/', 'http://gateway').searchParams.get('attempt');
  let notice: string | null = null;
  if (attempt && isPayable(sub)) {
    const failed = await failedAttempt(s, sub, attempt);
    if (failed) notice = message('page_payment_failed', lang, { reason: shopperFailureReason(failed.errorCode, lang) });
  }
  renderSubscription(s, res, lang, sub, { notice, framed: page.framed });
}

export async function submitSubscriptionCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<void> {
  const lang = pageLanguage(req);
  const sub = await findCheckoutSubscription(s, token);
  if (!sub) return renderCheckoutNotFound(res, lang);
  // A period is paid in one payment: the form has no installment choice.
  const { keep, card } = readCardForm(await readForm(req));
  try {
    const outcome = await paySubscription(s, sub, { card, ip: page.ip });
    if (outcome.kind === 'redirect') {
      // To the 3D page on this gateway (same origin, so form-action 'self' allows it), which sends the shopper on to the bank.
      return seeOther(res, pathOf(outcome.url), sub.workspace.embedOrigins);
    }
    const fresh = (await findCheckoutSubscription(s, token)) ?? sub;
    const notice = message('page_payment_failed', lang, { reason: shopperFailureReason(outcome.code, lang) });
    renderSubscription(s, res, lang, fresh, { notice, keep, status: 200, framed: page.framed });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const fresh = (await findCheckoutSubscription(s, token)) ?? sub;
    if (!isPayable(fresh)) return renderSubscription(s, res, lang, fresh, { framed: page.framed });
    const { fields, notice } = cardFormErrors(err.issues, card, lang);
    renderSubscription(s, res, lang, fresh, { notice, fields, keep, status: err.kind === 'validation' ? 422 : 409, framed: page.framed });
  }
}

/** GET …/installments?bin=<6-8 digits>: the card's description for the form (never installments). */
export async function subscriptionCardJson(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const sub = await findCheckoutSubscription(s, token);
  if (!sub || !isPayable(sub)) return renderJson(res, 404, { installments: [], message: message(sub ? notPayableReason(sub) : 'subscription_not_found', lang) });
  await renderSinglePaymentCard(s, sub.workspace, req, res, lang);
}

function renderSummary(sub: CheckoutSubscription, lang: Language): string {
  const t = (code: MessageCode, params?: Record<string, string | number>) => escape(message(code, lang, params));
  const period = currentPeriod(sub);
  const items = sub.items
    .map((item) => `<li><div><div class="name">${escape(item.product.name)}</div><div class="meta">× ${item.quantity}</div></div></li>`)
    .join('');
  const when = (at: Date) => displayDateTime(at, sub.workspace.timeZone, lang);
  const dates =
    sub.status === 'past_due' && period.startsAt && period.endsAt
      ? `<p class="note">${t('page_subscription_past_due', { from: when(period.startsAt), to: when(period.endsAt) })}</p>`
      : sub.status === 'pending'
        ? `<p class="note">${t('page_subscription_first_period')}</p>`
        : '';
  return `<div class="card"><div class="brand">${escape(sub.workspace.name)}</div><h1>${t('page_subscription_summary')}</h1>
    <ul class="items">${items}</ul>
    <dl class="totals">
      <dt>${t('page_subscription_billing')}</dt><dd id="subscription-period">${t(sub.period === 'monthly' ? 'page_subscription_monthly' : 'page_subscription_yearly')}</dd>
      <dt class="grand">${t('page_subscription_this_period')}</dt><dd class="grand" id="period-amount">${escape(displayMoney(period.amount, sub.currency, lang))}</dd>
    </dl>${dates}</div>`;
}

function renderSubscription(s: Services, res: ServerResponse, lang: Language, sub: CheckoutSubscription, state: PageState): void {
  const t = (code: MessageCode, params?: Record<string, string | number>) => escape(message(code, lang, params));
  const summary = renderSummary(sub, lang);
  const timeZone = sub.workspace.timeZone;

  if (!isPayable(sub)) {
    const period = currentPeriod(sub);
    const reason =
      sub.status === 'active' && !sub.cancelledAt && period.endsAt
        ? t('page_subscription_active_until', { to: displayDateTime(period.endsAt, timeZone, lang) })
        : t(notPayableReason(sub));
    return renderPage(res, {
      lang,
      ...workspacePage(sub.workspace),
      title: message('page_subscription_closed_title', lang),
      style: CHECKOUT_STYLE,
      body: `<div class="layout">${summary}<div class="card"><h1>${t('page_subscription_closed_title')}</h1>
        <p class="closed" role="status">${reason}</p></div></div>`,
    });
  }

  const form = cardForm({
    lang,
    amount: currentPeriod(sub).amount,
    currency: sub.currency,
    binUrl: `/checkout/subscription/${sub.id}/installments`,
    installments: false,
    singlePayment: true,
    now: s.clock.now(),
    timeZone,
    notice: state.notice,
    errors: state.fields,
    keep: state.keep,
  });
  renderCardPage(res, { lang, status: state.status, merchant: sub.workspace.name, testMode: sub.workspace.mode === 'test', style: CHECKOUT_STYLE, summary, form, cancelUrl: state.framed ? null : sub.cancelUrl, look: workspacePage(sub.workspace) });
}
