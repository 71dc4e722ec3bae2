// The address of the client behind a request: for a hosted page's risk decision, the audit trail,
// the sessions list and sign-in lockout. Without TRUST_PROXY it is the connection's. Behind a proxy
// (TRUST_PROXY=true) it is the last X-Forwarded-For entry: the one the proxy in front appended for
// the connection it took; entries before it are whatever the client sent, which anyone can make up.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string {
  const socket = (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
  if (!trustProxy) return socket;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((s) => s.trim()).filter(Boolean).at(-1);
  return forwarded && isIP(forwarded) ? forwarded : socket;
}
