// The rules of create-payment-link and update-payment-link (contract: create-payment-link table,
// Errors, Limits). Fields a type ignores are dropped here, so a link stores only what it uses.
import { z } from 'zod';
import { DateTime } from 'luxon';
import { CURRENCIES, type Currency } from '../money.ts';
import { amount, orderNumberReference, parseInput, rate, text, uuid } from '../validation.ts';
import { IssueList, type Path } from '../errors.ts';
import { MAX_CARD_PAYMENT } from '../payments/attempt.ts';

export const AMOUNT_TYPES = ['fixed', 'custom', 'predefined', 'predefined_and_custom'] as const;
export type AmountType = (typeof AMOUNT_TYPES)[number];
export const TAX_MODES = ['inclusive', 'exclusive'] as const;
export const CURRENCY_TYPES = ['fixed', 'selectable'] as const;
export const MAX_LINK_ITEMS = 100;
export const MAX_PREDEFINED_AMOUNTS = 10;
/** The contract's ceiling for a link's total and every amount a payer may be asked for. */
export const MAX_LINK_AMOUNT = MAX_CARD_PAYMENT;
const MAX_QUANTITY = 999_999;

const oneOf = <T extends readonly string[]>(values: T, code: 'link_amount_type_invalid' | 'link_tax_mode_invalid' | 'link_currency_type_invalid') =>
  z.string({ error: 'invalid_type' }).refine((v): v is T[number] => (values as readonly string[]).includes(v), { error: code }) as unknown as z.ZodType<T[number]>;

const itemInput = z.strictObject(
  {
    reference: text().nullish(),
    name: text().min(1, { error: 'required' }),
    quantity: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(1, { error: 'quantity_range' }).max(MAX_QUANTITY, { error: 'quantity_range' }).nullish(),
    unitAmount: amount(),
    taxRate: rate().nullish(),
  },
  { error: 'invalid_type' },
);

const currencyCode = z.enum(CURRENCIES, { error: 'currency_invalid' });

const linkFields = {
  currency: currencyCode,
  amountType: oneOf(AMOUNT_TYPES, 'link_amount_type_invalid').nullish(),
  items: z.array(itemInput, { error: 'invalid_type' }).nullish(),
  itemName: text().min(1, { error: 'required' }).nullish(),
  predefinedAmounts: z.array(amount(), { error: 'invalid_type' }).nullish(),
  taxRate: rate().nullish(),
  taxMode: oneOf(TAX_MODES, 'link_tax_mode_invalid').nullish(),
  currencyType: oneOf(CURRENCY_TYPES, 'link_currency_type_invalid').nullish(),
  currencies: z.array(currencyCode, { error: 'invalid_type' }).nullish(),
  reference: orderNumberReference().nullish(),
  description: text().nullish(),
  paymentProviderToken: uuid().nullish(),
  emailsCustomer: z.boolean({ error: 'invalid_boolean' }).nullish(),
  expiresAt: z.string({ error: 'invalid_type' }).nullish(),
  isActive: z.boolean({ error: 'invalid_boolean' }).nullish(),
};

// Strict: the contract makes any other key inside `payment_link` a 422.
export const createInput = z.object({ paymentLink: z.strictObject(linkFields, { error: 'required' }) });
export const updateInput = z.object({ token: uuid(), paymentLink: z.strictObject({ ...linkFields, currency: currencyCode.nullish() }, { error: 'required' }) });

export interface LinkItem {
  position: number;
  reference: string | null;
  name: string;
  quantity: number;
  unitAmount: bigint;
  /** Hundredths of a percent (18.00 % = 1800), or null. */
  taxRate: number | null;
}

/** A link's definition after the rules: what is stored. */
export interface LinkDefinition {
  currency: Currency;
  amountType: AmountType;
  items: LinkItem[];
  itemName: string | null;
  predefinedAmounts: bigint[];
  taxRate: number | null;
  taxMode: 'inclusive' | 'exclusive';
  currencyType: 'fixed' | 'selectable';
  currencies: Currency[];
  reference: string | null;
  description: string | null;
  paymentProviderToken: string | null;
  emailsCustomer: boolean;
  /** The last payable day, YYYY-MM-DD in the workspace time zone. */
  expiresOn: string | null;
  isActive: boolean;
}

type RawLink = z.output<typeof createInput>['paymentLink'];

export function parseCreateLink(raw: unknown, timeZone: string, now: Date): LinkDefinition {
  const { paymentLink } = parseInput(createInput, raw);
  return checkLink(paymentLink, timeZone, now);
}

/**
 * update-payment-link: the fields sent replace the stored ones and the result obeys the create
 * rules as a whole (a link switched to `custom` needs an item name, …).
 */
