// GET /dashboard/export/<list>.csv?<the list's filters> (payments, orders, subscriptions, links,
// customers, products, notifications): the filtered list as CSV, streamed. Authorised exactly as the list: the same bearer token or session cookie, the same workspace scope
// (graphql/lists.ts `listWhere`; support tokens read every workspace, or the one named by
// workspaceSlug). Rows are read in keyset batches and written as they come, with the response's
// back-pressure, so the file is never held in memory. csv-stringify does the quoting (RFC 4180,
// CRLF); cells that a spreadsheet would run as formulas are made inert (domain/payments/export.ts).
import type http from 'node:http';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Prisma } from '../generated/prisma/client.ts';
import { NotificationStatus, OrderStatus, PaymentMoneyStatus, PaymentStatus, SubscriptionStatus } from '../generated/prisma/client.ts';
import type { Services } from '../domain/services.ts';
import type { Tx } from '../db/client.ts';
import { inertCell } from '../domain/exports.ts';
import { PAYMENT_CSV_COLUMNS, paymentRecords } from '../domain/payments/export.ts';
import { ORDER_CSV_COLUMNS, orderRecords } from '../domain/orders/export.ts';
import { SUBSCRIPTION_CSV_COLUMNS, subscriptionRecords } from '../domain/subscriptions/export.ts';
import { LINK_CSV_COLUMNS, linkRecords } from '../domain/payment-links/export.ts';
import { CUSTOMER_CSV_COLUMNS, customerRecords } from '../domain/customers-export.ts';
import { PRODUCT_CSV_COLUMNS, productRecords } from '../domain/products-export.ts';
import { NOTIFICATION_CSV_COLUMNS, notificationRecords } from '../domain/webhooks/export.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { isRefusal, resolveViewer } from '../graphql/session-viewer.ts';
import { mustEnrol } from '../graphql/second-factor.ts';
import { auditSupportRead } from '../graphql/audit-recorder.ts';
import { listWhere, paymentLinkWhere, type ListArgs, type ListFilter } from '../graphql/lists.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { errorBody, simpleError, type FieldError } from '../rest/errors.ts';
import { currentContext } from '../observability/context.ts';

/** One exportable list: its filter keys (as the list's GraphQL filter names them) and its records. */
interface ListExport {
  /** Keys whose values must be one of these (repeatable, like the GraphQL list of enum values). */
  enums: Record<string, readonly string[]>;
  /** Free-text keys, passed on as the list passes them. */
  texts: readonly string[];
  /** Yes/no keys: `true` or `false`, like the GraphQL Boolean. */
  booleans?: readonly string[];
  /** Whether the list filters by creation time (`createdFrom`/`createdTo`). */
  created?: false;
  columns: readonly string[];
  /** The rows the filter selects; the list's own rule when it has one (links: open means not expired). */
  where?: (ctx: GraphQLContext, args: ListArgs) => object;
  /** `now` is the gateway's clock at the request, for columns that depend on it (a link's `is_active`). */
  records: (db: Tx, where: object, signal: AbortSignal, now: Date) => AsyncGenerator<Record<string, string>>;
}

const EXPORTS: Record<string, ListExport> = {
  payments: {
    enums: { status: Object.values(PaymentStatus), paymentStatus: Object.values(PaymentMoneyStatus) },
    texts: ['channelReference', 'cardLastFour'],
    columns: PAYMENT_CSV_COLUMNS,
    records: (db, where, signal) => paymentRecords(db, where as Prisma.PaymentWhereInput, signal),
  },
  orders: {
    enums: { status: Object.values(OrderStatus) },
    texts: ['channelReference'],
    columns: ORDER_CSV_COLUMNS,
    records: (db, where, signal) => orderRecords(db, where as Prisma.OrderWhereInput, signal),
  },
  subscriptions: {
    enums: { status: Object.values(SubscriptionStatus) },
    texts: ['channelReference'],
    columns: SUBSCRIPTION_CSV_COLUMNS,
    records: (db, where, signal) => subscriptionRecords(db, where as Prisma.SubscriptionWhereInput, signal),
  },
  links: {
    enums: {},
    texts: ['reference'],
    booleans: ['isActive'],
    where: paymentLinkWhere,
    columns: LINK_CSV_COLUMNS,
    records: (db, where, signal, now) => linkRecords(db, where as Prisma.PaymentLinkWhereInput, now, signal),
  },
  customers: {
    enums: {},
    texts: ['channelToken', 'channelReference'],
    created: false,
    columns: CUSTOMER_CSV_COLUMNS,
    records: (db, where, signal) => customerRecords(db, where as Prisma.CustomerWhereInput, signal),
  },
  products: {
    enums: {},
    texts: ['channelToken', 'channelReference'],
    booleans: ['isActive'],
    columns: PRODUCT_CSV_COLUMNS,
    records: (db, where, signal) => productRecords(db, where as Prisma.ProductWhereInput, signal),
  },
  notifications: {
    enums: { status: Object.values(NotificationStatus) },
    texts: ['recordToken'],
    columns: NOTIFICATION_CSV_COLUMNS,
    records: (db, where, signal) => notificationRecords(db, where as Prisma.NotificationWhereInput, signal),
  },
};

