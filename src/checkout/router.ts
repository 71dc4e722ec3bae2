// Hosted pages served by the gateway itself: /checkout/3ds/<token> (and, with their issues, the
// order, subscription and link checkout pages).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../domain/services.ts';
import { showThreeDs, submitThreeDs } from './three-ds.ts';

const UUID = '[0-9a-fA-F-]{36}';
const THREE_DS = new RegExp(`^/checkout/3ds/(${UUID})$`);

export function createCheckoutRouter(s: Services) {
  return async function handleCheckout(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const threeDs = THREE_DS.exec(path);
    if (!threeDs) return false;
    if (req.method === 'GET') await showThreeDs(s, threeDs[1]!, res);
    else if (req.method === 'POST') await submitThreeDs(s, threeDs[1]!, req, res);
    else {
      res.writeHead(405, { Allow: 'GET, POST' });
      res.end();
    }
    return true;
  };
}
