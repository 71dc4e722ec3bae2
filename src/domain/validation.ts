// Shared field rules, written once with zod. Schemas report our message codes as their error
// text; `parseInput` turns zod issues into domain issues with the contract's field paths.
import { z } from 'zod';
import { CURRENCIES, parseAmount, parseRate } from './money.ts';
import { isMessageCode } from './messages.ts';
import { ValidationError, type Issue, type IssueList, type Path } from './errors.ts';
import { isIP } from 'node:net';

/** The one UUID pattern (contract convention 4), unanchored for route patterns (`/checkout/order/(<uuid>)`). */
export const UUID_SOURCE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** Tokens in bodies, paths, pages and the CLI. */
export const UUID_RE = new RegExp(`^${UUID_SOURCE}$`);
export const isUuid = (value: string): boolean => UUID_RE.test(value);

export const uuid = () => z.string({ error: 'invalid_type' }).regex(UUID_RE, { error: 'invalid_uuid' });

/**
 * The ceiling of every amount the gateway accepts anywhere (99,999,999,999.99): far above any
 * operation's own maximum, and well inside PostgreSQL's bigint, so no amount can fail to store.
 */
export const MAX_AMOUNT = 9_999_999_999_999n;

/** Amount strings of the contract (100, 100.1, 100.10), to bigint minor units, at most `max`. */
export const amount = (max: bigint = MAX_AMOUNT) =>
  z.union([z.string(), z.number()], { error: 'amount_format' }).transform((v, ctx) => {
    const minor = parseAmount(v);
    if (minor === null) {
      ctx.addIssue({ code: 'custom', message: 'amount_format' });
      return z.NEVER;
    }
    if (minor > max) {
      ctx.addIssue({ code: 'custom', message: 'amount_too_large' });
      return z.NEVER;
    }
    return minor;
  });

/** VAT rates 0-100 with at most two decimals, to hundredths of a percent. */
export const rate = () =>
  z.union([z.string(), z.number()], { error: 'invalid_type' }).transform((v, ctx) => {
    const hundredths = parseRate(v);
    if (hundredths === null) {
      ctx.addIssue({ code: 'custom', message: 'rate_format' });
      return z.NEVER;
    }
    return hundredths;
  });

export const currency = () => z.enum(CURRENCIES, { error: 'currency_invalid' }).default('TRY');

/** channel_reference of payments, orders, subscriptions, links: <=255 chars with a digit. */
export const orderNumberReference = () =>
  z
    .string({ error: 'invalid_type' })
    .min(1, { error: 'required' })
    .max(255, { error: 'too_long' })
    .regex(/\d/, { error: 'reference_needs_digit' });

export const text = (max = 255) => z.string({ error: 'invalid_type' }).max(max, { error: 'too_long' });

export const httpUrl = () =>
  z
    .string({ error: 'invalid_type' })
    .max(2048, { error: 'too_long' })
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, { error: 'invalid_url' });

export const ip = () => z.string({ error: 'invalid_type' }).refine((v) => isIP(v) !== 0, { error: 'invalid_ip' });

/** Runs a schema over raw input; every failing field becomes an issue at its path. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const unsafe = unstorableText(input);
  if (unsafe.length > 0) throw new ValidationError(unsafe.map((path) => ({ path, code: 'text_invalid_characters' as const })));
  // reportInput: zod drops `issue.input` otherwise, and toIssue needs it to tell "missing" from "wrong".
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.map(toIssue));
}

/**
 * parseInput for one part of a larger input (an account's credentials, its settings): the part's
 * issues join `issues` under `prefix` (`credentials.api_key`), so one answer lists every bad field.
 * Undefined when the part failed.
 */
export function parsePart<S extends z.ZodType>(schema: S, input: unknown, prefix: Path, issues: IssueList): z.output<S> | undefined {
  try {
    return parseInput(schema, input);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    for (const issue of err.issues) issues.add([...prefix, ...issue.path], issue.code, issue.params);
    return undefined;
  }
}

/**
 * Paths of strings PostgreSQL cannot store or search: a NUL character ("invalid byte sequence
 * for encoding UTF8: 0x00") or a lone UTF-16 surrogate (not valid UTF-8). Checked for every
 * input before its schema, so no operation can reach the database with one.
 */
export function unstorableText(input: unknown, path: Array<string | number> = [], found: Array<Array<string | number>> = []): Array<Array<string | number>> {
  // One path, grown and shrunk on the way, copied only for a string found: every request walks here.
  if (typeof input === 'string') {
    if (input.includes('\u0000') || !input.isWellFormed()) found.push([...path]);
  } else if (Array.isArray(input)) {
    for (let i = 0; i < input.length; i++) {
      path.push(i);
      unstorableText(input[i], path, found);
      path.pop();
    }
  } else if (input !== null && typeof input === 'object') {
    for (const key of Object.keys(input)) {
      path.push(key);
      unstorableText((input as Record<string, unknown>)[key], path, found);
      path.pop();
    }
  }
  return found;
}

function toIssue(issue: z.core.$ZodIssue): Issue {
  const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && (issue as { input?: unknown }).input == null) {
    return { path, code: 'required' };
  }
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return { path, code: 'too_long', params: { max: Number(issue.maximum) } };
  }
  if (issue.code === 'unrecognized_keys') {
    return { path: [...path, ...issue.keys.slice(0, 1)], code: 'unknown_field' };
  }
  const named = isMessageCode(issue.message) ? issue.message : null;
  if (issue.code === 'invalid_value' && (named === null || named === 'value_not_allowed')) {
    // Every refusal of a value outside a fixed list names the list, whatever the schema's own error says.
    return { path, code: 'value_not_allowed', params: { allowed: issue.values.map(String).join(', ') } };
  }
  return { path, code: named ?? 'invalid_type' };
}
