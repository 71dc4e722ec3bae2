// Where the gateway may send webhooks. In production an address must not lead into our own
// network (loopback, private, link-local, metadata ranges), checked when the address is added
// and again at every delivery against DNS rebinding. Elsewhere local receivers are allowed.
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

// IPv4 and IPv6 rules live in separate lists: Node's BlockList also matches IPv4 addresses
// against IPv4-mapped IPv6 subnets, so one list holding `::ffff:0:0/96` blocked every IPv4 host.
const blockedV4 = new BlockList();
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
  blockedV4.addSubnet(net, bits, 'ipv4');
}
const blockedV6 = new BlockList();
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blockedV6.addSubnet(net, bits, 'ipv6');
}
const mappedV6 = new BlockList();
mappedV6.addSubnet('::ffff:0:0', 96, 'ipv6');

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` in any spelling). */
function embeddedIPv4(ip: string): string {
  const groups = new URL(`http://[${ip}]/`).hostname.slice(1, -1).split(':');
  const [hi, lo] = groups.slice(-2).map((g) => parseInt(g || '0', 16));
  return [hi! >> 8, hi! & 255, lo! >> 8, lo! & 255].join('.');
}

export function isBlockedAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return true;
  if (family === 4) return blockedV4.check(ip, 'ipv4');
  if (mappedV6.check(ip, 'ipv6')) return blockedV4.check(embeddedIPv4(ip), 'ipv4');
  return blockedV6.check(ip, 'ipv6');
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
