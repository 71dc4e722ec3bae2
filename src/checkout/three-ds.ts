// The simulated bank (ACS) page behind secure-payment's redirect_url: a form with `outcome`
// buttons approve/decline (docs/decisions.md lists the simulator's cards), then the return POST of transaction_token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import { completeThreeDs, openThreeDs } from '../domain/payments/three-ds.ts';
import { message, type Language, type MessageCode } from '../domain/messages.ts';
import { displayMoney } from '../domain/money.ts';
import { escape, pageLanguage, renderNotice, renderPage, renderReturnPost } from './html.ts';
import { readForm } from './forms.ts';


const notices: Record<'expired' | 'used' | 'invalid', { status: number; title: MessageCode; text: MessageCode }> = {
  expired: { status: 410, title: 'page_3ds_expired_title', text: 'page_3ds_expired' },
  used: { status: 409, title: 'page_3ds_used_title', text: 'page_3ds_used' },
  invalid: { status: 404, title: 'page_not_found', text: 'page_3ds_invalid' },
};

function notice(res: ServerResponse, lang: Language, state: keyof typeof notices): void {
  const n = notices[state];
  renderNotice(res, lang, n.status, message(n.title, lang), message(n.text, lang));
}

export async function showThreeDs(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const t = (code: MessageCode) => escape(message(code, lang));
  const opened = await openThreeDs(s, token);
  if (opened.state !== 'open') return notice(res, lang, opened.state);
  const p = opened.payment;
  // What the bank charges: the converted amount when the payment is charged in another currency.
  const amount = p.chargedAmount !== null && p.chargedCurrency ? displayMoney(p.chargedAmount, p.chargedCurrency, lang) : displayMoney(p.amount, p.currency, lang);
  renderPage(res, {
    lang,
    title: message('page_3ds_title', lang),
    body: `<div class="card"><h1>${t('page_3ds_title')}</h1>
      <p class="muted">${t('page_3ds_bank')}</p>
      <p>${t('page_3ds_amount')} <strong>${escape(amount)}</strong></p>
      <p>${t('page_3ds_card')} <strong>${escape(p.cardFirstDigits ?? '')}•••• ${escape(p.cardLastFourDigits ?? '')}</strong></p>
      <form method="post">
        <button class="primary" type="submit" name="outcome" value="approve">${t('page_3ds_approve')}</button>
        <button class="secondary" type="submit" name="outcome" value="decline">${t('page_3ds_decline')}</button>
      </form></div>`,
  });
}

export async function submitThreeDs(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  const form = await readForm(req);
  const outcome = form.get('outcome') === 'approve' ? 'approve' : 'decline';
  const done = await completeThreeDs(s, token, outcome);
  if (done.state !== 'completed') return notice(res, lang, done.state);
  // A failed payment of a hosted page (an order…) goes back to that page to show the reason and
  // let the customer try again; API payments post to callback_url either way.
  if (done.retryPage) {
    res.writeHead(303, { Location: done.retryPage, 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  const returnUrl = done.payment.callbackUrl;
  if (!returnUrl) {
    const heading = message(done.successful ? 'page_payment_approved' : 'page_payment_declined', lang);
    return renderPage(res, { lang, title: message('page_3ds_completed', lang), body: `<div class="card"><h1>${escape(heading)}</h1></div>` });
  }
  renderReturnPost(res, lang, returnUrl, done.payment.id, message(done.successful ? 'page_payment_approved' : 'page_payment_not_completed', lang));
}
