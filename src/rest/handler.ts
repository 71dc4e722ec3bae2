// The REST shim: POST /api/{team}/gateway/<operation>. Verifies, parses, converts case, runs
// the operation's GraphQL document in-process and maps the payload to the contract's body.
// It holds no business rule.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, parse, validate, typeFromAST, type DocumentNode, type ExecutionResult, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Services } from '../domain/services.ts';
import type { GraphQLContext } from '../graphql/context.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { signTimestamped } from '../domain/signatures.ts';
import { readBody } from '../http/body.ts';
import { authenticate } from './auth.ts';
import { deepKeys, toCamel, toSnake } from './case.ts';
import { maskInputEcho } from '../graphql/masking.ts';
import { errorBody, simpleError, STATUS_BY_KIND, variableErrors, type ErrorBody } from './errors.ts';
import { findRoute, routes, type Route } from './routes.ts';
import { pruneUnknownKeys } from './prune.ts';
import { fieldPlaces, findUnknownKeys, type FieldPlaces, type UnknownKey } from './unknown-keys.ts';
import { bodyProblem } from './limits.ts';
import { isDatabaseBusy, untilWritten } from '../db/busy.ts';
import { unreadableSecretIn } from '../domain/secrets.ts';
import { logUnreadableSecret } from '../http/unavailable.ts';
import type { RateLimitSettings } from './rate-limit.ts';
import type { AdmissionMemory } from './admission-memory.ts';
import { claimIdempotencyKey, leftNothing, leftoverOf, type Leftover, releaseFailedKey, releaseIdempotencyKey, requestHash, storeIdempotentResponse, takeOverLapsedKey } from '../domain/idempotency.ts';
import type { UserErrorShape } from '../graphql/types/result.ts';
import type { Logger } from '../logger.ts';
import { currentContext } from '../observability/context.ts';

export const MAX_BODY_BYTES = 1024 * 1024;
/** A saturated database usually drains within a second or two. */
const RETRY_AFTER_SECONDS = 2;
const PATH_RE = /^\/api\/([^/]+)\/gateway\/(.+)$/;

interface Prepared {
  route: Route;
  document: DocumentNode;
  inputType: GraphQLInputType;
  /** Where each field name of the input type stands (unknown-keys.ts). */
  places: FieldPlaces;
  /** The document compiled to one function (graphql-jit), run for every call of the route. */
  compiled: CompiledQuery;
}

export interface RestOptions {
  schema: GraphQLSchema;
  services: Services;
  masterKey: Buffer;
  logger: Logger;
  /** Per-workspace request limits (429); none in a gateway built without them. */
  rateLimits?: RateLimitSettings;
  /** The process's remembered admissions (a gateway that follows the database's notifications). */
  admission?: AdmissionMemory;
}

/** Parses and validates every route's document once; a broken document fails at boot. */
export function prepareRoutes(schema: GraphQLSchema): Map<string, Prepared> {
  const prepared = new Map<string, Prepared>();
  for (const route of routes.values()) {
    if (!route.document) continue;
    const document = parse(route.document);
    const problems = validate(schema, document);
    if (problems.length) throw new Error(`REST route ${route.operation}: ${problems.map((p) => p.message).join('; ')}`);
    const op = document.definitions[0] as OperationDefinitionNode;
    const varType = op.variableDefinitions?.[0]?.type;
    const inputType = varType && (typeFromAST(schema, varType as never) as GraphQLInputType | undefined);
    if (!inputType) throw new Error(`REST route ${route.operation}: the document needs an $input variable`);
    const compiled = compileQuery(schema, document);
    if (!isCompiledQuery(compiled)) throw new Error(`REST route ${route.operation}: ${compiled.errors?.map((e) => e.message).join('; ')}`);
    prepared.set(route.operation, { route, document, inputType, places: fieldPlaces(inputType), compiled });
  }
  return prepared;
}

