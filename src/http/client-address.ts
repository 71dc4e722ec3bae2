// The client's address for the audit trail, the sessions list and sign-in lockout: the socket's
// peer, or behind a trusted proxy (TRUST_PROXY) the last hop X-Forwarded-For names (the one the
// proxy itself added; earlier hops are the client's to write).
import type { IncomingMessage } from 'node:http';

export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((h) => h.trim()).filter(Boolean);
    if (hops.length > 0) return hops[hops.length - 1]!.slice(0, 64);
  }
  return (req.socket.remoteAddress ?? 'unknown').replace(/^::ffff:/, '');
}
