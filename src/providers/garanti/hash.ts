// GVP's hashes, as mewebstudio/pos computes them (src/Crypt/GarantiPosCrypt.php). A terminal
// user's password never travels: "security data" is the upper-case SHA-1 of the password followed
// by the terminal id left-padded with zeros to 9 digits. The 3D form carries secure3dhash, and each
// XML request Terminal/HashData, both upper-case SHA-512 over fields, the store key (3D form only)
// and the security data. The bank's answer to the 3D form names the fields it signed in
// `hashparams` (colon-separated); `hash` is the upper-case SHA-512 of their values followed by the
// store key.
import { createHash, timingSafeEqual } from 'node:crypto';

const upperHex = (algorithm: 'sha1' | 'sha512', text: string): string => createHash(algorithm).update(text, 'utf8').digest('hex').toUpperCase();

/** The hashed password of a terminal user: SHA-1(password + terminal id padded to 9 digits), upper hex. */
export function securityData(password: string, terminalId: string): string {
  return upperHex('sha1', `${password}${terminalId.padStart(9, '0')}`);
}

export interface ThreeDFormHashInput {
  terminalId: string;
  orderId: string;
  /** Minor units as GVP writes them ("10025"). */
  amount: string;
  currencyCode: string;
  successUrl: string;
  errorUrl: string;
  type: string;
  /** '' for a single payment. */
  installment: string;
  storeKey: string;
  /** The PROVAUT user's password. */
  password: string;
}

/** secure3dhash of the 3D form (GarantiPosCrypt::create3DHash). */
export function threeDFormHash(input: ThreeDFormHashInput): string {
  const { terminalId, orderId, amount, currencyCode, successUrl, errorUrl, type, installment, storeKey, password } = input;
  return upperHex('sha512', `${terminalId}${orderId}${amount}${currencyCode}${successUrl}${errorUrl}${type}${installment}${storeKey}${securityData(password, terminalId)}`);
}

export interface RequestHashInput {
  orderId: string;
  terminalId: string;
  /** Only a request that carries a card (a non-3D sale) hashes its number. */
  cardNumber?: string;
  amount: string;
  currencyCode: string;
  /** The password of the user the request is sent as: PROVRFN's for refund and void, PROVAUT's otherwise. */
  password: string;
}

/** Terminal/HashData of an XML request (GarantiPosCrypt::createHash). */
export function requestHash(input: RequestHashInput): string {
  const { orderId, terminalId, cardNumber = '', amount, currencyCode, password } = input;
  return upperHex('sha512', `${orderId}${terminalId}${cardNumber}${amount}${currencyCode}${securityData(password, terminalId)}`);
}

/** The names `hashparams` says the bank signed; the trailing colon's empty name signs nothing. */
export function signedNames(fields: Readonly<Record<string, string>>): string[] {
  return (fields.hashparams ?? '').split(':').filter((name) => name !== '');
}

/**
 * Whether the bank's `hash` over the fields listed in `hashparams` checks with the store key
 * (GarantiPosCrypt::check3DHash). A field named but absent counts as empty, as the bank does.
 */
export function checkResponseHash(storeKey: string, fields: Readonly<Record<string, string>>): boolean {
  const names = signedNames(fields);
  const given = fields.hash;
  if (names.length === 0 || given === undefined || given === '') return false;
  const expected = upperHex('sha512', `${names.map((name) => fields[name] ?? '').join('')}${storeKey}`);
  const a = Buffer.from(expected);
  const b = Buffer.from(given.toUpperCase());
  return a.length === b.length && timingSafeEqual(a, b);
}
