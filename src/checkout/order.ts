// The hosted checkout page of an order (order.checkout_url): the merchant's description, the
// items with VAT and total, a card form with installment options from the BIN, then 3D Secure.
// Merchant texts are escaped; card data travels only in the form's POST body and is never
// written back into a page, a URL or a log.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import type { Currency } from '../domain/money.ts';
import { DomainError, type Issue } from '../domain/errors.ts';
import { message } from '../domain/messages.ts';
import { localizedError } from '../domain/payments/view.ts';
import { failedAttempt, findCheckoutOrder, orderInstallments, payOrder, type CheckoutOrder } from '../domain/orders/pay.ts';
import { lineAmounts, orderTotals } from '../domain/orders/view.ts';
import { escape, renderPage } from './html.ts';
import { readForm } from './forms.ts';

/** 1234.5 TRY as Turkish readers write it: "1.234,50 TRY". */
export function displayAmount(minor: bigint, currency: Currency | string): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole},${cents} ${currency}`;
}

function displayRate(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100);
  const rest = hundredths % 100;
  return rest === 0 ? `%${whole}` : `%${whole},${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

const STYLE = `
  .items{list-style:none;margin:0;padding:0}.items li{display:flex;justify-content:space-between;gap:12px;padding:10px 0;border-bottom:1px solid #eee}
  .items .name{font-weight:600;overflow-wrap:anywhere}.items .meta{font-size:.85rem;color:#667}.items .line{white-space:nowrap;text-align:right}
  .totals{margin:12px 0 0;display:grid;grid-template-columns:1fr auto;gap:4px 12px}.totals dt{color:#667}.totals dd{margin:0;text-align:right;white-space:nowrap}
  .totals .grand{font-weight:700;font-size:1.1rem;color:#1f2430}
  .desc{overflow-wrap:anywhere;white-space:pre-line}
  .row{display:grid;grid-template-columns:1fr 1fr 1fr;gap:8px}
  .field-error{color:#b42318;font-size:.85rem;margin:4px 0 0}
  .notice{border-left:4px solid #b42318;background:#fef3f2;padding:10px 12px;border-radius:6px}
  .paid{border-left:4px solid #067647;background:#ecfdf3;padding:10px 12px;border-radius:6px}
  .brand{font-size:.8rem;color:#667;text-transform:uppercase;letter-spacing:.04em;min-height:1.2em}
  a.cancel{display:block;text-align:center;margin-top:12px;color:#475467}
  button[disabled]{opacity:.6;cursor:progress}
  input,select{min-height:46px;background:#fff}
  @media (min-width:760px){main{max-width:920px}.layout{display:grid;grid-template-columns:1fr 1fr;gap:16px;align-items:start}}
`;

type FieldErrors = Partial<Record<'holder_name' | 'number' | 'expiry' | 'security_code' | 'installment_number', string>>;

interface PageState {
  /** Shown above the form (a failed payment, a refused request). */
  notice?: string | null;
  fields?: FieldErrors;
  /** What the customer typed that may be shown again (never the number or the security code). */
  keep?: { holderName?: string; expiryMonth?: string; expiryYear?: string };
  status?: number;
}

const notFound = (res: ServerResponse) =>
  renderPage(res, { status: 404, title: 'Bulunamadı', body: `<div class="card"><h1>Bulunamadı</h1><p class="error">Bu ödeme sayfası geçersiz.</p></div>` });

export async function showOrderCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const order = await findCheckoutOrder(s, token);
  if (!order) return notFound(res);
  const attempt = new URL(req.url ?? '/', 'http://gateway').searchParams.get('attempt');
  let notice: string | null = null;
  if (attempt && order.status === 'open') {
    const failed = await failedAttempt(s, order, attempt);
    if (failed) notice = `Ödeme alınamadı: ${localizedError(failed.code, failed.text, 'tr') ?? message('internal_error')}`;
  }
  renderOrder(s, res, order, { notice });
}