export function createRestHandler(opts: RestOptions) {
  const prepared = prepareRoutes(opts.schema);
  const authSetup = { db: opts.services.db, masterKey: opts.masterKey, clock: opts.services.clock, limits: opts.rateLimits ?? null, memory: opts.admission ?? null };

  return async function handleRest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const match = PATH_RE.exec(url.pathname);
    if (!match) return false;
    const lang = languageFrom(req.headers['accept-language']);
    const [, team, operationPath] = match as unknown as [string, string, string];
    const found = findRoute(operationPath);
    if (!found) return send(res, 404, simpleError('unknown_operation', lang)), true;
    const logContext = currentContext();
    if (logContext) logContext.operation = found.route.operation;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      return send(res, 405, simpleError('method_not_allowed', lang)), true;
    }
    const rawBody = await readBody(req, MAX_BODY_BYTES);
    if (rawBody === null) return send(res, 413, simpleError('body_too_large', lang)), true;

    const auth = await authenticate(authSetup, {
      headers: req.headers,
      rawBody,
      team: safeDecode(team),
      path: url.pathname,
      operation: found.route.operation,
      requireTimestamp: found.route.signing === 'timestamp',
    });
    const reply = (status: number, body: unknown) => send(res, status, body, auth.secret ? { secret: auth.secret, path: url.pathname, clock: opts.services } : undefined);
    if (!auth.ok) {
      if (auth.status === 429) res.setHeader('Retry-After', String(auth.retryAfter));
      return reply(auth.status, simpleError(auth.code, lang, 'params' in auth ? auth.params : undefined)), true;
    }
    if (logContext) logContext.workspace = auth.workspace.slug;

    const body = parseJsonObject(rawBody);
    if (body === undefined) return reply(400, simpleError('body_not_object', lang)), true;
    const problem = bodyProblem(body);
    if (problem) return reply(problem.status, errorBody([{ path: problem.path, message: message(problem.code, lang, problem.params) }])), true;
    const route = prepared.get(found.route.operation);
    if (!route) return reply(501, simpleError('not_implemented', lang)), true;

    const ctx: GraphQLContext = { services: opts.services, viewer: { kind: 'merchant', workspace: auth.workspace }, lang };
    const execute = () => run(route, body, found.pathToken, ctx, opts);
    const key = req.headers['idempotency-key'];
    if (found.route.idempotent && typeof key === 'string') {
      const answerPayment = (left: PaymentLeftover) => paymentAnswer(prepared, found.route.operation, left, ctx, opts);
      const scope = { workspaceId: auth.workspace.id, operation: found.route.operation, key, raw: rawBody, body, lang };
      const [status, text] = await runIdempotent(opts, scope, execute, answerPayment);
      reply(status, new RawJson(text));
      return true;
    }
    const [status, responseBody] = await execute();
    const extra = found.route.askedExtra;
    reply(status, status === 200 && extra && !asksForExtra(req, extra) ? withoutKey(responseBody, extra) : responseBody);
    return true;
  };
}

/** Whether the request's `X-Include` header names the route's extra field (routes.ts, `askedExtra`). */
function asksForExtra(req: IncomingMessage, extra: string): boolean {
  const asked = req.headers['x-include'];
  return typeof asked === 'string' && asked.split(',').some((name) => name.trim().toLowerCase() === extra);
}

/** A response body that is already serialized (a stored idempotent answer is sent byte for byte). */
class RawJson {
  constructor(readonly text: string) {}
}

const IDEMPOTENCY_WAIT_MS = 10_000;

type PaymentLeftover = Extract<Leftover, { kind: 'payment' }>;

