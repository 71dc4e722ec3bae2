// What the client hands to a logger never carries card data or secrets: the card number keeps its
// last four digits and GVP's references stay whole (domain/card-masking.ts), the CVV2 and expiry
// go, so do HashData (a function of the password) and the shopper's email and name.
import { scrubCardData } from '../../domain/card-masking.ts';

const DROP = new Set(['CVV2', 'ExpireDate', 'HashData', 'EmailAddress', 'CardHolderName']);

/** A deep copy of a GVP request or answer that is safe to log. */
export const scrub = (value: unknown): unknown => scrubCardData(value, { drop: DROP });
