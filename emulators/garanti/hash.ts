// Garanti BBVA virtual POS (GVP) hashes, as mewebstudio/pos src/Crypt/GarantiPosCrypt.php computes them
// (checked against its tests/Unit/Crypt/GarantiPosCryptTest.php vectors in test/emulators/garanti-hash.test.ts).
import { createHash } from 'node:crypto';

function upperHex(algorithm: 'sha1' | 'sha512', text: string): string {
  return createHash(algorithm).update(text, 'utf8').digest('hex').toUpperCase();
}

/** "SecurityData": upper-hex SHA-1 of the provision (or refund) password + terminal id left-padded with zeros to 9. */
export function securityData(password: string, terminalId: string): string {
  return upperHex('sha1', password + terminalId.padStart(9, '0'));
}

export interface ThreeDHashFields {
  terminalid: string;
  orderid: string;
  txnamount: string;
  txncurrencycode: string;
  successurl: string;
  errorurl: string;
  txntype: string;
  txninstallmentcount: string;
}

/** The gate's `secure3dhash`: SHA-512 of terminal, order, amount, currency, URLs, type, installments, store key, SecurityData. */
export function threeDHash(f: ThreeDHashFields, storeKey: string, password: string): string {
  const parts = [f.terminalid, f.orderid, f.txnamount, f.txncurrencycode, f.successurl, f.errorurl, f.txntype, f.txninstallmentcount, storeKey];
  return upperHex('sha512', parts.join('') + securityData(password, f.terminalid));
}

export interface XmlHashFields {
  orderId: string;
  terminalId: string;
  cardNumber: string;
  amount: string;
  currency: string;
}

/** The XML API's `Terminal/HashData`: SHA-512 of order, terminal, card number, amount, currency, SecurityData. */
export function xmlHashData(f: XmlHashFields, password: string): string {
  return upperHex('sha512', f.orderId + f.terminalId + f.cardNumber + f.amount + f.currency + securityData(password, f.terminalId));
}

/**
 * The callback's `hash`: SHA-512 of the values of the fields named in `hashparams` (joined by ':',
 * a trailing ':' names nothing) followed by the store key, as GarantiPosCrypt::check3DHash checks it.
 */
export function callbackHash(fields: Record<string, string>, storeKey: string): { hashparamsval: string; hash: string } {
  const names = (fields.hashparams ?? '').split(':').filter((n) => n !== '');
  const hashparamsval = names.map((n) => fields[n] ?? '').join('');
  return { hashparamsval, hash: upperHex('sha512', hashparamsval + storeKey) };
}

/**
 * The emulator's answer `Transaction/HashData` (GVP signs its XML answers, but the published references
 * do not say over what, so no client can check it): SHA-512 of order id, terminal id, answer code,
 * RetrefNum, AuthCode and the store key.
 */
export function answerHashData(parts: string[], storeKey: string): string {
  return upperHex('sha512', parts.join('') + storeKey);
}
