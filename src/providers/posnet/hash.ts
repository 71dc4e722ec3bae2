// PosNet's MAC (mewebstudio/pos PosNetCrypt): every hash is base64(SHA-256(text)), parts joined by
// ";". The merchant's encryption key (ENCKEY, "10,10,10,10,10,10,10,10" on the test platform) never
// travels: a request carries securityData = hash(encKey;terminalId) folded into its mac, so the bank
// knows the merchant holds the key. The 3-D resolution's answer is signed back the same way over
// mdStatus;xid;amount;currency;mid;securityData, which is what makes it the bank's.
import { createHash, timingSafeEqual } from 'node:crypto';

export function hashString(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

export function securityData(encKey: string, terminalId: string): string {
  return hashString(`${encKey};${terminalId}`);
}

export interface MacKey {
  merchantId: string;
  terminalId: string;
  encKey: string;
}

/** The mac of oosResolveMerchantData and oosTranData: xid;amount;currency;mid;securityData. */
export function requestMac(key: MacKey, order: { xid: string; amount: string; currency: string }): string {
  return hashString([order.xid, order.amount, order.currency, key.merchantId, securityData(key.encKey, key.terminalId)].join(';'));
}

/** The mac the bank puts on its resolution of a 3-D callback: mdStatus;xid;amount;currency;mid;securityData. */
export function resolutionMac(key: MacKey, resolved: { mdStatus: string; xid: string; amount: string; currency: string }): string {
  return hashString([resolved.mdStatus, resolved.xid, resolved.amount, resolved.currency, key.merchantId, securityData(key.encKey, key.terminalId)].join(';'));
}

export function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
