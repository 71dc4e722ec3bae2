// GET /dashboard/export/payments.csv?<the payments list's filters>: the filtered list as CSV,
// streamed. Authorised exactly as the list: the same bearer token, the same workspace scope
// (graphql/lists.ts `listWhere`; support tokens read every workspace, or the one named by
// workspaceSlug). Rows are read in keyset batches and written as they come, with the response's
// back-pressure, so the file is never held in memory. csv-stringify does the quoting (RFC 4180,
// CRLF); cells that a spreadsheet would run as formulas are made inert (domain/payments/export.ts).
import type http from 'node:http';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Prisma } from '../generated/prisma/client.ts';
import { PaymentMoneyStatus, PaymentStatus } from '../generated/prisma/client.ts';
import type { Services } from '../domain/services.ts';
import { inertCell, PAYMENT_CSV_COLUMNS, paymentRecords } from '../domain/payments/export.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { viewerFromToken } from '../graphql/yoga.ts';
import { listWhere, type ListArgs, type ListFilter } from '../graphql/lists.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { errorBody, simpleError, type FieldError } from '../rest/errors.ts';
import { currentContext } from '../observability/context.ts';

export const PAYMENTS_CSV_PATH = '/dashboard/export/payments.csv';

/** Answers the export addresses; false for every other request. */
export async function handleExport(services: Services, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  if (url.pathname !== PAYMENTS_CSV_PATH) return false;
  const lang = languageFrom(req.headers['accept-language']);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return true;
  }
  const viewer = await viewerFromToken(services, req.headers.authorization);
  if (!viewer || viewer.kind === 'anonymous' || viewer.kind === 'merchant') {
    sendJson(res, 401, simpleError('auth_invalid_token', lang));
    return true;
  }
  const parsed = paymentListArgs(url.searchParams, lang);
  if ('errors' in parsed) {
    sendJson(res, 422, errorBody(parsed.errors));
    return true;
  }
  const ctx: GraphQLContext = { services, viewer, lang };
  const log = currentContext();
  if (log && viewer.kind === 'dashboard') log.workspace = viewer.workspace.slug;
  const where = listWhere<Prisma.PaymentWhereInput>(ctx, parsed.args);
  await streamPayments(services, where, req, res, viewer.kind === 'dashboard' ? viewer.workspace.slug : (parsed.args.workspaceSlug ?? 'all'));
  return true;
}

async function streamPayments(services: Services, where: Prisma.PaymentWhereInput, req: http.IncomingMessage, res: http.ServerResponse, slug: string): Promise<void> {
  const day = services.clock.now().toISOString().slice(0, 10);
  res.writeHead(200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="payments-${slug.replace(/[^\w-]/g, '_')}-${day}.csv"`,
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  const csv = stringify({ header: true, columns: [...PAYMENT_CSV_COLUMNS], record_delimiter: 'windows', cast: { string: inertCell } });
  // The client leaving stops the reading between batches.
  const stop = new AbortController();
  res.once('close', () => stop.abort());
  const sent = pipeline(csv, res).catch(() => stop.abort());
  try {
    for await (const record of paymentRecords(services.db, where, stop.signal)) {
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

const LIST_KEYS = ['status', 'paymentStatus', 'channelReference', 'cardLastFour', 'createdFrom', 'createdTo', 'workspaceSlug'];

/**
 * The payments list's filter from the query string, under the names of its GraphQL input
 * (`status` and `paymentStatus` may repeat; `createdFrom`/`createdTo` are ISO 8601 instants).
 * Unknown keys and values outside the enums are refused by name, as GraphQL refuses them.
 */
export function paymentListArgs(params: URLSearchParams, lang: Language): { args: ListArgs } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const fail = (key: string, text: string) => errors.push({ path: [key], message: text, asSent: true });
  for (const key of new Set(params.keys())) if (!LIST_KEYS.includes(key)) fail(key, message('unknown_key', lang, { key }));
  const anyOf = (key: string, allowed: readonly string[]) => {
    const values = params.getAll(key).filter((v) => v !== '');
    if (values.some((v) => !allowed.includes(v))) fail(key, message('value_not_allowed', lang, { allowed: allowed.join(', ') }));
    return values.length ? values : undefined;
  };
  const instant = (key: string) => {
    const text = params.get(key);
    if (!text) return undefined;
    const at = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(at.getTime())) fail(key, message('invalid_type', lang));
    return at;
  };
  const filter: ListFilter = {
    status: anyOf('status', Object.values(PaymentStatus)),
    paymentStatus: anyOf('paymentStatus', Object.values(PaymentMoneyStatus)),
    channelReference: params.get('channelReference') || undefined,
    cardLastFour: params.get('cardLastFour') || undefined,
  };
  const from = instant('createdFrom');
  const to = instant('createdTo');
  if (from || to) filter.created = { from, to };
  if (errors.length) return { errors };
  return { args: { filter, workspaceSlug: params.get('workspaceSlug') || undefined } };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
