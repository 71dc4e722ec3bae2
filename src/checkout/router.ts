// Hosted pages served by the gateway itself: /checkout/3ds/<token> and the bank's callback
// /checkout/3ds/callback/<payment>, the order and subscription
// checkout pages /checkout/order/<token> and /checkout/subscription/<token> (each with the JSON
// its card form asks about a BIN), and the link checkout page /checkout/link/<token> with the
// page its 3D step returns to, /checkout/link/payment/<paymentId>; /checkout/3ds/result/<payment>,
// where a shopper lands whose merchant's address did not answer (return.ts); and /embed.js, the
// script a merchant's page includes to open a checkout in a frame (embed-script.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import { showThreeDs, threeDsCallback } from './three-ds.ts';
import { orderInstallmentsJson, showOrderCheckout, submitOrderCheckout } from './order.ts';
import { showSubscriptionCheckout, subscriptionCardJson, submitSubscriptionCheckout } from './subscription.ts';
import { linkCardJson, showLinkCheckout, showLinkPayment, submitLinkCheckout } from './link.ts';
import { UUID_SOURCE } from '../domain/validation.ts';
import { clientAddress } from '../http/client-address.ts';
import { showThreeDsResult } from './return.ts';
import { sendEmbedScript } from './embed-script.ts';
import type { PageRequest } from './page-request.ts';

const THREE_DS = new RegExp(`^/checkout/3ds/(${UUID_SOURCE})$`);
const THREE_DS_CALLBACK = new RegExp(`^/checkout/3ds/callback/(${UUID_SOURCE})$`);
const THREE_DS_RESULT = new RegExp(`^/checkout/3ds/result/(${UUID_SOURCE})$`);
const ORDER = new RegExp(`^/checkout/order/(${UUID_SOURCE})$`);
const ORDER_INSTALLMENTS = new RegExp(`^/checkout/order/(${UUID_SOURCE})/installments$`);
const SUBSCRIPTION = new RegExp(`^/checkout/subscription/(${UUID_SOURCE})$`);
const SUBSCRIPTION_CARD = new RegExp(`^/checkout/subscription/(${UUID_SOURCE})/installments$`);
const LINK = new RegExp(`^/checkout/link/(${UUID_SOURCE})$`);
const LINK_CARD = new RegExp(`^/checkout/link/(${UUID_SOURCE})/installments$`);
const LINK_PAYMENT = new RegExp(`^/checkout/link/payment/(${UUID_SOURCE})$`);

type Handler = (s: Services, token: string, req: IncomingMessage, res: ServerResponse, page: PageRequest) => Promise<void>;

const pages: Array<{ pattern: RegExp; get?: Handler; post?: Handler }> = [
  { pattern: THREE_DS, get: showThreeDs },
  { pattern: THREE_DS_CALLBACK, post: threeDsCallback },
  { pattern: THREE_DS_RESULT, get: showThreeDsResult },
  { pattern: ORDER, get: showOrderCheckout, post: submitOrderCheckout },
  { pattern: ORDER_INSTALLMENTS, get: orderInstallmentsJson },
  { pattern: SUBSCRIPTION, get: showSubscriptionCheckout, post: submitSubscriptionCheckout },
  { pattern: SUBSCRIPTION_CARD, get: subscriptionCardJson },
  { pattern: LINK, get: showLinkCheckout, post: submitLinkCheckout },
  { pattern: LINK_CARD, get: linkCardJson },
  { pattern: LINK_PAYMENT, get: showLinkPayment },
];

export function createCheckoutRouter(s: Services, opts: { trustProxy: boolean } = { trustProxy: false }) {
  return async function handleCheckout(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/embed.js' && req.method === 'GET') {
      sendEmbedScript(req, res);
      return true;
    }
    for (const page of pages) {
      const match = page.pattern.exec(path);
      if (!match) continue;
      const handler = req.method === 'GET' ? page.get : req.method === 'POST' ? page.post : undefined;
      if (handler) await handler(s, match[1]!, req, res, { ip: clientAddress(req, opts.trustProxy), framed: req.headers['sec-fetch-dest'] === 'iframe' });
      else {
        res.writeHead(405, { Allow: [page.get && 'GET', page.post && 'POST'].filter(Boolean).join(', ') });
        res.end();
      }
      return true;
    }
    return false;
  };
}
