// What the client hands to a logger never carries card data or credentials: card numbers keep
// their last four digits, security codes, expiry and holder names go, and so do the shopper's
// personal details (names, which come from the card holder's, email, ID and phone numbers,
// addresses): support needs the ids, amounts and error codes, not the person. The 3D page iyzico
// returns (it may embed the card number in its form) is replaced by its length. Any other string
// that looks like a card number is masked too, whatever field it hides in.

const REDACTED = '[redacted]';
const DROP = new Set([
  'cvc',
  'expireMonth',
  'expireYear',
  'cardHolderName',
  'name',
  'surname',
  'contactName',
  'email',
  'identityNumber',
  'gsmNumber',
  'registrationAddress',
  'address',
]);
const CARD_NUMBER_KEYS = new Set(['cardNumber']);
const PAGE_KEYS = new Set(['threeDSHtmlContent']);
const DIGIT_RUN = /\d{12,19}/g;

function maskNumber(value: string): string {
  return value.length > 4 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : REDACTED;
}

/** A deep copy of an iyzico body that is safe to log. */
export function scrub(value: unknown, key = ''): unknown {
  if (typeof value === 'string') {
    if (DROP.has(key)) return REDACTED;
    if (CARD_NUMBER_KEYS.has(key)) return maskNumber(value);
    if (PAGE_KEYS.has(key)) return `[${value.length} characters]`;
    return value.replace(DIGIT_RUN, maskNumber);
  }
  if (Array.isArray(value)) return value.map((item) => scrub(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, k)]));
  }
  return value;
}
