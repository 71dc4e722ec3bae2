// Where the gateway may send webhooks. In production an address must not lead into our own
// network (loopback, private, link-local, metadata ranges), checked when the address is added
// and again at every delivery against DNS rebinding. Elsewhere local receivers are allowed.
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  return blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

export interface OutboundPolicy {
  production: boolean;
}

/** Syntax: https always; http only to 127.0.0.1/localhost outside production. */
export function urlAllowed(raw: string, policy: OutboundPolicy): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return !policy.production && url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** Resolves the host; in production every address it resolves to must be public. */
export async function destinationAllowed(raw: string, policy: OutboundPolicy): Promise<boolean> {
  if (!urlAllowed(raw, policy)) return false;
  if (!policy.production) return true;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true });
    return addresses.length > 0 && addresses.every((a) => !isBlockedAddress(a.address));
  } catch {
    return false;
  }
}
