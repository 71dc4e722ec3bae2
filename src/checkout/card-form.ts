// The card form of every hosted page (the order page; the subscription and link pages reuse it):
// one set of field names, one markup, one client script and one JSON shape for the installment
// options, so pages differ only in what surrounds the form. Card data travels only in the form's
// POST body; the number and the security code are never written back into a page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError, type Issue } from '../domain/errors.ts';
import type { Workspace } from '../generated/prisma/client.ts';
import type { Services } from '../domain/services.ts';
import { pageBinLookup } from '../domain/payments/card-source.ts';
import type { BinInfo, InstallmentOption } from '../providers/types.ts';
import { message, type Language } from '../domain/messages.ts';
import { displayMoney, type Currency } from '../domain/money.ts';
import { escape, renderJson, renderPage, type Page } from './html.ts';

export type CardField = 'holder_name' | 'number' | 'expiry' | 'security_code' | 'installment_number';
export type FieldErrors = Partial<Record<CardField, string>>;

/** What the customer typed that may be shown again (never the number or the security code). */
export interface KeptCard {
  holderName?: string;
  expiryMonth?: string;
  expiryYear?: string;
}

export interface CardFormOptions {
  lang: Language;
  /** What a single payment charges: the first installment option and the pay button; null when the payer decides it on the page. */
  amount: bigint | null;
  currency: Currency | string;
  /** Where the script asks for the card's data and installment options of a BIN (`?bin=`). */
  binUrl: string;
  /** False where installments cannot exist (not TRY): the script then only names the card. */
  installments: boolean;
  /** One payment only (a subscription period, a link): no installment choice at all. */
  singlePayment?: boolean;
  /** Fields of the page's own placed in the form before the card (a link's payer and amount). */
  before?: string;
  /** The expiry years start at this year in the workspace's time zone. */
  now: Date;
  timeZone: string;
  /** Shown above the form (a failed payment, a refused request). */
  notice?: string | null;
  errors?: FieldErrors;
  keep?: KeptCard;
}

export interface CardFormView {
  html: string;
  style: string;
  script: string;
}

const STYLE = `
  .row{display:grid;grid-template-columns:1fr 1fr 1fr;gap:8px}
  .field-error{color:#b42318;font-size:.85rem;margin:4px 0 0}
  .notice{border-left:4px solid #b42318;background:#fef3f2;padding:10px 12px;border-radius:6px}
  button[disabled]{opacity:.6;cursor:progress}
  input,select{min-height:46px;background:#fff}
`;

export function cardForm(o: CardFormOptions): CardFormView {
  const t = (code: Parameters<typeof message>[0], params?: Record<string, string | number>) => escape(message(code, o.lang, params));
  const errors = o.errors ?? {};
  const keep = o.keep ?? {};
  const err = (name: CardField) => (errors[name] ? `<p class="field-error" id="${name}-error">${escape(errors[name])}</p>` : '');
  const invalid = (name: CardField) => (errors[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : '');
  const option = (value: string, selected: string | undefined) => `<option value="${value}"${value === selected ? ' selected' : ''}>${value}</option>`;
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
  const firstYear = Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: o.timeZone }).format(o.now));
  const years = Array.from({ length: 16 }, (_, i) => String(firstYear + i));
  const amount = o.amount === null ? '' : escape(displayMoney(o.amount, o.currency, o.lang));
  const installments = o.singlePayment
    ? '<input type="hidden" name="installment_number" value="1">'
    : `<label for="installment_number">${t('page_installments')}</label>
      <select id="installment_number" name="installment_number"${invalid('installment_number')}>
        <option value="1" data-total="${amount}">${t('page_installment_single', { total: amount })}</option>
      </select>
      <p class="muted" id="installment-hint">${t(o.installments ? 'page_installments_after_number' : 'page_installments_not_in_currency')}</p>
      ${err('installment_number')}`;

  const html = `${o.notice ? `<p class="notice" role="alert" id="notice">${escape(o.notice)}</p><p class="muted">${t('page_retry_hint')}</p>` : ''}
    <form method="post" id="pay" autocomplete="on" novalidate>${o.before ?? ''}
      <label for="holder_name">${t('page_card_holder_name')}</label>
      <input id="holder_name" name="holder_name" autocomplete="cc-name" maxlength="255" required value="${escape(keep.holderName ?? '')}"${invalid('holder_name')}>
      ${err('holder_name')}
      <label for="number">${t('page_card_number')}</label>
      <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="0000 0000 0000 0000" required${invalid('number')}>
      <div class="brand" id="card-brand" aria-live="polite"></div>
      ${err('number')}
      <div class="row">
        <div><label for="expiry_month">${t('page_card_expiry_month')}</label>
          <select id="expiry_month" name="expiry_month" autocomplete="cc-exp-month"${invalid('expiry')}><option value="">${t('page_card_expiry_month_placeholder')}</option>${months.map((m) => option(m, keep.expiryMonth)).join('')}</select></div>
        <div><label for="expiry_year">${t('page_card_expiry_year')}</label>
          <select id="expiry_year" name="expiry_year" autocomplete="cc-exp-year"${invalid('expiry')}><option value="">${t('page_card_expiry_year_placeholder')}</option>${years.map((y) => option(y, keep.expiryYear)).join('')}</select></div>
        <div><label for="security_code">${t('page_card_security_code')}</label>
          <input id="security_code" name="security_code" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required${invalid('security_code')}></div>
      </div>
      ${err('expiry')}${err('security_code')}
      ${installments}
      <button class="primary" type="submit" id="pay-button">${t('page_pay')} <span id="pay-amount">${amount}</span></button>
      <p class="muted">${t('page_three_ds_hint')}</p>
    </form>`;
  return { html, style: STYLE, script: script(o) };
}

