// The simulated bank (ACS) page behind secure-payment's redirect_url: a form with `outcome`
// buttons approve/decline (DESIGN.md), then the return POST of transaction_token.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import { completeThreeDs, openThreeDs } from '../domain/payments/three-ds.ts';
import { formatAmount } from '../domain/money.ts';
import { escape, renderPage, renderReturnPost } from './html.ts';
import { readForm } from './forms.ts';


const notices = {
  expired: { status: 410, title: 'Süre doldu', text: 'Bu 3D doğrulama sayfası 15 dakika içinde açılmadığı için ödeme zaman aşımına uğradı.' },
  used: { status: 409, title: 'Sayfa kullanıldı', text: 'Bu 3D doğrulama adresi yalnızca bir kez kullanılabilir.' },
  invalid: { status: 404, title: 'Bulunamadı', text: 'Bu 3D doğrulama adresi geçersiz.' },
} as const;

function notice(res: ServerResponse, state: keyof typeof notices): void {
  const n = notices[state];
  renderPage(res, { status: n.status, title: n.title, body: `<div class="card"><h1>${escape(n.title)}</h1><p class="error">${escape(n.text)}</p></div>` });
}

export async function showThreeDs(s: Services, token: string, res: ServerResponse): Promise<void> {
  const opened = await openThreeDs(s, token);
  if (opened.state !== 'open') return notice(res, opened.state);
  const p = opened.payment;
  const amount = p.chargedAmount !== null && p.chargedCurrency ? `${formatAmount(p.chargedAmount)} ${p.chargedCurrency}` : `${formatAmount(p.amount)} ${p.currency}`;
  renderPage(res, {
    title: '3D Secure doğrulama',
    body: `<div class="card"><h1>3D Secure doğrulama</h1>
      <p class="muted">Simülasyon Bankası</p>
      <p>Tutar: <strong>${escape(amount)}</strong></p>
      <p>Kart: <strong>${escape(p.cardFirstDigits ?? '')}•••• ${escape(p.cardLastFourDigits ?? '')}</strong></p>
      <form method="post">
        <button class="primary" type="submit" name="outcome" value="approve">Onayla</button>
        <button class="secondary" type="submit" name="outcome" value="decline">Reddet</button>
      </form></div>`,
  });
}

export async function submitThreeDs(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = await readForm(req);
  const outcome = form.get('outcome') === 'approve' ? 'approve' : 'decline';
  const done = await completeThreeDs(s, token, outcome);
  if (done.state !== 'completed') return notice(res, done.state);
  // A failed payment of a hosted page (an order…) goes back to that page to show the reason and
  // let the customer try again; API payments post to callback_url either way.
  if (done.retryPage) {
    res.writeHead(303, { Location: done.retryPage, 'Cache-Control': 'no-store' });
    res.end();
    return;
  }
  const returnUrl = done.payment.callbackUrl;
  if (!returnUrl) {
    return renderPage(res, { title: 'Tamamlandı', body: `<div class="card"><h1>${done.successful ? 'Ödeme onaylandı' : 'Ödeme reddedildi'}</h1></div>` });
  }
  renderReturnPost(res, returnUrl, done.payment.id, done.successful ? 'Ödeme onaylandı' : 'Ödeme tamamlanamadı');
}