export function parseUpdateLink(raw: unknown, current: LinkDefinition, timeZone: string, now: Date): { token: string; link: LinkDefinition } {
  const { token, paymentLink } = parseInput(updateInput, raw);
  const sent = Object.fromEntries(Object.entries(paymentLink).filter(([, v]) => v !== undefined)) as Partial<RawLink>;
  const merged: RawLink = {
    currency: current.currency,
    amountType: current.amountType,
    items: current.items.map(({ reference, name, quantity, unitAmount, taxRate }) => ({ reference, name, quantity, unitAmount, taxRate })),
    itemName: current.itemName,
    predefinedAmounts: current.predefinedAmounts,
    taxRate: current.taxRate,
    taxMode: current.taxMode,
    currencyType: current.currencyType,
    currencies: current.currencies.filter((c) => c !== current.currency),
    reference: current.reference,
    description: current.description,
    paymentProviderToken: current.paymentProviderToken,
    emailsCustomer: current.emailsCustomer,
    // An unchanged past expiry stays as it is; only a newly sent day must not be in the past.
    expiresAt: null,
    isActive: current.isActive,
    ...sent,
  } as RawLink;
  const link = checkLink({ ...merged, currency: merged.currency ?? current.currency }, timeZone, now);
  return { token, link: { ...link, expiresOn: 'expiresAt' in sent ? link.expiresOn : current.expiresOn } };
}

function checkLink(l: RawLink, timeZone: string, now: Date): LinkDefinition {
  const issues = new IssueList();
  const base: Path = ['paymentLink'];
  const amountType = l.amountType ?? 'fixed';
  const fixed = amountType === 'fixed';
  const items = fixed ? checkItems(l.items ?? [], issues) : [];
  const predefined = amountType === 'predefined' || amountType === 'predefined_and_custom' ? checkPredefined(l.predefinedAmounts ?? [], issues) : [];
  if (!fixed && !l.itemName) issues.add([...base, 'itemName'], 'link_item_name_required');
  const currencyType = l.currencyType ?? 'fixed';
  const currencies = currencyType === 'selectable' ? checkCurrencies(l.currency, l.currencies ?? [], issues) : [];
  const expiresOn = l.expiresAt == null ? null : checkExpiry(l.expiresAt, timeZone, now, issues);
  issues.throwIfAny();
  return {
    currency: l.currency,
    amountType,
    items,
    itemName: fixed ? null : (l.itemName ?? null),
    predefinedAmounts: predefined,
    taxRate: fixed ? null : l.taxRate == null ? null : Number(l.taxRate),
    taxMode: l.taxMode ?? 'inclusive',
    currencyType,
    currencies,
    reference: l.reference ?? null,
    description: l.description ?? null,
    paymentProviderToken: l.paymentProviderToken ?? null,
    emailsCustomer: l.emailsCustomer ?? false,
    expiresOn,
    isActive: l.isActive ?? true,
  };
}

function checkItems(items: NonNullable<RawLink['items']>, issues: IssueList): LinkItem[] {
  const path: Path = ['paymentLink', 'items'];
  if (items.length === 0) issues.add(path, 'link_items_required');
  if (items.length > MAX_LINK_ITEMS) issues.add(path, 'too_many_items', { max: MAX_LINK_ITEMS });
  let total = 0n;
  const checked = items.map((item, i) => {
    const quantity = item.quantity ?? 1;
    if (item.unitAmount <= 0n) issues.add([...path, i, 'unitAmount'], 'amount_positive');
    else if (item.unitAmount > MAX_LINK_AMOUNT) issues.add([...path, i, 'unitAmount'], 'link_amount_too_large');
    total += item.unitAmount * BigInt(quantity);
    return { position: i, reference: item.reference ?? null, name: item.name, quantity, unitAmount: item.unitAmount, taxRate: item.taxRate == null ? null : Number(item.taxRate) };
  });
  if (!issues.has([...path]) && total > MAX_LINK_AMOUNT) issues.add(path, 'link_amount_too_large');
  return checked;
}

function checkPredefined(amounts: bigint[], issues: IssueList): bigint[] {
  const path: Path = ['paymentLink', 'predefinedAmounts'];
  if (amounts.length === 0) issues.add(path, 'link_predefined_required');
  if (amounts.length > MAX_PREDEFINED_AMOUNTS) issues.add(path, 'too_many_items', { max: MAX_PREDEFINED_AMOUNTS });
  const seen = new Set<bigint>();
  amounts.forEach((a, i) => {
    if (a <= 0n) issues.add([...path, i], 'amount_positive');
    else if (a > MAX_LINK_AMOUNT) issues.add([...path, i], 'link_amount_too_large');
    else if (seen.has(a)) issues.add([...path, i], 'link_predefined_repeated');
    seen.add(a);
  });
  return amounts;
}

/** `selectable`: at least one currency besides `currency`, no repeats; `currency` always offered. */
function checkCurrencies(currency: Currency, others: Currency[], issues: IssueList): Currency[] {
  const path: Path = ['paymentLink', 'currencies'];
  if (new Set(others).size !== others.length) issues.add(path, 'link_currencies_repeated');
  else if (!others.some((c) => c !== currency)) issues.add(path, 'link_currencies_required');
  return [currency, ...others.filter((c) => c !== currency)];
}

/** A day in the workspace time zone, today or later. */
function checkExpiry(day: string, timeZone: string, now: Date, issues: IssueList): string | null {
  const path: Path = ['paymentLink', 'expiresAt'];
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(day) ? DateTime.fromISO(day, { zone: timeZone }) : null;
  if (!parsed?.isValid) {
    issues.add(path, 'date_format');
    return null;
  }
  const today = DateTime.fromJSDate(now, { zone: timeZone }).toISODate()!;
  if (day < today) issues.add(path, 'link_expires_past');
  return day;
}