export async function submitOrderCheckout(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const order = await findCheckoutOrder(s, token);
  if (!order) return notFound(res);
  const form = await readForm(req);
  const field = (name: string) => form.get(name) ?? '';
  const installment = field('installment_number');
  const raw = {
    card: {
      holderName: field('holder_name').trim(),
      // Spaces and dashes are how people type card numbers; the bank gets the digits.
      number: field('number').replace(/[\s-]/g, ''),
      securityCode: field('security_code').trim(),
      expiryMonth: field('expiry_month'),
      expiryYear: field('expiry_year'),
    },
    installmentNumber: installment === '' ? 1 : Number(installment),
    ip: req.socket.remoteAddress ?? null,
  };
  const keep = { holderName: raw.card.holderName, expiryMonth: raw.card.expiryMonth, expiryYear: raw.card.expiryYear };
  try {
    const outcome = await payOrder(s, order, raw);
    if (outcome.kind === 'redirect') {
      // To the simulated bank page on this gateway (same origin, so form-action 'self' allows it).
      res.writeHead(303, { Location: new URL(outcome.url).pathname, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    const fresh = (await findCheckoutOrder(s, token)) ?? order;
    renderOrder(s, res, fresh, { notice: `Ödeme alınamadı: ${localizedError(outcome.code, outcome.text, 'tr')}`, keep, status: 200 });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const fresh = (await findCheckoutOrder(s, token)) ?? order;
    if (fresh.status !== 'open') return renderOrder(s, res, fresh, {});
    const { fields, notice } = formErrors(err.issues);
    renderOrder(s, res, fresh, { notice, fields, keep, status: err.kind === 'validation' ? 422 : 409 });
  }
}

/** GET …/installments?bin=<6-8 digits>: the options for the card being typed (JSON). */
export async function orderInstallmentsJson(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const order = await findCheckoutOrder(s, token);
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.end(JSON.stringify(body));
  };
  if (!order || order.status !== 'open') return json(404, { installments: [], message: message(order ? 'order_already_paid' : 'order_not_found', 'tr') });
  const bin = new URL(req.url ?? '/', 'http://gateway').searchParams.get('bin') ?? '';
  try {
    const { card, installments } = await orderInstallments(s, order, bin);
    json(200, {
      card: { scheme: card.scheme, type: card.type, issuer_name: card.issuerName, program: card.program },
      installments: installments.map((o) => ({
        number: o.number,
        total: displayAmount(o.total, 'TRY'),
        label: o.number === 1 ? `Tek çekim — ${displayAmount(o.total, 'TRY')}` : `${o.number} taksit × ${displayAmount(o.amount, 'TRY')} (toplam ${displayAmount(o.total, 'TRY')})`,
      })),
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    json(422, { installments: [], message: message(err.issues[0]!.code, 'tr', err.issues[0]!.params) });
  }
}

function formErrors(issues: Issue[]): { fields: FieldErrors; notice: string | null } {
  const fields: FieldErrors = {};
  const general: string[] = [];
  for (const issue of issues) {
    const text = message(issue.code, 'tr', issue.params);
    const key = issue.path.join('.');
    const name = (
      {
        'card.holderName': 'holder_name',
        'card.number': 'number',
        'card.expiryMonth': 'expiry',
        'card.expiryYear': 'expiry',
        'card.securityCode': 'security_code',
        installmentNumber: 'installment_number',
      } as const
    )[key];
    if (name) fields[name] ??= text;
    else general.push(text);
  }
  const notice = general.length > 0 ? general.join(' ') : Object.keys(fields).length > 0 ? 'Lütfen kart bilgilerini kontrol edin.' : null;
  return { fields, notice };
}

function renderOrder(s: Services, res: ServerResponse, order: CheckoutOrder, state: PageState): void {
  const currency = order.currency;
  const totals = orderTotals(order.items);
  const merchant = escape(order.workspace.name);
  const items = order.items
    .map((item) => {
      const line = lineAmounts(item);
      const vat = item.taxRate === null ? '' : ` · KDV ${escape(displayRate(item.taxRate))}`;
      return `<li><div><div class="name">${escape(item.name)}</div>
        <div class="meta">${item.quantity} × ${escape(displayAmount(item.unitAmount, currency))}${vat}</div></div>
        <div class="line">${escape(displayAmount(line.total, currency))}</div></li>`;
    })
    .join('');
  const summary = `<div class="card"><div class="brand">${merchant}</div><h1>Sipariş özeti</h1>
    ${order.description ? `<p class="desc">${escape(order.description)}</p>` : ''}
    <ul class="items">${items}</ul>
    <dl class="totals">
      <dt>Ara toplam (KDV hariç)</dt><dd>${escape(displayAmount(totals.subtotal, currency))}</dd>
      <dt>KDV</dt><dd>${escape(displayAmount(totals.taxAmount, currency))}</dd>
      <dt class="grand">Toplam</dt><dd class="grand" id="order-total">${escape(displayAmount(order.amount, currency))}</dd>
    </dl></div>`;

  if (order.status === 'paid') {
    const when = order.paidAt ? new Intl.DateTimeFormat('tr-TR', { dateStyle: 'long', timeStyle: 'short', timeZone: order.workspace.timeZone }).format(order.paidAt) : '';
    return renderPage(res, {
      title: 'Sipariş ödendi',
      style: STYLE,
      body: `<div class="layout">${summary}<div class="card"><h1>Ödeme alındı</h1>
        <p class="paid" role="status">Bu sipariş ödendi${when ? ` (${escape(when)})` : ''}. Tekrar ödeme yapmanız gerekmiyor.</p></div></div>`,
    });
  }

  const f = state.fields ?? {};
  const keep = state.keep ?? {};
  const err = (name: keyof FieldErrors) => (f[name] ? `<p class="field-error" id="${name}-error">${escape(f[name])}</p>` : '');
  const invalid = (name: keyof FieldErrors) => (f[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : '');
  const year = Number(new Intl.DateTimeFormat('en', { year: 'numeric', timeZone: 'Europe/Istanbul' }).format(s.clock.now()));
  const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
  const years = Array.from({ length: 16 }, (_, i) => String(year + i));
  const option = (value: string, selected: string | undefined) => `<option value="${value}"${value === selected ? ' selected' : ''}>${value}</option>`;
  const form = `<div class="card"><h1>Kart ile öde</h1>
    ${state.notice ? `<p class="notice" role="alert" id="notice">${escape(state.notice)}</p><p class="muted">Bilgileri kontrol edip tekrar deneyebilir veya başka bir kart kullanabilirsiniz.</p>` : ''}
    <form method="post" id="pay" autocomplete="on" novalidate>
      <label for="holder_name">Kart üzerindeki isim</label>
      <input id="holder_name" name="holder_name" autocomplete="cc-name" maxlength="255" required value="${escape(keep.holderName ?? '')}"${invalid('holder_name')}>
      ${err('holder_name')}
      <label for="number">Kart numarası</label>
      <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="0000 0000 0000 0000" required${invalid('number')}>
      <div class="brand" id="card-brand" aria-live="polite"></div>
      ${err('number')}
      <div class="row">
        <div><label for="expiry_month">Ay</label>
          <select id="expiry_month" name="expiry_month" autocomplete="cc-exp-month"${invalid('expiry')}><option value="">AA</option>${months.map((m) => option(m, keep.expiryMonth)).join('')}</select></div>
        <div><label for="expiry_year">Yıl</label>
          <select id="expiry_year" name="expiry_year" autocomplete="cc-exp-year"${invalid('expiry')}><option value="">YYYY</option>${years.map((y) => option(y, keep.expiryYear)).join('')}</select></div>
        <div><label for="security_code">CVC</label>
          <input id="security_code" name="security_code" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required${invalid('security_code')}></div>
      </div>
      ${err('expiry')}${err('security_code')}
      <label for="installment_number">Taksit</label>
      <select id="installment_number" name="installment_number"${invalid('installment_number')}>
        <option value="1" data-total="${escape(displayAmount(order.amount, currency))}">Tek çekim — ${escape(displayAmount(order.amount, currency))}</option>
      </select>
      <p class="muted" id="installment-hint">${currency === 'TRY' ? 'Taksit seçenekleri kart numarasını girince görünür.' : 'Bu para biriminde taksit yapılamaz.'}</p>
      ${err('installment_number')}
      <button class="primary" type="submit" id="pay-button">Öde <span id="pay-amount">${escape(displayAmount(order.amount, currency))}</span></button>
      <p class="muted">Ödemeniz 3D Secure ile bankanızın sayfasında doğrulanır.</p>
    </form>
    ${order.cancelUrl ? `<a class="cancel" href="${escape(order.cancelUrl)}" rel="noopener">Vazgeç ve mağazaya dön</a>` : ''}
  </div>`;

  renderPage(res, {
    status: state.status,
    title: `${order.workspace.name} — Ödeme`,
    style: STYLE,
    body: `<div class="layout">${summary}${form}</div>`,
    script: SCRIPT(currency === 'TRY', `/checkout/order/${order.id}/installments`),
  });
}

// Groups the number in fours as it is typed, asks for the installment options of its BIN (only
// the first 6-8 digits leave the page), and stops a second submit.
const SCRIPT = (installments: boolean, endpoint: string) => `
(function(){
  var number=document.getElementById('number'),select=document.getElementById('installment_number'),
      hint=document.getElementById('installment-hint'),brand=document.getElementById('card-brand'),
      amount=document.getElementById('pay-amount'),form=document.getElementById('pay'),button=document.getElementById('pay-button');
  var single=select.options[0].cloneNode(true),asked='',useInstallments=${installments ? 'true' : 'false'};
  function reset(){select.innerHTML='';select.appendChild(single.cloneNode(true));amount.textContent=single.dataset.total;}
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
    var url='${endpoint}?bin='+encodeURIComponent(bin);
    fetch(url,{headers:{Accept:'application/json'},credentials:'same-origin'}).then(function(r){return r.json();}).then(function(data){
      if(bin!==asked)return;
      var c=data.card||{};brand.textContent=[c.scheme,c.type,c.issuer_name].filter(Boolean).join(' · ');
      if(useInstallments){show(data.installments||[]);hint.textContent=(data.installments||[]).length>1?'Taksit seçeneklerinden birini seçebilirsiniz.':'Bu kart için taksit seçeneği yok.';}
    }).catch(function(){if(bin===asked)reset();});
  });
  select.addEventListener('change',function(){var o=select.options[select.selectedIndex];if(o)amount.textContent=o.dataset.total;});
  form.addEventListener('submit',function(e){if(button.disabled){e.preventDefault();return;}button.disabled=true;});
})();`;
