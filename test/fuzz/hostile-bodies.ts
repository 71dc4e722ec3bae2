// Generated hostile request bodies (fast-check) for every REST operation, and the checks every
// answer to them must pass: never a 5xx (501 only for operations not built yet), the contract's
// error body on every 4xx, no row written by a rejected request, and a body with a key no
// operation knows refused (unknown keys answer 422; they are not dropped). Used by the bounded test
// (test/rest/fuzz.test.ts) and the long run (`npm run fuzz`).
import fc from 'fast-check';
import type pg from 'pg';
import { routes } from '../../src/rest/routes.ts';

export interface FuzzContext {
  channelToken: string;
  accountToken: string;
  paymentToken: string;
  savedCardToken: string;
  customerReference: string;
}

const card = { holder_name: 'AYSE YILMAZ', number: '4111111111111111', security_code: '123', expiry_month: '12', expiry_year: '2030' };
const customer = (c: FuzzContext) => ({ channel_reference: c.customerReference, firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com' });
const transaction = (c: FuzzContext) => ({ channel_token: c.channelToken, channel_reference: 'FUZZ-1', amount: '10.00', currency: 'TRY', installment_number: 1, ip: '203.0.113.7' });

/** A valid body per operation, which the generators then break. */
export function templates(c: FuzzContext): Record<string, Record<string, unknown>> {
  return {
    'secure-payment': { transaction: { ...transaction(c), callback_url: 'http://127.0.0.1:9/cb' }, customer: customer(c), card },
    'regular-payment': { transaction: transaction(c), customer: customer(c), card },
    'retrieve-payment': { transaction: { token: c.paymentToken } },
    'refund-payment': { transaction: { token: c.paymentToken }, amount: '0.01' },
    'cancel-payment': { transaction: { token: c.paymentToken } },
    'retrieve-payments': { channel_reference: 'FUZZ-1' },
    'retrieve-bin': { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'TRY', payment_provider_token: c.accountToken } },
    'save-card': { saved_card: { channel_token: c.channelToken }, customer: customer(c), card },
    'saved-cards': { customer: { channel_token: c.channelToken, channel_reference: c.customerReference } },
    'default-saved-card': { customer: { channel_token: c.channelToken, channel_reference: c.customerReference }, saved_card: { token: c.savedCardToken } },
    'delete-saved-card': { customer: { channel_token: c.channelToken, channel_reference: c.customerReference }, saved_card: { token: c.savedCardToken } },
    'save-product': { product: { channel_token: c.channelToken, channel_reference: 'P-FUZZ', name: 'Mug', type: 'recurring', amount: '10.00', tax_rate: '18', period: 'monthly' } },
    'order-payment': {
      order: { channel_token: c.channelToken, channel_reference: 'O-FUZZ-1', success_url: 'http://127.0.0.1:9/ok', items: [{ channel_reference: 'X-1', name: 'Tea', unit_amount: '5.00', quantity: 2, tax_rate: 8 }] },
      customer: customer(c),
    },
    'retrieve-orders': { channel_reference: 'O-FUZZ-1' },
    'subscription-payment': { subscription: { channel_token: c.channelToken, channel_reference: 'S-1', items: [{ channel_reference: 'P-FUZZ' }], success_url: 'http://127.0.0.1:9/ok' }, customer: customer(c) },
    'retrieve-subscription': { subscription: { token: c.paymentToken } },
    'retrieve-subscriptions': { channel_reference: 'S-1' },
    'cancel-subscription': { subscription: { token: c.paymentToken } },
    'create-payment-link': { payment_link: { currency: 'TRY', items: [{ name: 'Tea', quantity: 1, unit_amount: '5.00', tax_rate: 8 }] } },
    'update-payment-link': { payment_link: { is_active: false } },
    'retrieve-payment-links': { reference: 'LINK1' },
    'retrieve-link-payments': { token: c.paymentToken },
  };
}

export const OPERATIONS = [...routes.keys()];

/** Values that have broken or could break a layer: wrong types, odd strings, huge numbers. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 1e308, 9223372036854776000, Number.MAX_SAFE_INTEGER + 2, [], {}, [[[]]], ''),
  fc.constantFrom(
    'a\u0000b', '\ud83d', '\udfff\ud800', '4111111111111111', '99999999999999999999.99', '1e309', 'NaN', '-0.01', '0.001', '10000000.01',
    '../../etc/passwd', '<script>alert(1)</script>', "' OR 1=1 --", '%s%n', '\u202e', 'ﷺ', '🙂'.repeat(300), ' ', '2024-02-30', '00000000-0000-0000-0000-000000000000',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 256, max: 20_000 }).map((n) => 'x'.repeat(n)),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
);

const hostileKey = fc.oneof(fc.constantFrom('constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'card', 'token', '', 'a.b', 'A_B'), fc.string({ maxLength: 12 }));

type Json = Record<string, unknown> | unknown[];

/** The paths of every value in a body, objects and arrays included. */
function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [path];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...path, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...path, k]));
  return out;
}

