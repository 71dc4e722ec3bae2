// The hosted page of a payment link (payment_link.checkout_url): what the link sells (a fixed
// link's items and total, or the payer's amount: typed, offered, or either), the payer's name and
// e-mail, a currency picker for selectable links, the shared card form, then 3D Secure. After the
// 3D step the payer comes back to /checkout/link/payment/<paymentId>, which shows the receipt or
// why the payment failed. Every rule (amount limits, VAT, offered currencies) is the domain's
// (payment-links/pay.ts); this page only translates the form, in the payer's language.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import type { Issue } from '../domain/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { message, type Language, type MessageCode } from '../domain/messages.ts';
import { displayMoney, displayPercent, formatAmount } from '../domain/money.ts';
import { shopperFailureReason } from '../domain/payments/view.ts';
import { findCheckoutLink, findLinkAttempt, payLink, type CheckoutLink } from '../domain/payment-links/pay.ts';
import { isPayable } from '../domain/payment-links/view.ts';
import { lineAmounts, orderTotals } from '../domain/orders/view.ts';
import type { PageRequest } from './page-request.ts';
import { escape, pageLanguage, renderJson, renderCheckoutNotFound, renderPage, seeOther } from './html.ts';
import { workspacePage } from './brand.ts';
import { pathOf, readForm } from './forms.ts';
import { renderSinglePaymentCard, cardForm, cardFormErrors, readCardForm, renderCardPage, CHECKOUT_STYLE, type FieldErrors, type KeptCard } from './card-form.ts';

// The link's own: the payer's fieldset and the amount choices.
const STYLE = CHECKOUT_STYLE + `
  fieldset{border:0;padding:0;margin:0 0 12px}legend{font-weight:600;margin-bottom:6px}
  .choices label{display:flex;align-items:center;gap:8px;font-weight:400;margin:4px 0}.choices input{min-height:auto;width:auto}
`;

/** Fields of the link's own part of the form (the card fields are the card form's). */
type LinkField = 'firstname' | 'lastname' | 'email' | 'amount' | 'currency';

interface Typed {
  firstname: string;
  lastname: string;
  email: string;
  amount: string;
  choice: string;
  currency: string;
}

interface PageState {
  notice?: string | null;
  fields?: FieldErrors;
  linkFields?: Partial<Record<LinkField, string>>;
  keep?: KeptCard;
  typed?: Partial<Typed>;
  status?: number;
}

const LINK_FIELD_OF_PATH: Readonly<Record<string, LinkField>> = {
  'payer.firstname': 'firstname',
  'payer.lastname': 'lastname',
  'payer.email': 'email',
  amount: 'amount',
  currency: 'currency',
};


export async function showLinkCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const link = await findCheckoutLink(s, token);
  if (!link) return renderCheckoutNotFound(res, lang);
  renderLink(s, res, lang, link, {});
}

export async function submitLinkCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<void> {
  const lang = pageLanguage(req);
  const link = await findCheckoutLink(s, token);
  if (!link) return renderCheckoutNotFound(res, lang);
  const form = await readForm(req);
  const { keep, card } = readCardForm(form);
  const typed = readTyped(form);
  try {
    const outcome = await payLink(s, link, {
      card,
      installmentNumber: 1,
      ip: page.ip,
      payer: { firstname: typed.firstname, lastname: typed.lastname, email: typed.email },
      amount: link.amountType === 'fixed' ? null : chosenAmount(typed),
      currency: link.currencyType === 'selectable' ? typed.currency || null : null,
    });
    if (outcome.kind === 'redirect') return seeOther(res, pathOf(outcome.url), link.workspace.embedOrigins);
    const notice = message('page_payment_failed', lang, { reason: shopperFailureReason(outcome.code, lang) });
    renderLink(s, res, lang, link, { notice, keep, typed, status: 200 });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const { linkFields, rest } = splitIssues(err.issues, lang);
    const { fields, notice } = cardFormErrors(rest, card, lang);
    const hint = notice ?? (Object.keys(linkFields).length > 0 ? message('page_check_card', lang) : null);
    renderLink(s, res, lang, link, { notice: hint, fields, linkFields, keep, typed, status: err.kind === 'validation' ? 422 : 409 });
  }
}

/** GET …/installments?bin=<6-8 digits>: the card's description for the form (links take one payment). */
export async function linkCardJson(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const link = await findCheckoutLink(s, token);
  if (!link || !isPayable(link, link.workspace, s.clock.now())) return renderJson(res, 404, { installments: [], message: message(link ? 'link_not_payable' : 'link_not_found', lang) });
  await renderSinglePaymentCard(s, link.workspace, req, res, lang);
}