// Groups the number in fours as it is typed, asks for the installment options of its BIN (only
// the first 6-8 digits leave the page), checks the card at submit as the gateway would (a number
// failing the Luhn check is mistyped: the gateway would refuse it anyway, as a failed payment),
// clears a field's error as the shopper corrects it, and stops a second submit. Texts arrive as
// JSON string literals, so no catalog text can break out of the script.
function script(o: CardFormOptions): string {
  const text = (code: Parameters<typeof message>[0]) => jsString(message(code, o.lang));
  return `
(function(){
  var number=document.getElementById('number'),select=document.getElementById('installment_number'),
      hint=document.getElementById('installment-hint'),brand=document.getElementById('card-brand'),
      amount=document.getElementById('pay-amount'),form=document.getElementById('pay'),button=document.getElementById('pay-button');
  var single=select?select.options[0].cloneNode(true):null,asked='',useInstallments=${o.installments && !o.singlePayment ? 'true' : 'false'};
  var choose=${text('page_installments_choose')},noneForCard=${text('page_installments_none_for_card')};
  function reset(){if(!select)return;select.innerHTML='';select.appendChild(single.cloneNode(true));amount.textContent=single.dataset.total;}
  function show(list){
    var keep=select.value;select.innerHTML='';
    list.forEach(function(o){var el=document.createElement('option');el.value=String(o.number);el.textContent=o.label;el.dataset.total=o.total;select.appendChild(el);});
    if(!list.length){reset();return;}
    select.value=keep;if(select.selectedIndex<0)select.selectedIndex=0;
    amount.textContent=select.options[select.selectedIndex].dataset.total;
  }
  number.addEventListener('input',function(){
    var digits=number.value.replace(/\\D/g,'').slice(0,19);
    var grouped=digits.replace(/(\\d{4})(?=\\d)/g,'$1 ');
    if(grouped!==number.value)number.value=grouped;
    var bin=digits.length>=8?digits.slice(0,8):digits.length>=6?digits.slice(0,6):'';
    if(bin===asked)return;asked=bin;
    if(!bin){reset();brand.textContent='';return;}
    var url=${jsString(o.binUrl)}+'?bin='+encodeURIComponent(bin);
    fetch(url,{headers:{Accept:'application/json'},credentials:'same-origin'}).then(function(r){return r.json();}).then(function(data){
      if(bin!==asked)return;
      var c=data.card||{};brand.textContent=[c.scheme,c.type,c.issuer_name].filter(Boolean).join(' · ');
      if(useInstallments){show(data.installments||[]);hint.textContent=(data.installments||[]).length>1?choose:noneForCard;}
    }).catch(function(){if(bin===asked)reset();});
  });
  if(select)select.addEventListener('change',function(){var o=select.options[select.selectedIndex];if(o)amount.textContent=o.dataset.total;});
  function luhn(d){var sum=0;for(var i=0;i<d.length;i++){var n=+d.charAt(d.length-1-i);if(i%2){n*=2;if(n>9)n-=9;}sum+=n;}return d.length>0&&sum%10===0;}
  // Field errors, the server's and these, by the key the page gives them: each has its message
  // (<key>-error) after its field(s), and goes as soon as the shopper changes the field.
  var el=function(id){return document.getElementById(id);};
  var fields={holder_name:[el('holder_name')],number:[number],expiry:[el('expiry_month'),el('expiry_year')],security_code:[el('security_code')]};
  var after={holder_name:el('holder_name'),number:brand,expiry:el('security_code').closest('.row'),security_code:el('security_code').closest('.row')};
  function clearError(key){
    var shown=el(key+'-error');if(shown)shown.remove();
    fields[key].forEach(function(f){f.removeAttribute('aria-invalid');f.removeAttribute('aria-describedby');});
  }
  function setError(key,text){
    var shown=el(key+'-error');
    if(!shown){shown=document.createElement('p');shown.className='field-error';shown.id=key+'-error';(key==='security_code'&&el('expiry-error')||after[key]).insertAdjacentElement('afterend',shown);}
    shown.textContent=text;
    fields[key].forEach(function(f){f.setAttribute('aria-invalid','true');f.setAttribute('aria-describedby',key+'-error');});
  }
  Object.keys(fields).forEach(function(key){fields[key].forEach(function(f){
    f.addEventListener('input',function(){clearError(key);});f.addEventListener('change',function(){clearError(key);});
  });});
  // The server's checks (a name, a number of 12-19 digits passing the Luhn check, an expiry that
  // has not passed, a 3-4 digit code), in the shopper's words, before the card leaves the page.
  function problems(){
    var found=[],digits=number.value.replace(/\\D/g,''),m=+el('expiry_month').value,y=+el('expiry_year').value,now=new Date();
    if(!el('holder_name').value.trim())found.push(['holder_name',${text('page_enter_holder_name')}]);
    if(!digits)found.push(['number',${text('page_enter_card_number')}]);
    else if(digits.length<12||digits.length>19||!luhn(digits))found.push(['number',${text('page_card_number_mistyped')}]);
    if(!m||!y)found.push(['expiry',${text('page_choose_expiry')}]);
    else if(y<now.getFullYear()||(y===now.getFullYear()&&m<now.getMonth()+1))found.push(['expiry',${text('page_expiry_passed')}]);
    if(!/^\\d{3,4}$/.test(el('security_code').value.trim()))found.push(['security_code',${text('page_enter_security_code')}]);
    return found;
  }
  form.addEventListener('submit',function(e){
    if(button.disabled){e.preventDefault();return;}
    var found=problems();
    if(found.length){
      e.preventDefault();
      found.forEach(function(p){setError(p[0],p[1]);});
      fields[found[0][0]][0].focus();
      return;
    }
    button.disabled=true;
  });
})();`;
}

