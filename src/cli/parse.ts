// Turns command-line words into domain inputs. Every bad value is a CliError with a message an
// operator can act on; the CLI prints it on one line and exits 1.
import { isUuid } from '../domain/validation.ts';
import { IANAZone } from 'luxon';
import type { Mode } from '../generated/prisma/client.ts';
import { CURRENCIES, isCurrency, parseAmount, type Currency } from '../domain/money.ts';
import type { AccountCapabilities, PlanSettings } from '../domain/workspaces.ts';
import { BIN_PREFIX, CAPABILITIES, CAPABILITY_KEYS, CARD_SCHEMES, CARD_TYPES } from '../domain/settings.ts';
import { PROVIDER_IDS } from '../providers/catalog.ts';

export class CliError extends Error {}

export const PLAN_FEATURES = ['orders', 'saved_cards', 'subscriptions', 'payment_links', 'pay_by_link'] as const;
const PLAN_KEYS: Record<(typeof PLAN_FEATURES)[number], keyof PlanSettings> = {
  orders: 'orders',
  saved_cards: 'savedCards',
  subscriptions: 'subscriptions',
  payment_links: 'paymentLinks',
  pay_by_link: 'payByLink',
};

export { CAPABILITIES };

const SLUG = /^[a-z0-9][a-z0-9_-]{0,62}$/;

function list(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma list of names, or `all` / `none`, into a full on/off map (names not listed are off). */
function flags<N extends string, K extends string>(text: string, names: readonly N[], keys: Record<N, K>, what: string): Record<K, boolean> {
  const words = list(text.toLowerCase());
  const on = new Set<N>();
  if (words.length === 1 && words[0] === 'all') names.forEach((n) => on.add(n));
  else if (!(words.length === 1 && words[0] === 'none')) {
    for (const word of words) {
      if (!(names as readonly string[]).includes(word)) throw new CliError(`Unknown ${what} "${word}" (expected ${names.join(', ')}, all or none)`);
      on.add(word as N);
    }
    if (on.size === 0) throw new CliError(`No ${what} given (expected ${names.join(', ')}, all or none)`);
  }
  return Object.fromEntries(names.map((n) => [keys[n], on.has(n)])) as Record<K, boolean>;
}

export function parsePlan(text: string): PlanSettings {
  return flags(text, PLAN_FEATURES, PLAN_KEYS, 'plan feature');
}

export function parseCapabilities(text: string): AccountCapabilities {
  return flags(text, CAPABILITIES, CAPABILITY_KEYS, 'capability');
}

export function parseCurrencies(text: string): Currency[] {
  const words = list(text.toUpperCase());
  if (words.length === 0) throw new CliError(`No currency given (expected ${CURRENCIES.join(', ')})`);
  for (const word of words) if (!isCurrency(word)) throw new CliError(`Unknown currency "${word}" (expected ${CURRENCIES.join(', ')})`);
  return [...new Set(words)] as Currency[];
}

export function parseCurrency(text: string): Currency {
  const upper = text.trim().toUpperCase();
  if (!isCurrency(upper)) throw new CliError(`Unknown currency "${text}" (expected ${CURRENCIES.join(', ')})`);
  return upper;
}

export function parseMode(text: string): Mode {
  if (text !== 'test' && text !== 'live') throw new CliError(`Unknown mode "${text}" (expected test or live)`);
  return text;
}

export function parseTimeZone(text: string): string {
  if (!IANAZone.isValidZone(text)) throw new CliError(`Unknown time zone "${text}" (expected an IANA name such as Europe/Istanbul)`);
  return text;
}

/** A request limit: a whole number (0 turns the limit off) or `default` (the gateway's setting). */
export function parseLimit(text: string): number | 'default' {
  // Commander keeps the raw text when a parser returns null, so "default" stays a word here.
  if (text === 'default') return 'default';
  if (!/^\d{1,7}$/.test(text)) throw new CliError(`Invalid limit "${text}" (a whole number from 0 to 9999999, 0 = no limit, or "default")`);
  return Number(text);
}

export function parseSlug(text: string): string {
  if (!SLUG.test(text)) throw new CliError(`Invalid workspace slug "${text}" (lowercase letters, digits, "-" and "_", at most 63 characters)`);
  return text;
}

/** Tokens and rule ids are UUIDs; checking first keeps a typo from reaching the database as a type error. */
export function parseId(text: string, what: string): string {
  if (!isUuid(text)) throw new CliError(`Invalid ${what} "${text}"`);
  return text.toLowerCase();
}

export function parseMoney(text: string, option: string): bigint {
  const amount = parseAmount(text.trim());
  if (amount === null) throw new CliError(`Invalid amount for ${option}: "${text}" (expected digits with up to two decimals, e.g. 10.00)`);
  return amount;
}

const SCHEMES = CARD_SCHEMES;

export function parseScheme(text: string): string {
  const value = text.trim().toLowerCase();
  if (!(SCHEMES as readonly string[]).includes(value)) throw new CliError(`Unknown card scheme "${text}" (expected ${SCHEMES.join(', ')})`);
  return value;
}

export function parseCardType(text: string): string {
  const value = text.trim().toLowerCase();
  if (!(CARD_TYPES as readonly string[]).includes(value)) throw new CliError(`Unknown card type "${text}" (expected ${CARD_TYPES.join(', ')})`);
  return value;
}

export function parseBinPrefix(text: string): string {
  if (!BIN_PREFIX.test(text)) throw new CliError(`Invalid BIN prefix "${text}" (expected 1 to 8 digits)`);
  return text;
}

export function parseProvider(text: string): string {
  if (!(PROVIDER_IDS as readonly string[]).includes(text)) throw new CliError(`Unknown provider "${text}" (expected ${PROVIDER_IDS.join(', ')})`);
  return text;
}

/**
 * One `--credential` or `--setting` word, `name=value`, added to the ones before it (commander's
 * collector for a repeatable option). The value may hold "=" itself; the name may not be empty,
 * and one name given twice is a mistake, not an override.
 */
export function collectPair(option: string) {
  return (text: string, previous: Record<string, string> = {}): Record<string, string> => {
    const at = text.indexOf('=');
    const name = at > 0 ? text.slice(0, at).trim() : '';
    // Never echoes the word: it may be a secret typed without its name.
    if (!name) throw new CliError(`Invalid ${option}: expected name=value, e.g. ${option} api_key=…`);
    if (Object.hasOwn(previous, name)) throw new CliError(`${option} ${name} is given twice`);
    return { ...previous, [name]: text.slice(at + 1) };
  };
}
