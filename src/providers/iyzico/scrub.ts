// What the client hands to a logger never carries card data or credentials: card numbers keep
// their last four digits, security codes, expiry and holder names go, and so do the shopper's
// personal details (names, which come from the card holder's, email, ID and phone numbers,
// addresses): support needs the ids, amounts and error codes, not the person. The 3D page iyzico
// returns (it may embed the card number in its form) is replaced by its length. Any other string
// that holds a card number is masked too, whatever field it hides in (domain/card-masking.ts).
import { scrubCardData } from '../../domain/card-masking.ts';

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

/** A deep copy of an iyzico body that is safe to log. */
export const scrub = (value: unknown): unknown => scrubCardData(value, { drop: DROP, show: { threeDSHtmlContent: (page) => `[${page.length} characters]` } });