const EXPORT_PATH = /^\/dashboard\/export\/(\w+)\.csv$/;

/** Answers every address under /dashboard/export/ (an unknown list: 404); false for every other request. */
export async function handleExport(services: Services, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  if (!url.pathname.startsWith('/dashboard/export/')) return false;
  const lang = languageFrom(req.headers['accept-language']);
  const name = EXPORT_PATH.exec(url.pathname)?.[1];
  const list = name && Object.hasOwn(EXPORTS, name) ? EXPORTS[name] : undefined;
  if (!name || !list) {
    sendJson(res, 404, simpleError('not_found', lang));
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return true;
  }
  // A GET changes nothing: a session cookie alone may read it (another site cannot read the answer).
  const viewer = await resolveViewer(services, { authorization: req.headers.authorization, cookie: req.headers.cookie, needsCsrf: false });
  if (isRefusal(viewer) || viewer.kind === 'anonymous' || viewer.kind === 'merchant') {
    sendJson(res, 401, simpleError(isRefusal(viewer) ? viewer.code : 'auth_invalid_token', lang));
    return true;
  }
  if (mustEnrol(viewer)) {
    sendJson(res, 403, simpleError('two_factor_enrolment_required', lang));
    return true;
  }
  const parsed = listArgsOf(list, url.searchParams, lang);
  if ('errors' in parsed) {
    sendJson(res, 422, errorBody(parsed.errors));
    return true;
  }
  const ctx: GraphQLContext = { services, viewer, lang };
  const log = currentContext();
  if (log && viewer.kind === 'dashboard') log.workspace = viewer.workspace.slug;
  const where = (list.where ?? listWhere<object>)(ctx, parsed.args);
  await auditSupportRead(ctx, `export:${name}.csv`, parsed.args);
  const slug = viewer.kind === 'dashboard' ? viewer.workspace.slug : (parsed.args.workspaceSlug ?? 'all');
  await stream(services, list, where, req, res, `${name}-${slug.replace(/[^\w-]/g, '_')}-${services.clock.now().toISOString().slice(0, 10)}.csv`);
  return true;
}

async function stream(services: Services, list: ListExport, where: object, req: http.IncomingMessage, res: http.ServerResponse, filename: string): Promise<void> {
  res.writeHead(200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${filename}"`,
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  const csv = stringify({ header: true, columns: [...list.columns], record_delimiter: 'windows', cast: { string: inertCell } });
  // The client leaving stops the reading between batches.
  const stop = new AbortController();
  res.once('close', () => stop.abort());
  const sent = pipeline(csv, res).catch(() => stop.abort());
  try {
    for await (const record of list.records(services.db, where, stop.signal, services.clock.now())) {
      if (!csv.write(record)) await Promise.race([once(csv, 'drain'), once(stop.signal, 'abort')]);
      if (stop.signal.aborted) break;
    }
    csv.end();
  } catch (err) {
    // Headers are gone: cut the transfer so that the client sees a failed download, never a short file.
    currentContext()?.logger?.error('export failed', { error: (err as Error).message });
    csv.destroy();
    res.destroy();
  }
  await sent;
}

/**
 * A list's filter from the query string, under the names of its GraphQL input (enum keys may
 * repeat; yes/no keys are `true` or `false`; `createdFrom`/`createdTo` are ISO 8601 instants for
 * `created`, where the list has it), and `workspaceSlug`.
 * Unknown keys and values outside the enums are refused by name, as GraphQL refuses them.
 */
export function listArgsOf(list: ListExport, params: URLSearchParams, lang: Language): { args: ListArgs } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (key: string, text: string) => errors.push({ path: [key], message: text, asSent: true });
  const booleans = list.booleans ?? [];
  const dates = list.created === false ? [] : ['createdFrom', 'createdTo'];
  const known = [...Object.keys(list.enums), ...list.texts, ...booleans, ...dates, 'workspaceSlug'];
  for (const key of new Set(params.keys())) if (!known.includes(key)) fail(key, message('unknown_key', lang, { key }));
  const filter: Record<string, unknown> = {};
  for (const [key, allowed] of Object.entries(list.enums)) {
    const values = params.getAll(key).filter((v) => v !== '');
    if (values.some((v) => !allowed.includes(v))) fail(key, message('value_not_allowed', lang, { allowed: allowed.join(', ') }));
    if (values.length) filter[key] = values;
  }
  for (const key of list.texts) filter[key] = params.get(key) || undefined;
  for (const key of booleans) {
    const value = params.get(key);
    if (value && value !== 'true' && value !== 'false') fail(key, message('value_not_allowed', lang, { allowed: 'true, false' }));
    if (value) filter[key] = value === 'true';
  }
  const instant = (key: string) => {
    const text = params.get(key);
    if (!text) return undefined;
    const at = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(at.getTime())) fail(key, message('invalid_type', lang));
    return at;
  };
  const from = dates.length ? instant('createdFrom') : undefined;
  const to = dates.length ? instant('createdTo') : undefined;
  if (from || to) filter.created = { from, to };
  if (errors.length) return { errors };
  return { args: { filter: filter as ListFilter, workspaceSlug: params.get('workspaceSlug') || undefined } };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
