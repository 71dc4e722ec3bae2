// The 3D Secure step behind secure-payment's redirect_url. Opening it sends the shopper's browser
// on to the bank's 3D page, by the instruction the account's connector gave at the start (an
// address, a form posted at once, or the provider's own page). The bank's ACS then posts its
// result to /checkout/3ds/callback/<payment>; once the connector has verified it, the shopper gets
// the return POST of transaction_token (or the owner's page), as for every payment: once the
// browser has seen the merchant's address answer, else the gateway's result page; inside a frame
// of an origin the workspace listed, the framing page hears the result instead (return.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import type { Redirect } from '../providers/types.ts';
import type { Payment } from '../generated/prisma/client.ts';
import { completeThreeDs, openThreeDs } from '../domain/payments/three-ds.ts';
import { message, type Language, type MessageCode } from '../domain/messages.ts';
import { allowFraming, escape, frameAncestors, pageLanguage, renderAutoPost, renderNotice, renderPage, seeOther } from './html.ts';
import { readCallbackForm } from './forms.ts';
import { unsealFor } from '../domain/secrets.ts';
import { THREE_DS_CARD_PURPOSE } from '../domain/payments/attempt.ts';
import type { PageRequest } from './page-request.ts';
import { workspacePage, type BrandedWorkspace } from './brand.ts';
import { renderFramedResult, renderReturn } from './return.ts';

const notices: Record<'expired' | 'used' | 'invalid' | 'rejected', { status: number; title: MessageCode; text: MessageCode }> = {
  expired: { status: 410, title: 'page_3ds_expired_title', text: 'page_3ds_expired' },
  used: { status: 409, title: 'page_3ds_used_title', text: 'page_3ds_used' },
  invalid: { status: 404, title: 'page_not_found', text: 'page_3ds_invalid' },
  rejected: { status: 400, title: 'page_3ds_rejected_title', text: 'page_3ds_rejected' },
};

function notice(res: ServerResponse, lang: Language, state: keyof typeof notices): void {
  const n = notices[state];
  renderNotice(res, lang, n.status, message(n.title, lang), message(n.text, lang));
}

export async function showThreeDs(s: Services, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  // A bank form's card fields come sealed in the address (for this token only), never from the row;
  // an address whose seal does not open is not the one the gateway gave, and the page stays unused.
  const sealed = new URL(req.url ?? '/', 'http://gateway').searchParams.get('card');
  const cardFields = sealed === null ? null : unsealFor(s.masterKey, THREE_DS_CARD_PURPOSE, token, sealed);
  if (sealed !== null && cardFields === null) return notice(res, lang, 'invalid');
  const redirectOf = (p: Payment) => p.threeDsRedirect as Redirect | null;
  const usable = (p: Payment) => {
    const redirect = redirectOf(p);
    return redirect !== null && !(redirect.kind === 'form' && redirect.sealedCard && cardFields === null);
  };
  const opened = await openThreeDs(s, token, usable);
  if (opened.state !== 'open') return notice(res, lang, opened.state);
  const look = workspacePage(await brandedWorkspace(s, opened.payment.workspaceId));
  sendToBank(res, lang, look, redirectOf(opened.payment)!, cardFields ? (JSON.parse(cardFields) as Record<string, string>) : {});
}

/** A workspace as its pages show it: its name, logo, colour and the origins that may frame them. */
function brandedWorkspace(s: Services, id: string): Promise<BrandedWorkspace> {
  return s.db.workspace.findUniqueOrThrow({ where: { id }, select: { name: true, brandLogoUrl: true, brandColor: true, embedOrigins: true } });
}

/**
 * The shopper's browser on its way to the bank's 3D page. In an embedded checkout the bank's page
 * opens in the same frame: whether it may be framed is the bank's to say (the simulator's ACS
 * allows the workspace's origins, as these pages do).
 */
function sendToBank(res: ServerResponse, lang: Language, look: ReturnType<typeof workspacePage>, redirect: Redirect, cardFields: Record<string, string>): void {
  switch (redirect.kind) {
    case 'url':
      return seeOther(res, redirect.url, look.frameAncestors);
    case 'form':
      return renderAutoPost(res, lang, { id: 'bank', action: redirect.action, fields: { ...redirect.fields, ...cardFields }, heading: message('page_3ds_title', lang) }, look);
    case 'html':
      return sendProviderPage(res, redirect.html, look.frameAncestors);
  }
}

/**
 * The provider's own page, as it sent it: it posts the shopper on to the bank's ACS with a script
 * of its own, so this one answer allows inline script and any form target; it may still not be
 * framed, nor load anything but what it carries.
 */
function sendProviderPage(res: ServerResponse, html: string, origins: readonly string[]): void {
  allowFraming(res, origins);
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src https: data:; form-action https: http:; frame-ancestors ${frameAncestors(origins)}; base-uri 'none'`,
  });
  res.end(html);
}

/** POST /checkout/3ds/callback/<payment>: the bank's ACS posting the shopper's result. */
export async function threeDsCallback(s: Services, paymentId: string, req: IncomingMessage, res: ServerResponse, page: PageRequest): Promise<void> {
  const lang = pageLanguage(req);
  const fields = await readCallbackForm(req);
  const done = await completeThreeDs(s, paymentId, fields);
  if (done.state !== 'completed') return notice(res, lang, done.state);
  const look = workspacePage(await brandedWorkspace(s, done.payment.workspaceId));
  // Inside a listed origin's frame the merchant's page hears the result; the frame stays ours.
  if (page.framed && look.frameAncestors.length > 0) return renderFramedResult(res, lang, look, { ...done.payment, successful: done.successful }, done.retryPage);
  // A failed payment of a hosted page (an order…) goes back to that page to show the reason and
  // let the customer try again; API payments post to callback_url either way.
  if (done.retryPage) return seeOther(res, done.retryPage);
  const returnUrl = done.payment.callbackUrl;
  if (!returnUrl) {
    const heading = message(done.successful ? 'page_payment_approved' : 'page_payment_declined', lang);
    return renderPage(res, { lang, ...look, title: message('page_3ds_completed', lang), body: `<div class="card"><h1>${escape(heading)}</h1></div>` });
  }
  renderReturn(res, lang, look, done.payment, returnUrl);
}