/** /checkout/link/payment/<paymentId>: where the 3D step returns the payer. */
export async function showLinkPayment(s: Services, paymentId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const t = (code: MessageCode, params?: Record<string, string | number>) => escape(message(code, lang, params));
  const payment = await findLinkAttempt(s, paymentId);
  const lp = payment?.linkPayment;
  if (!payment || !lp) return renderCheckoutNotFound(res, lang);
  const link = await findCheckoutLink(s, lp.linkId);
  const look = link ? workspacePage(link.workspace) : {};
  if (payment.status === 'successful') {
    const receipt = link?.emailsCustomer && lp.payerEmail ? `<p class="note">${t('page_link_receipt_sent', { email: lp.payerEmail })}</p>` : '';
    return renderPage(res, {
      lang,
      ...look,
      title: message('page_link_paid_title', lang),
      style: STYLE,
      body: `<div class="card"><h1>${t('page_link_paid_title')}</h1>
        <p class="paid" role="status" id="link-paid">${t('page_link_paid', { reference: lp.reference, amount: displayMoney(lp.amount, lp.currency, lang) })}</p>${receipt}</div>`,
    });
  }
  const pending = payment.status === 'started' || payment.status === 'unresolved';
  const reason = pending ? t('page_link_pending') : escape(message('page_payment_failed', lang, { reason: shopperFailureReason(payment.errorCode, lang) }));
  renderPage(res, {
    lang,
    ...look,
    title: message(pending ? 'page_link_pending' : 'page_payment_not_completed', lang),
    style: STYLE,
    body: `<div class="card"><h1>${t(pending ? 'page_link_pending' : 'page_payment_not_completed')}</h1>
      <p class="notice" role="alert" id="notice">${reason}</p>
      <p><a href="/checkout/link/${escape(lp.linkId)}">${t('page_link_try_again')}</a></p></div>`,
  });
}

function readTyped(form: URLSearchParams): Typed {
  const field = (name: string) => (form.get(name) ?? '').trim();
  return { firstname: field('firstname'), lastname: field('lastname'), email: field('email'), amount: field('amount'), choice: field('amount_choice'), currency: field('currency') };
}

/** An offered amount chosen, else the typed one; a decimal comma is how Turkish payers type it. */
function chosenAmount(typed: Typed): string | null {
  if (typed.choice && typed.choice !== 'other') return typed.choice;
  return typed.amount === '' ? null : typed.amount.replace(',', '.');
}

function splitIssues(issues: Issue[], lang: Language): { linkFields: Partial<Record<LinkField, string>>; rest: Issue[] } {
  const linkFields: Partial<Record<LinkField, string>> = {};
  const rest: Issue[] = [];
  for (const issue of issues) {
    const name = LINK_FIELD_OF_PATH[issue.path.join('.')];
    if (name) linkFields[name] ??= message(issue.code, lang, issue.params);
    else rest.push(issue);
  }
  return { linkFields, rest };
}

function renderSummary(link: CheckoutLink, lang: Language): string {
  const money = (minor: bigint) => escape(displayMoney(minor, link.currency, lang));
  const t = (code: MessageCode, params?: Record<string, string | number>) => escape(message(code, lang, params));
  const head = `<div class="brand">${escape(link.workspace.name)}</div>${link.description ? `<p class="desc">${escape(link.description)}</p>` : ''}`;
  if (link.amountType !== 'fixed') {
    const vat = link.taxRate ? `<p class="note" id="link-vat">${t(link.taxMode === 'exclusive' ? 'page_link_vat_exclusive' : 'page_link_vat_inclusive', { rate: displayPercent(link.taxRate, lang) })}</p>` : '';
    return `<div class="card">${head}<h1 class="name">${escape(link.itemName ?? '')}</h1>${vat}</div>`;
  }
  const totals = orderTotals(link.items);
  const items = link.items
    .map((item) => {
      const vat = item.taxRate === null ? '' : ` · ${t('page_vat')} ${escape(displayPercent(item.taxRate, lang))}`;
      return `<li><div><div class="name">${escape(item.name)}</div><div class="meta">${item.quantity} × ${money(item.unitAmount)}${vat}</div></div>
        <div class="line">${money(lineAmounts(item).total)}</div></li>`;
    })
    .join('');
  return `<div class="card">${head}<ul class="items">${items}</ul>
    <dl class="totals">
      <dt>${t('page_subtotal')}</dt><dd>${money(totals.subtotal)}</dd>
      <dt>${t('page_vat')}</dt><dd>${money(totals.taxAmount)}</dd>
      <dt class="grand">${t('page_total')}</dt><dd class="grand" id="link-total">${money(totals.amount)}</dd>
    </dl></div>`;
}

