// The address of the browser behind a request, for the risk decision of a hosted page's payment.
// Without TRUST_PROXY it is the connection's. Behind a proxy (TRUST_PROXY=true) it is the last
// X-Forwarded-For entry: the one the proxy in front appended for the connection it took; entries
// before it are whatever the client sent, which anyone can make up.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | null {
  const socket = req.socket.remoteAddress ?? null;
  if (!trustProxy) return socket;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((s) => s.trim()).filter(Boolean).at(-1);
  return forwarded && isIP(forwarded) ? forwarded : socket;
}