function setAt(root: Json, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: Json = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}

function nest(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** One mutation of a template, as the JSON text sent (duplicate keys need text, not objects). */
export interface HostileBody {
  name: string;
  raw: string;
  /** The body carries a key no operation knows: it must not be taken. */
  mustRefuse?: boolean;
}

export function hostileBody(template: Record<string, unknown>): fc.Arbitrary<HostileBody> {
  const paths = pathsOf(template);
  const replace = fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, value]) => ({ name: `set ${path.join('.') || '(root)'}`, raw: JSON.stringify(setAt(template, path, value)) }));
  const remove = fc.constantFrom(...paths.filter((p) => p.length > 0)).map((path) => ({ name: `drop ${path.join('.')}`, raw: JSON.stringify(setAt(template, path, undefined)) }));
  const addKey = fc.tuple(fc.constantFrom(...paths.filter((p) => { const v = p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], template); return v !== null && typeof v === 'object' && !Array.isArray(v); })), hostileKey, hostileValue).map(([path, key, value]) => {
    // Written as text so that "__proto__" arrives as a real key.
    const raw = JSON.stringify(setAt(template, path, { __marker__: 1, ...(path.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], template) as object) }));
    return { name: `add key ${JSON.stringify(key)} at ${path.join('.') || '(root)'}`, raw: raw.replace('"__marker__":1', `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`) };
  });
  const duplicate = fc.tuple(fc.constantFrom(...Object.keys(template)), hostileValue).map(([key, value]) => ({ name: `duplicate key ${key}`, raw: `{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'},${JSON.stringify(template).slice(1)}` }));
  const deep = fc.integer({ min: 20, max: 60 }).map((d) => ({ name: `nested ${d} deep`, raw: JSON.stringify({ ...template, extra: nest(d) }), mustRefuse: true }));
  const wide = fc.integer({ min: 100, max: 20_000 }).map((n) => ({ name: `${n} extra keys`, raw: JSON.stringify({ ...template, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])) }), mustRefuse: true }));
  const notObject = fc.constantFrom('[]', '"x"', '1', 'null', '{', '', '{"a":1}}', '\u0000').map((raw) => ({ name: `body ${JSON.stringify(raw)}`, raw }));
  return fc.oneof({ weight: 6, arbitrary: replace }, { weight: 2, arbitrary: remove }, { weight: 3, arbitrary: addKey }, { weight: 1, arbitrary: duplicate }, { weight: 1, arbitrary: deep }, { weight: 1, arbitrary: wide }, { weight: 1, arbitrary: notObject });
}

/** Row counts of every table of the gateway's schema, in one statement. */
export async function tableCounts(client: pg.Client): Promise<Record<string, number>> {
  const tables = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE '\\_%' ORDER BY 1`);
  const sql = `SELECT ${tables.rows.map((t, i) => `(SELECT count(*) FROM public."${t.name}")::int AS c${i}`).join(', ')}`;
  const row = (await client.query(sql)).rows[0] as Record<string, number>;
  return Object.fromEntries(tables.rows.map((t, i) => [t.name, row[`c${i}`]!]));
}

export interface Verdict {
  ok: boolean;
  problem?: string;
}

/** What every answer to a hostile body must satisfy. */
export function judge(operation: string, status: number, text: string, before: Record<string, number>, after: Record<string, number>, mustRefuse = false): Verdict {
  const pending = routes.get(operation)?.document === null;
  if (status >= 500 && !(pending && status === 501)) return { ok: false, problem: `status ${status}` };
  if (mustRefuse && status < 400) return { ok: false, problem: `a key no operation knows was taken (status ${status})` };
  if (status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, problem: 'error body is not JSON' };
    }
    const b = body as { result?: { successful?: unknown; message?: unknown }; errors?: unknown };
    const shaped =
      b.result?.successful === false &&
      typeof b.result.message === 'string' &&
      b.errors !== null &&
      typeof b.errors === 'object' &&
      !Array.isArray(b.errors) &&
      Object.values(b.errors as object).every((list) => Array.isArray(list) && list.every((m) => typeof m === 'string'));
    if (!shaped) return { ok: false, problem: `error body shape: ${text.slice(0, 200)}` };
    const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
    if (changed.length > 0) return { ok: false, problem: `rejected request (${status}) wrote to ${changed.join(', ')}` };
  }
  return { ok: true };
}