/** The payer's part of the form: name and e-mail, the amount where the payer decides it, the currency where offered. */
function payerFields(link: CheckoutLink, lang: Language, state: PageState): string {
  const t = (code: MessageCode) => escape(message(code, lang));
  const typed = state.typed ?? {};
  const errors = state.linkFields ?? {};
  const err = (name: LinkField) => (errors[name] ? `<p class="field-error" id="${name}-error">${escape(errors[name])}</p>` : '');
  const invalid = (name: LinkField) => (errors[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : '');
  const input = (name: 'firstname' | 'lastname' | 'email', label: MessageCode, type: string, autocomplete: string) =>
    `<label for="${name}">${t(label)}</label><input id="${name}" name="${name}" type="${type}" autocomplete="${autocomplete}" required value="${escape(typed[name] ?? '')}"${invalid(name)}>${err(name)}`;
  const offered = link.amountType === 'predefined' || link.amountType === 'predefined_and_custom' ? link.predefinedAmounts : [];
  const typedAllowed = link.amountType === 'custom' || link.amountType === 'predefined_and_custom';
  let amount = '';
  if (link.amountType !== 'fixed') {
    const radios = offered.map((minor, i) => {
      const value = formatAmount(minor);
      const checked = typed.choice ? typed.choice === value : i === 0;
      return `<label><input type="radio" name="amount_choice" value="${value}"${checked ? ' checked' : ''}> ${escape(displayMoney(minor, link.currency, lang))}</label>`;
    });
    if (offered.length > 0 && typedAllowed) radios.push(`<label><input type="radio" name="amount_choice" value="other"${typed.choice === 'other' ? ' checked' : ''}> ${t('page_link_amount_other')}</label>`);
    const box = typedAllowed
      ? `<input id="amount" name="amount" inputmode="decimal" autocomplete="off" placeholder="0,00" aria-describedby="amount-hint" value="${escape(typed.amount ?? '')}"${invalid('amount')}><p class="note" id="amount-hint">${t('page_link_amount_hint')}</p>`
      : '';
    amount = `<fieldset><legend>${t('page_link_amount')}</legend><div class="choices">${radios.join('')}</div>${box}${err('amount')}</fieldset>`;
  }
  const currencies = link.currencyType === 'selectable' ? [link.currency, ...link.currencies.filter((c) => c !== link.currency)] : [];
  const currency = currencies.length
    ? `<label for="currency">${t('page_link_currency')}</label><select id="currency" name="currency"${invalid('currency')}>${currencies
        .map((c) => `<option value="${c}"${(typed.currency || link.currency) === c ? ' selected' : ''}>${c}</option>`)
        .join('')}</select>${err('currency')}`
    : '';
  return `<fieldset><legend>${t('page_link_payer')}</legend>${input('firstname', 'page_link_firstname', 'text', 'given-name')}${input('lastname', 'page_link_lastname', 'text', 'family-name')}${input('email', 'page_link_email', 'email', 'email')}</fieldset>${amount}${currency}`;
}

function renderLink(s: Services, res: ServerResponse, lang: Language, link: CheckoutLink, state: PageState): void {
  const t = (code: MessageCode) => escape(message(code, lang));
  const summary = renderSummary(link, lang);
  if (!isPayable(link, link.workspace, s.clock.now())) {
    return renderPage(res, {
      lang,
      ...workspacePage(link.workspace),
      status: 410,
      title: message('page_link_closed_title', lang),
      style: STYLE,
      body: `<div class="layout">${summary}<div class="card"><h1>${t('page_link_closed_title')}</h1><p class="notice" role="status">${t('link_not_payable')}</p></div></div>`,
    });
  }
  const fixedAmount = link.amountType === 'fixed' ? orderTotals(link.items).amount : null;
  const form = cardForm({
    lang,
    // The pay button names the fixed total; where the payer decides, it shows no amount.
    amount: fixedAmount,
    currency: link.currency,
    binUrl: `/checkout/link/${link.id}/installments`,
    installments: false,
    singlePayment: true,
    before: payerFields(link, lang, state),
    now: s.clock.now(),
    timeZone: link.workspace.timeZone,
    notice: state.notice,
    errors: state.fields,
    keep: state.keep,
  });
  renderCardPage(res, { lang, status: state.status, merchant: link.workspace.name, testMode: link.workspace.mode === 'test', style: STYLE, summary, form, look: workspacePage(link.workspace) });
}
