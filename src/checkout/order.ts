// The hosted checkout page of an order (order.checkout_url): the merchant's description, the
// items with VAT and total, the shared card form with installment options from the BIN, then
// 3D Secure. Merchant texts are escaped; every text of ours comes from the message catalog in the
// shopper's language, and local times are the workspace's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import { DomainError } from '../domain/errors.ts';
import { message, type Language } from '../domain/messages.ts';
import { displayMoney, displayPercent } from '../domain/money.ts';
import { shopperFailureReason } from '../domain/payments/view.ts';
import { failedAttempt, findCheckoutOrder, orderInstallments, payOrder, type CheckoutOrder } from '../domain/orders/pay.ts';
import { lineAmounts, orderTotals } from '../domain/orders/view.ts';
import type { PageRequest } from './page-request.ts';
import { displayDateTime, escape, pageLanguage, renderJson, renderCheckoutNotFound, renderPage, seeOther } from './html.ts';
import { workspacePage } from './brand.ts';
import { pathOf, readForm } from './forms.ts';
import { cardForm, cardFormErrors, installmentsBody, readCardForm, renderCardPage, CHECKOUT_STYLE, type FieldErrors, type KeptCard } from './card-form.ts';


interface PageState {
  /** In an embedded checkout's frame: no cancel link (the merchant's overlay closes it). */
  framed?: boolean;
  notice?: string | null;
  fields?: FieldErrors;
  keep?: KeptCard;
  status?: number;
}


const paymentFailed = (code: string | null, lang: Language) =>
  message('page_payment_failed', lang, { reason: shopperFailureReason(code, lang) });

export async function showOrderCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<void> {
  const lang = pageLanguage(req);
  const order = await findCheckoutOrder(s, token);
  if (!order) return renderCheckoutNotFound(res, lang);
  const attempt = new URL(req.url ?? '/', 'http://gateway').searchParams.get('attempt');
  let notice: string | null = null;
  if (attempt && order.status === 'open') {
    const failed = await failedAttempt(s, order, attempt);
    if (failed) notice = paymentFailed(failed.code, lang);
  }
  renderOrder(s, res, lang, order, { notice, framed: page.framed });
}

export async function submitOrderCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<void> {
  const lang = pageLanguage(req);
  const order = await findCheckoutOrder(s, token);
  if (!order) return renderCheckoutNotFound(res, lang);
  const { keep, ...input } = readCardForm(await readForm(req));
  try {
    const outcome = await payOrder(s, order, { ...input, ip: page.ip });
    if (outcome.kind === 'redirect') {
      // To the 3D page on this gateway (same origin, so form-action 'self' allows it), which sends the shopper on to the bank.
      return seeOther(res, pathOf(outcome.url), order.workspace.embedOrigins);
    }
    const fresh = (await findCheckoutOrder(s, token)) ?? order;
    renderOrder(s, res, lang, fresh, { notice: paymentFailed(outcome.code, lang), keep, status: 200, framed: page.framed });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const fresh = (await findCheckoutOrder(s, token)) ?? order;
    if (fresh.status !== 'open') return renderOrder(s, res, lang, fresh, { framed: page.framed });
    const { fields, notice } = cardFormErrors(err.issues, input.card, lang);
    renderOrder(s, res, lang, fresh, { notice, fields, keep, status: err.kind === 'validation' ? 422 : 409, framed: page.framed });
  }
}

/** GET …/installments?bin=<6-8 digits>: the options for the card being typed (JSON). */
export async function orderInstallmentsJson(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const order = await findCheckoutOrder(s, token);
  if (!order || order.status !== 'open') return renderJson(res, 404, { installments: [], message: message(order ? 'order_already_paid' : 'order_not_found', lang) });
  const bin = new URL(req.url ?? '/', 'http://gateway').searchParams.get('bin') ?? '';
  try {
    const { card, installments } = await orderInstallments(s, order, bin);
    renderJson(res, 200, installmentsBody(card, installments, lang));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    renderJson(res, 422, { installments: [], message: message(err.issues[0]!.code, lang, err.issues[0]!.params) });
  }
}

function renderSummary(order: CheckoutOrder, lang: Language): string {
  const money = (minor: bigint) => escape(displayMoney(minor, order.currency, lang));
  const t = (code: Parameters<typeof message>[0]) => escape(message(code, lang));
  const totals = orderTotals(order.items);
  const items = order.items
    .map((item) => {
      const line = lineAmounts(item);
      const vat = item.taxRate === null ? '' : ` · ${t('page_vat')} ${escape(displayPercent(item.taxRate, lang))}`;
      return `<li><div><div class="name">${escape(item.name)}</div>
        <div class="meta">${item.quantity} × ${money(item.unitAmount)}${vat}</div></div>
        <div class="line">${money(line.total)}</div></li>`;
    })
    .join('');
  return `<div class="card"><div class="brand">${escape(order.workspace.name)}</div><h1>${t('page_order_summary')}</h1>
    ${order.description ? `<p class="desc">${escape(order.description)}</p>` : ''}
    <ul class="items">${items}</ul>
    <dl class="totals">
      <dt>${t('page_subtotal')}</dt><dd>${money(totals.subtotal)}</dd>
      <dt>${t('page_vat')}</dt><dd>${money(totals.taxAmount)}</dd>
      <dt class="grand">${t('page_total')}</dt><dd class="grand" id="order-total">${money(order.amount)}</dd>
    </dl></div>`;
}

function renderOrder(s: Services, res: ServerResponse, lang: Language, order: CheckoutOrder, state: PageState): void {
  const t = (code: Parameters<typeof message>[0], params?: Record<string, string | number>) => escape(message(code, lang, params));
  const summary = renderSummary(order, lang);
  const timeZone = order.workspace.timeZone;

  if (order.status === 'paid') {
    const paid = order.paidAt ? t('page_order_paid_at', { when: displayDateTime(order.paidAt, timeZone, lang) }) : t('page_order_paid');
    return renderPage(res, {
      lang,
      ...workspacePage(order.workspace),
      title: message('page_order_paid_title', lang),
      style: CHECKOUT_STYLE,
      body: `<div class="layout">${summary}<div class="card"><h1>${t('page_payment_received')}</h1>
        <p class="paid" role="status">${paid}</p></div></div>`,
    });
  }

  const form = cardForm({
    lang,
    amount: order.amount,
    currency: order.currency,
    binUrl: `/checkout/order/${order.id}/installments`,
    installments: order.currency === 'TRY',
    now: s.clock.now(),
    timeZone,
    notice: state.notice,
    errors: state.fields,
    keep: state.keep,
  });
  renderCardPage(res, { lang, status: state.status, merchant: order.workspace.name, testMode: order.workspace.mode === 'test', style: CHECKOUT_STYLE, summary, form, cancelUrl: state.framed ? null : order.cancelUrl, look: workspacePage(order.workspace) });
}
