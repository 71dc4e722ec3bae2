// How card numbers are kept out of logs, exchange records and audit entries, for the whole
// gateway. Two rules, nothing else:
// - a card field (by its name) holding a card number keeps its last four digits;
// - in any other text, a run of 12-19 digits (as typed: together, or grouped with single spaces
//   or dashes) that passes the Luhn check is masked to its first six and last four digits.
// The banks' own references (EST's HostRefNum, GVP's RetrefNum, …) are long digit runs too, and
// support needs them whole to talk to the bank: a reference field is never masked, and a run that
// fails the Luhn check is not taken for a card number (a card typed into a card field is masked
// whatever its check digit). Tokens that stand for a card (EST's 3D `md`) are
// not card numbers either and stay readable.
import { luhnValid } from './cards.ts';

/** Field names that hold a card number, compared without case. */
const CARD_FIELDS = new Set(['number', 'cardnumber', 'card_number', 'pan', 'cardnumbermasked']);

/** Field names that hold a bank's or PSP's own numbers, never a card's, compared without case. */
const REFERENCE_FIELDS = new Set([
  'orderid', 'groupid', 'transid', 'hostrefnum', 'authcode', // EST
  'retrefnum', 'originalretrefnum', 'batchnum', 'sequencenum', // GVP
  'paymentid', 'paymenttransactionid', 'conversationid', 'hostreference', 'systemtime', // iyzico
]);

export const isCardField = (key: string): boolean => CARD_FIELDS.has(key.toLowerCase());
export const isReferenceField = (key: string): boolean => REFERENCE_FIELDS.has(key.toLowerCase());

const isCardLength = (digits: string): boolean => digits.length >= 12 && digits.length <= 19;

/** Digit groups joined by single spaces or dashes (a card as typed), not touching other digits. */
const DIGIT_GROUPS = /(?<![\d])\d+(?:[ -]\d+)*(?!\d)/g;

/**
 * A UUID (a payment's, an account's id): its digit groups are an identifier, never a card, even when
 * they pass the Luhn check (`58097298-9493-497d-…`), and support needs it whole.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * Every card number in `text` as first six, ******, last four. A group sequence may hold a card
 * beside other numbers ("ref 12345 4111 1111 1111 1111"): the longest run of whole groups that is
 * a card, from each group on, is the one masked.
 */
export function maskCardNumbers(text: string): string {
  let out = '';
  let from = 0;
  for (const id of text.matchAll(UUID)) {
    out += maskRuns(text.slice(from, id.index)) + id[0];
    from = id.index + id[0].length;
  }
  return out + maskRuns(text.slice(from));
}

function maskRuns(text: string): string {
  return text.replace(DIGIT_GROUPS, (run) => {
    const parts = run.split(/([ -])/);
    const groups = parts.filter((_, i) => i % 2 === 0);
    const out: string[] = [];
    for (let i = 0; i < groups.length; ) {
      const end = cardEndingAt(groups, i);
      if (end < 0) {
        out.push(i === 0 ? groups[0]! : parts[2 * i - 1]! + groups[i]!);
        i += 1;
        continue;
      }
      const digits = groups.slice(i, end + 1).join('');
      out.push((i === 0 ? '' : parts[2 * i - 1]!) + `${digits.slice(0, 6)}******${digits.slice(-4)}`);
      i = end + 1;
    }
    return out.join('');
  });
}

/** The last group of the longest card number that starts at group `from`, or -1. */
function cardEndingAt(groups: readonly string[], from: number): number {
  let digits = '';
  let found = -1;
  for (let j = from; j < groups.length && digits.length <= 19; j += 1) {
    digits += groups[j]!;
    if (isCardLength(digits) && luhnValid(digits)) found = j;
  }
  return found;
}

/**
 * A card field's value: a card number (12-19 digits, maybe typed with spaces or dashes) keeps its
 * last four digits, whatever its check digit; any other value (empty, already masked by the bank,
 * a token standing for the card) is text like any other.
 */
export function maskCardField(value: string): string {
  const digits = /^\d[\d -]*\d$/.test(value) ? value.replace(/[ -]/g, '') : '';
  return isCardLength(digits) ? `${'*'.repeat(digits.length - 4)}${digits.slice(-4)}` : maskCardNumbers(value);
}

/** A string under `key`, as a log or record may show it. */
export function maskCardValue(key: string, value: string): string {
  if (isCardField(key)) return maskCardField(value);
  return isReferenceField(key) ? value : maskCardNumbers(value);
}

export interface ScrubRules {
  /** Fields whose text is replaced by `[redacted]` (a connector's secrets and personal details). */
  drop?: ReadonlySet<string>;
  /** Fields shown another way (e.g. a page by its length). */
  show?: Readonly<Record<string, (value: string) => string>>;
}

/**
 * A deep copy of `value` with card numbers masked (above) and the fields the rules name replaced;
 * an empty dropped field stays empty (it says the provider sent nothing).
 */
export function scrubCardData(value: unknown, rules: ScrubRules = {}, key = ''): unknown {
  if (typeof value === 'string') {
    if (rules.drop?.has(key)) return value === '' ? '' : '[redacted]';
    const show = Object.hasOwn(rules.show ?? {}, key) ? rules.show![key] : undefined;
    return show ? show(value) : maskCardValue(key, value);
  }
  if (Array.isArray(value)) return value.map((item) => scrubCardData(item, rules));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubCardData(v, rules, k)]));
  }
  return value;
}