/** A JS string literal that is also safe inside an inline <script> (no `</script>` or `<!--`). */
function jsString(value: string): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The card fields of a submitted form as the domain's payment input reads them. */
export function readCardForm(form: URLSearchParams): { card: { holderName: string; number: string; securityCode: string; expiryMonth: string; expiryYear: string }; installmentNumber: number; keep: KeptCard } {
  const field = (name: string) => form.get(name) ?? '';
  const installment = field('installment_number');
  const card = {
    holderName: field('holder_name').trim(),
    // Spaces and dashes are how people type card numbers; the bank gets the digits.
    number: field('number').replace(/[\s-]/g, ''),
    securityCode: field('security_code').trim(),
    expiryMonth: field('expiry_month'),
    expiryYear: field('expiry_year'),
  };
  return {
    card,
    installmentNumber: installment === '' ? 1 : Number(installment),
    keep: { holderName: card.holderName, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
  };
}

const FIELD_OF_PATH: Readonly<Record<string, CardField>> = {
  'card.holderName': 'holder_name',
  'card.number': 'number',
  'card.expiryMonth': 'expiry',
  'card.expiryYear': 'expiry',
  'card.securityCode': 'security_code',
  installmentNumber: 'installment_number',
};

/**
 * What a shopper reads beside a card field the gateway refused: what to do, in the words the
 * page's own script uses ("Enter your card number"), not the API's rule ("12 to 19 characters").
 */
function shopperWords(name: CardField, issue: Issue, card: SubmittedCard, lang: Language): string {
  switch (name) {
    case 'holder_name':
      return message('page_enter_holder_name', lang);
    case 'number':
      return message(card.number === '' ? 'page_enter_card_number' : 'page_card_number_mistyped', lang);
    case 'expiry':
      return message(card.expiryMonth === '' || card.expiryYear === '' ? 'page_choose_expiry' : 'page_expiry_passed', lang);
    case 'security_code':
      return message('page_enter_security_code', lang);
    case 'installment_number':
      return message(issue.code, lang, issue.params);
  }
}

/** Domain issues as messages beside their fields; the rest (and a hint when only fields failed) as the notice. */
type SubmittedCard = ReturnType<typeof readCardForm>['card'];

export function cardFormErrors(issues: Issue[], card: SubmittedCard, lang: Language): { fields: FieldErrors; notice: string | null } {
  const fields: FieldErrors = {};
  const general: string[] = [];
  for (const issue of issues) {
    const name = FIELD_OF_PATH[issue.path.join('.')];
    if (name) fields[name] ??= shopperWords(name, issue, card, lang);
    else general.push(message(issue.code, lang, issue.params));
  }
  const notice = general.length > 0 ? general.join(' ') : Object.keys(fields).length > 0 ? message('page_check_card', lang) : null;
  return { fields, notice };
}

/**
 * GET …/installments?bin=<6-8 digits> of a single-payment page (link, subscription): the card's
 * description and no installment options, or the lookup's rule broken as a 422 message.
 */
export async function renderSinglePaymentCard(s: Services, workspace: Workspace, req: IncomingMessage, res: ServerResponse, lang: Language): Promise<void> {
  const bin = new URL(req.url ?? '/', 'http://gateway').searchParams.get('bin') ?? '';
  try {
    renderJson(res, 200, installmentsBody(await pageBinLookup(s, workspace, bin), [], lang));
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    renderJson(res, 422, { installments: [], message: message(err.issues[0]!.code, lang, err.issues[0]!.params) });
  }
}

/** The installments endpoint's answer, which the card form's script reads. */
export function installmentsBody(card: BinInfo, options: InstallmentOption[], lang: Language) {
  // The domain quotes installments only for TRY charges.
  const money = (minor: bigint) => displayMoney(minor, 'TRY', lang);
  return {
    card: { scheme: card.scheme, type: card.type, issuer_name: card.issuerName, program: card.program },
    installments: options.map((o) => ({
      number: o.number,
      total: money(o.total),
      label:
        o.number === 1
          ? message('page_installment_single', lang, { total: money(o.total) })
          : message('page_installment_option', lang, { count: o.number, amount: money(o.amount), total: money(o.total) }),
    })),
  };
}

const TEST_MODE_STYLE = '.test-mode{margin:0 0 12px;padding:8px 12px;border-radius:6px;background:#fffaeb;border:1px solid #b54708;color:#7a2e0e;font-weight:600;text-align:center}';

/** A checkout page while it takes a card: what is paid for beside the card form (order, subscription and link pages). */
export function renderCardPage(
  res: ServerResponse,
  p: { lang: Language; status?: number; merchant: string; testMode: boolean; style: string; summary: string; form: CardFormView; cancelUrl?: string | null; look: Pick<Page, 'brand' | 'frameAncestors'> },
): void {
  const t = (code: Parameters<typeof message>[0]) => escape(message(code, p.lang));
  const cancel = p.cancelUrl ? `<a class="cancel" href="${escape(p.cancelUrl)}" rel="noopener">${t('page_cancel_link')}</a>` : '';
  // A test workspace's page says so first, so nobody types a real card into it by mistake.
  const banner = p.testMode ? `<p class="test-mode" role="note" id="test-mode">${t('page_test_mode')}</p>` : '';
  renderPage(res, {
    lang: p.lang,
    ...p.look,
    status: p.status,
    title: message('page_checkout_title', p.lang, { merchant: p.merchant }),
    style: p.style + p.form.style + (p.testMode ? TEST_MODE_STYLE : ''),
    body: `${banner}<div class="layout">${p.summary}<div class="card"><h1>${t('page_pay_by_card')}</h1>${p.form.html}${cancel}</div></div>`,
    script: p.form.script,
  });
}

/** What every checkout page shows beside its card form: the items, the totals, notes, a paid notice, the two-column layout. */
export const CHECKOUT_STYLE = `
  .items{list-style:none;margin:0;padding:0}.items li{display:flex;justify-content:space-between;gap:12px;padding:10px 0;border-bottom:1px solid #eee}
  .items .name{font-weight:600;overflow-wrap:anywhere}.items .meta{font-size:.85rem;color:#667}.items .line{white-space:nowrap;text-align:right}
  .totals{margin:12px 0 0;display:grid;grid-template-columns:1fr auto;gap:4px 12px}.totals dt{color:#667}.totals dd{margin:0;text-align:right;white-space:nowrap}
  .totals .grand{font-weight:700;font-size:1.1rem;color:#1f2430}
  .desc{overflow-wrap:anywhere;white-space:pre-line}.note{font-size:.9rem;color:#475467}
  .paid,.closed{border-left:4px solid #067647;background:#ecfdf3;padding:10px 12px;border-radius:6px}
  a.cancel{display:block;text-align:center;margin-top:12px;color:#475467}
  @media (min-width:760px){main{max-width:920px}.layout{display:grid;grid-template-columns:1fr 1fr;gap:16px;align-items:start}}
`;
