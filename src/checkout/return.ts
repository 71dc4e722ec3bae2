// Where the shopper goes after the 3D step of a payment that returns to the merchant
// (callback_url, an order's or subscription's success_url), and what an embedded checkout's frame
// tells the merchant's page.
//
// The hand-over page first asks the merchant's address from the shopper's own browser (a HEAD
// request without cookies, whose answer the page cannot read: it only learns that the address
// answered), with a short timeout; when it answers, the return POST goes as before. When it does
// not, the shopper lands on /checkout/3ds/result/<payment>, the gateway's page that says the
// payment's result and offers the way back (docs/decisions.md says why the browser asks and not the
// gateway).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Payment } from '../generated/prisma/client.ts';
import type { Services } from '../domain/services.ts';
import { message, type Language, type MessageCode } from '../domain/messages.ts';
import { escape, pageLanguage, postForm, scriptValue, renderCheckoutNotFound, renderPage, type Page } from './html.ts';
import { workspacePage } from './brand.ts';

/** How long the hand-over page waits for the merchant's address before it gives up on it. */
export const RETURN_PROBE_MS = 4000;

type Look = Pick<Page, 'brand' | 'frameAncestors'>;
type Settled = Pick<Payment, 'id' | 'status'>;

export const resultPath = (paymentId: string) => `/checkout/3ds/result/${paymentId}`;

const resultTitle = (p: Settled): MessageCode =>
  p.status === 'successful' ? 'page_payment_approved' : p.status === 'started' || p.status === 'unresolved' ? 'page_payment_pending' : 'page_payment_not_completed';

const returnForm = (p: Settled, url: string, button: string) => postForm({ id: 'return', action: url, fields: { transaction_token: p.id } }, button);

/** The return POST to the merchant, once the shopper's browser has seen its address answer. */
export function renderReturn(res: ServerResponse, lang: Language, look: Look, payment: Settled, url: string): void {
  const heading = message(payment.status === 'successful' ? 'page_payment_approved' : 'page_payment_not_completed', lang);
  const origin = new URL(url).origin;
  renderPage(res, {
    lang,
    ...look,
    title: heading,
    formTargets: [origin],
    connectTargets: [origin],
    body: `<div class="card"><h1>${escape(heading)}</h1><p class="muted">${escape(message('page_return_redirecting', lang))}</p>
      ${returnForm(payment, url, message('page_return_continue', lang))}</div>`,
    script: `(function(){
  var form=document.getElementById('return'),settled=false;
  function go(){if(!settled){settled=true;form.submit();}}
  function unreachable(){if(!settled){settled=true;location.replace(${scriptValue(resultPath(payment.id))});}}
  // An https page may not ask an http address (mixed content): the form goes without asking.
  if(location.protocol==='https:'&&form.action.indexOf('http:')===0){go();return;}
  var timer=setTimeout(unreachable,${RETURN_PROBE_MS});
  fetch(form.action,{method:'HEAD',mode:'no-cors',credentials:'omit',cache:'no-store'}).then(function(){clearTimeout(timer);go();},function(){clearTimeout(timer);unreachable();});
})();`,
  });
}

/** GET /checkout/3ds/result/<payment>: the payment's result and the way back to the merchant. */
export async function showThreeDsResult(s: Services, paymentId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const lang = pageLanguage(req);
  // Only a payment that has been through the 3D step and returns to an address has this page.
  const payment = await s.db.payment.findFirst({
    where: { id: paymentId, threeDsAnsweredAt: { not: null }, callbackUrl: { not: null } },
    select: { id: true, status: true, callbackUrl: true, workspace: { select: { name: true, brandLogoUrl: true, brandColor: true, embedOrigins: true } } },
  });
  if (!payment?.callbackUrl) return renderCheckoutNotFound(res, lang);
  const host = new URL(payment.callbackUrl).host;
  const heading = message(resultTitle(payment), lang);
  renderPage(res, {
    lang,
    ...workspacePage(payment.workspace),
    title: heading,
    formTargets: [new URL(payment.callbackUrl).origin],
    body: `<div class="card"><h1 id="result">${escape(heading)}</h1>
      <p role="status" id="unreachable">${escape(message('page_return_unreachable', lang, { host, reference: payment.id }))}</p>
      ${returnForm(payment, payment.callbackUrl, message('page_return_try_again', lang, { host }))}</div>`,
  });
}

/** What the merchant's page receives from an embedded checkout (embed.js passes it on). */
export interface EmbedResult {
  type: 'gateway:checkout';
  successful: boolean;
  status: string;
  transaction_token: string;
}

/**
 * The 3D step's end inside a frame of a listed origin: the result goes to the framing page by
 * postMessage, to a listed origin only (the one framing it, as the browser names it, else each
 * listed one in turn: the browser delivers to the one that matches and no other). Then the frame
 * goes on as a top-level page would (a failed order's page to try again, a link's receipt), or
 * shows the result.
 */
export function renderFramedResult(res: ServerResponse, lang: Language, look: Required<Look>, payment: Settled & { successful: boolean }, next: string | null): void {
  const heading = message(resultTitle(payment), lang);
  const result: EmbedResult = { type: 'gateway:checkout', successful: payment.successful, status: payment.status, transaction_token: payment.id };
  renderPage(res, {
    lang,
    ...look,
    title: heading,
    body: `<div class="card"><h1 id="result">${escape(heading)}</h1>${next ? '' : `<p class="muted">${escape(message('page_embed_done', lang))}</p>`}</div>`,
    script: `(function(){
  var listed=${scriptValue(look.frameAncestors)},result=${scriptValue(result)};
  var parentOrigin=location.ancestorOrigins&&location.ancestorOrigins[0];
  var targets=listed.indexOf(parentOrigin)>=0?[parentOrigin]:listed;
  targets.forEach(function(origin){try{window.parent.postMessage(result,origin);}catch(e){}});
  ${next ? `location.replace(${scriptValue(next)});` : ''}
})();`,
  });
}