async function runIdempotent(
  opts: RestOptions,
  scope: { workspaceId: string; operation: string; key: string; raw: Buffer; body: Record<string, unknown>; lang: Language },
  execute: () => Promise<[number, unknown]>,
  answerPayment: (left: PaymentLeftover) => Promise<[number, unknown]>,
): Promise<[number, string]> {
  if (scope.key.length === 0 || scope.key.length > 255) return [422, JSON.stringify(errorBody([{ path: ['idempotencyKey'], message: message('too_long', scope.lang, { max: 255 }) }]))];
  const { db, clock } = opts.services;
  const claimScope = { workspaceId: scope.workspaceId, operation: scope.operation, key: scope.key, hash: requestHash(scope.raw) };
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  for (;;) {
    const claim = await claimIdempotencyKey(db, clock, claimScope);
    if (claim.state === 'replay') return [claim.status, claim.body];
    if (claim.state === 'mismatch') return [422, JSON.stringify(errorBody([{ path: ['idempotencyKey'], message: message('idempotency_key_reused', scope.lang) }]))];
    if (claim.state === 'claimed') {
      try {
        const [status, body] = await execute();
        const text = body instanceof RawJson ? body.text : JSON.stringify(body);
        const left = { workspaceId: scope.workspaceId, operation: scope.operation, claimedAt: claim.claimedAt, body: scope.body };
        if (status >= 500) await releaseFailedKey(db, claim.id, () => leftNothing(opts.services, left));
        // The answer is decided (and money may have moved): a database gone meanwhile is waited
        // for, or the client would be told 503 "nothing was done" and its retry find the key held.
        else await untilWritten(() => storeIdempotentResponse(db, claim.id, status, text));
        return [status, text];
      } catch (err) {
        // Not released later: the request may have got past the bank before it failed (storing
        // its answer, say), and only the lapsed claim's look at what it left can tell.
        await releaseIdempotencyKey(db, claim.id);
        throw err;
      }
    }
    if (claim.state === 'lapsed') {
      // Its request died without an answer (see domain/idempotency.ts): run again or answer.
      const left = await leftoverOf(opts.services, { workspaceId: scope.workspaceId, operation: scope.operation, claimedAt: claim.claimedAt, body: scope.body });
      if (left.kind === 'nothing') {
        await takeOverLapsedKey(db, claim);
        continue;
      }
      if (left.kind === 'payment') {
        const [status, body] = await answerPayment(left);
        const text = JSON.stringify(body);
        if (status < 500) await storeIdempotentResponse(db, claim.id, status, text);
        return [status, text];
      }
    }
    // Another request with this key is running: wait for its answer rather than run twice.
    if (Date.now() > deadline) return [409, JSON.stringify(simpleError('idempotency_in_progress', scope.lang))];
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A lapsed key's payment as the operation would have answered it: retrieve-payment's body (the
 * same selection as secure- and regular-payment), with secure-payment's redirect_url, which is
 * the 3D page while the payment still waits on it.
 */
async function paymentAnswer(prepared: Map<string, Prepared>, operation: string, left: PaymentLeftover, ctx: GraphQLContext, opts: RestOptions): Promise<[number, unknown]> {
  const [status, answered] = await run(prepared.get('retrieve-payment')!, { transaction: { token: left.paymentId } }, null, ctx, opts);
  // retrieve-payment's own extra, `payment`, is not part of the payment operations' answers.
  const shown = status === 200 ? withoutKey(answered, 'payment') : answered;
  if (status !== 200 || operation !== 'secure-payment') return [status, shown];
  const body = shown as { result: { successful: boolean; message: string | null } };
  const result = left.redirectUrl ? { successful: true, message: null, redirect_url: left.redirectUrl } : { ...body.result, redirect_url: null };
  return [status, { ...body, result }];
}

function withoutKey(body: unknown, key: string): unknown {
  const { [key]: _dropped, ...rest } = body as Record<string, unknown>;
  return rest;
}

async function run(p: Prepared, body: Record<string, unknown>, pathToken: string | null, ctx: GraphQLContext, opts: RestOptions): Promise<[number, unknown]> {
  const ignoring = ignoresUnknownKeys(p.route, ctx);
  const unknown = findUnknownKeys(body, p.inputType, p.places);
  // update-payment-link/{token}: the token is the path's; one in the body would be overwritten.
  if (pathToken !== null && Object.hasOwn(body, 'token')) unknown.unshift({ path: ['token'], key: 'token', knownAt: [`${p.route.operation}/{token}`] });
  const refused = unknown.filter((k) => !ignoring || k.knownAt.length > 0);
  if (refused.length > 0) return [422, errorBody(refused.map((k) => ({ path: k.path, asSent: true, message: unknownKeyMessage(k, ctx.lang) })))];
  let input = deepKeys(body, toCamel) as Record<string, unknown>;
  if (pathToken) input = { ...input, token: pathToken };
  if (ignoring) input = pruneUnknownKeys(input, p.inputType) as Record<string, unknown>;
  const result = await executeRoute(p, input, ctx, opts.schema);
  if (result.errors?.length) {
    // Met before anything was written (work after the bank answered waits instead: db/busy.ts).
    if (result.errors.some((e) => isDatabaseBusy(e.originalError))) return [503, simpleError('service_busy', ctx.lang)];
    const unreadable = result.errors.map((e) => unreadableSecretIn(e)).find((u) => u !== null);
    if (unreadable) {
      logUnreadableSecret(opts.logger, unreadable, { operation: p.route.operation });
      return [503, simpleError('service_unavailable', ctx.lang)];
    }
    const fields = variableErrors(result.errors, ctx.lang);
    if (fields) return [422, errorBody(fields)];
    // Only the first line of each message, cut short and with echoed values masked: graphql-js
    // prints the variables' values (card data included) into its messages.
    opts.logger.error('rest operation failed', { operation: p.route.operation, errors: result.errors.map((e) => maskInputEcho(e.message).split('\n')[0]!.slice(0, 200)) });
    return [500, simpleError('internal_error', ctx.lang)];
  }
  const payload = (result.data as Record<string, Record<string, unknown>>)[p.route.field!]!;
  const errors = payload.errors as UserErrorShape[];
  if (errors.length > 0) return [STATUS_BY_KIND[errors[0]!.kind], errorBody(errors)];
  // A loop rather than an object rest (`{ errors, ...rest }`), which V8 copies on its slow path.
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(payload)) if (key !== 'errors') rest[key] = payload[key];
  const shownWhen = p.route.presentOnlyWhen ?? [];
  for (const [field, flag] of shownWhen) if (rest[flag] !== true) delete rest[field];
  for (const [, flag] of shownWhen) delete rest[flag];
  for (const path of p.route.omitWhenNull ?? []) omitWhenNull(rest, path.split('.'));
  return [200, deepKeys(rest, toSnake)];
}

/**
 * The route's document, run compiled (graphql-jit): the same resolvers and answer as graphql-js's
 * `execute`, with the walk over the document and the input's coercion done by code generated once
 * per route (about 6 % of the gateway's CPU per payment, docs/performance.md). Input the schema
 * refuses (a wrong type, a missing field) is refused before any resolver runs; that answer is
 * taken from graphql-js instead, whose messages the field paths of a 422 are read from (errors.ts,
 * variableErrors), so nothing runs twice.
 */
async function executeRoute(p: Prepared, input: Record<string, unknown>, ctx: GraphQLContext, schema: GraphQLSchema): Promise<ExecutionResult> {
  const result = await p.compiled.query(undefined, ctx, { input });
  // An executed document always answers with `data` (null when a resolver failed), so only a
  // refusal of the input, which ran nothing, is asked of graphql-js again.
  if ('data' in result || !result.errors?.length) return result;
  return execute({ schema, document: p.document, variableValues: { input }, contextValue: ctx });
}

/**
 * Unknown keys answer 422 unless the workspace chose to ignore them; the operations whose contract
 * asks for 422 (`strict` routes) refuse them whatever the workspace chose.
 */
function ignoresUnknownKeys(route: Route, ctx: GraphQLContext): boolean {
  return !route.strict && ctx.viewer.kind === 'merchant' && ctx.viewer.workspace.ignoreUnknownKeys;
}

function unknownKeyMessage(k: UnknownKey, lang: Language): string {
  return k.knownAt.length > 0 ? message('misplaced_key', lang, { key: k.key, places: k.knownAt.join(', ') }) : message('unknown_key', lang, { key: k.key });
}

/** Deletes the field at `path` when it is null (a missing parent leaves nothing to delete). */
function omitWhenNull(value: Record<string, unknown>, path: string[]): void {
  const [head, ...tail] = path;
  if (head === undefined || !(head in value)) return;
  if (tail.length === 0) {
    if (value[head] === null) delete value[head];
    return;
  }
  const child = value[head];
  if (child !== null && typeof child === 'object') omitWhenNull(child as Record<string, unknown>, tail);
}

function parseJsonObject(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A malformed escape (`%E0%A4%A`) names no workspace; it must not throw. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Every answer to an authenticated key is signed (timestamp form) so merchants can verify it. */
function send(res: ServerResponse, status: number, body: unknown, signing?: { secret: string; path: string; clock: { clock: { now(): Date } } }): void {
  const text = body instanceof RawJson ? body.text : JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  if (signing) {
    const timestamp = String(Math.floor(signing.clock.clock.now().getTime() / 1000));
    res.setHeader('X-Timestamp', timestamp);
    res.setHeader('X-Signature', signTimestamped(signing.secret, timestamp, 'POST', signing.path, text));
  }
  res.end(text);
}

export type { ErrorBody, Language };
export { message };
