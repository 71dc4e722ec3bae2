// What the client hands to a logger never carries card data or secrets: the card number keeps its
// last four digits (GVP's references stay whole), the CVV2 and expiry go, so do HashData (a function of the password) and the
// shopper's email and name; any other digit run that looks like a card number is masked too.

const REDACTED = '[redacted]';
const DROP = new Set(['CVV2', 'ExpireDate', 'HashData', 'EmailAddress', 'CardHolderName']);
const CARD_NUMBER_KEYS = new Set(['Number', 'CardNumberMasked']);
// GVP's own references are long digit runs too, and support needs them whole.
const KEEP = new Set(['OrderID', 'GroupID', 'RetrefNum', 'OriginalRetrefNum', 'AuthCode', 'BatchNum', 'SequenceNum']);
const DIGIT_RUN = /\d{12,19}/g;

function maskNumber(value: string): string {
  return value.length > 4 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : REDACTED;
}

/** A deep copy of a GVP request or answer that is safe to log. */
export function scrub(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (DROP.has(key)) return value === '' ? '' : REDACTED;
    if (CARD_NUMBER_KEYS.has(key)) return maskNumber(value);
    if (KEEP.has(key)) return value;
    return value.replace(DIGIT_RUN, maskNumber);
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, k)]));
  }
  return value;
}
