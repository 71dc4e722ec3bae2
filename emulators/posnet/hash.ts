// The emulated bank's side of PosNet's MAC (mewebstudio/pos PosNetCrypt), written apart from the
// connector's so that the two cannot share a mistake; test/posnet/emulator.test.ts checks it
// against mewebstudio's published vectors. Every hash is base64(SHA-256), parts joined by ";".
import { createHash, createHmac } from 'node:crypto';

const h = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

export interface Merchant {
  merchantId: string;
  terminalId: string;
  posnetId: string;
  encKey: string;
}

/** xid;amount;currency;mid;hash(encKey;tid): the mac a merchant puts on oosResolveMerchantData and oosTranData. */
export function merchantMac(m: Merchant, xid: string, amount: string, currency: string): string {
  return h([xid, amount, currency, m.merchantId, h(`${m.encKey};${m.terminalId}`)].join(';'));
}

/** mdStatus;xid;amount;currency;mid;hash(encKey;tid): the mac the bank puts on a resolution. */
export function resolutionMac(m: Merchant, mdStatus: string, xid: string, amount: string, currency: string): string {
  return h([mdStatus, xid, amount, currency, m.merchantId, h(`${m.encKey};${m.terminalId}`)].join(';'));
}

/** The bank's own seal on what it hands the browser (its key: nobody else's business). */
export function seal(bankKey: Buffer, ...parts: string[]): string {
  return createHmac('sha256', bankKey).update(parts.join('|')).digest('hex').toUpperCase();
}
