// GraphQL over HTTP (and SSE) for the dashboard and support staff, GraphiQL served offline, and
// graphql-ws on the same /graphql path for WebSocket subscriptions. Both paths share the limits
// (limits.ts), the masking of echoed input (masking.ts), the schema's exposure (exposure.ts) and,
// for HTTP, CORS (cors.ts).
import type http from 'node:http';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import { WebSocketServer, type WebSocket } from 'ws';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Services } from '../domain/services.ts';
import type { GraphQLContext, Viewer } from './context.ts';
import type { LiveEvents } from './live.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { currentContext, requestIdFrom, runInContext, type RequestContext } from '../observability/context.ts';
import { documentTooLong, LIMITS, limitPlugins } from './limits.ts';
import { maskError, maskGraphQLError, maskInputEcho, maskValidationErrors, maskVariableEchoes } from './masking.ts';
import { graphiqlGate, graphiqlOptions, holdsToken, introspectionGate, type GraphQLExposure } from './exposure.ts';
import { allowedOrigins, corsFor, varyOnOrigin } from './cors.ts';
import { useDatabaseUnavailable } from './unavailable.ts';
import { auditSupportReads } from './audit-recorder.ts';
import { CSRF_HEADER, atAddress, isRefusal, resolveViewer, viewerFromToken, type Refusal } from './session-viewer.ts';
import { mustEnrol } from './second-factor.ts';
import { clientAddress } from '../http/client-address.ts';

interface ServerContext {
  /** The Node request (HTTP): its socket gives the client's address. */
  req?: http.IncomingMessage;
  /** Set for WebSocket operations: the connection_init payload carries the Authorization. */
  connectionParams?: Record<string, unknown>;
  /** Set for WebSocket operations: the viewer already resolved for the operation. */
  wsViewer?: Viewer;
  /** Set for WebSocket operations: introspection refused (exposure.ts). */
  schemaHidden?: boolean;
}

type GraphQLServer = YogaServerInstance<ServerContext, GraphQLContext>;

/** What attachWebSocket needs besides the Yoga instance it is given. */
const wsSettings = new WeakMap<GraphQLServer, { services: Services; exposure: GraphQLExposure; live?: LiveEvents }>();

const DEVELOPMENT: GraphQLExposure = { production: false, corsOrigins: [] };

export function createGraphQLServer(schema: GraphQLSchema, services: Services, live?: LiveEvents, exposure: GraphQLExposure = DEVELOPMENT): GraphQLServer {
  // One token or session lookup per HTTP request, shared by the exposure checks and the context.
  const viewers = new WeakMap<Request, Promise<Viewer | Refusal>>();
  const resolved = (request: Request) => {
    let viewer = viewers.get(request);
    const h = request.headers;
    if (!viewer) viewers.set(request, (viewer = resolveViewer(services, { authorization: h.get('authorization'), cookie: h.get('cookie'), csrf: h.get(CSRF_HEADER), needsCsrf: true })));
    return viewer;
  };
  const viewerOf = async (request: Request) => {
    const v = await resolved(request);
    return isRefusal(v) ? null : v;
  };
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    renderGraphiQL,
    graphiql: graphiqlOptions(exposure, viewerOf),
    landingPage: false,
    logging: false,
    maxRequestBodySize: LIMITS.bodyBytes,
    maskedErrors: { maskError },
    cors: corsFor(allowedOrigins(services.baseUrl, exposure.corsOrigins)),
    plugins: [
      useDatabaseUnavailable(exposure.logger),
      ...limitPlugins(),
      maskValidationErrors(),
      maskVariableEchoes(),
      introspectionGate(exposure, viewerOf),
      graphiqlGate(exposure, viewerOf),
      varyOnOrigin(),
      auditSupportReads(),
    ],
    context: async ({ request, connectionParams, wsViewer, req }) => {
      const params = connectionParams ?? {};
      const header = (name: string) => request?.headers.get(name) ?? (params[name] as string | undefined) ?? (params[name.toLowerCase()] as string | undefined);
      const lang: Language = languageFrom(header('Accept-Language'));
      const found = wsViewer ?? (request ? await resolved(request) : ((await viewerFromToken(services, header('Authorization'))) ?? null));
      if (!found || isRefusal(found)) {
        const code = found?.code ?? 'auth_invalid_token';
        throw new GraphQLError(message(code, lang), { extensions: { code: found?.status === 403 ? 'FORBIDDEN' : 'UNAUTHENTICATED', http: { status: found?.status ?? 401 } } });
      }
      const address = req ? clientAddress(req, exposure.trustProxy ?? false) : undefined;
      const viewer = wsViewer ? found : atAddress(found, address);
      const logContext = currentContext();
      if (logContext && viewer.kind === 'dashboard') logContext.workspace = viewer.workspace.slug;
      return { services, viewer, lang, live, address: address ?? (viewer.kind === 'dashboard' ? viewer.person?.address : undefined) };
    },
  });
  wsSettings.set(yoga, { services, exposure, live });
  return yoga;
}

function paramOf(params: Readonly<Record<string, unknown>> | undefined, name: string): string | undefined {
  const value = params?.[name] ?? params?.[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A socket's viewer: the bearer token of its connection_init payload, else the session cookie of
 * its upgrade request with the session's CSRF token in the payload (X-CSRF-Token); null: refused.
 */
async function socketViewer(services: Services, params: Readonly<Record<string, unknown>> | undefined, request: http.IncomingMessage, trustProxy: boolean): Promise<Viewer | null> {
  const found = await resolveViewer(services, { authorization: paramOf(params, 'Authorization'), cookie: request.headers.cookie, csrf: paramOf(params, CSRF_HEADER), needsCsrf: true });
  // Live updates are data too: a person who must still set up two-factor gets none.
  return isRefusal(found) || mustEnrol(found) ? null : atAddress(found, clientAddress(request, trustProxy));
}

/**
 * graphql-ws on the HTTP server, executing through Yoga's envelope (same schema, plugins and
 * context). An invalid, expired or revoked token closes the connection with 4403 Forbidden, at
 * connection_init or at the next subscribe; oversized messages close it with 1009; anything
 * unexpected is logged as JSON and answered with an error, never graphql-ws' console output.
 */
export function attachWebSocket(server: http.Server, yoga: GraphQLServer): WebSocketServer {
  const { services, exposure, live } = wsSettings.get(yoga) ?? { services: undefined, exposure: DEVELOPMENT, live: undefined };
  if (!services) throw new Error('attachWebSocket needs a Yoga instance made by createGraphQLServer');
  const logger = exposure.logger;
  const trustProxy = exposure.trustProxy ?? false;
  const sessionSockets = socketsBySession();
  live?.onSessionsEnded((ids) => sessionSockets.close(ids));
  const origins = allowedOrigins(services.baseUrl, exposure.corsOrigins);
  const wss = new WebSocketServer({
    server,
    path: '/graphql',
    maxPayload: LIMITS.bodyBytes,
    // A page from a foreign origin may not open a socket; clients outside browsers send no Origin.
    verifyClient: ({ origin, req }: { origin?: string; req: http.IncomingMessage }) => !origin || origins.has(origin) || sameHost(origin, req.headers.host),
  });
  type Root = { execute: (a: ExecutionArgs) => never; subscribe: (a: ExecutionArgs) => never; request: RequestContext };
  const unexpected = (what: string, err: unknown) => {
    logger?.error(what, { error: maskInputEcho(err instanceof Error ? err.message : String(err)) });
    return [new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } })];
  };
  useServer(
    {
      isProd: true,
      // Each operation runs as a request of its own (see operationArgs): its audit entry and log lines carry its id.
      execute: (args) => { const root = args.rootValue as Root; return runInContext(root.request, () => root.execute(args)); },
      subscribe: (args) => { const root = args.rootValue as Root; return runInContext(root.request, () => root.subscribe(args)); },
      onConnect: async (ctx) => {
        try {
          const viewer = await socketViewer(services, ctx.connectionParams, ctx.extra.request, trustProxy);
          if (viewer?.kind === 'dashboard' && viewer.person) sessionSockets.add(viewer.person.sessionId, ctx.extra.socket);
          return viewer !== null;
        } catch (err) {
          unexpected('graphql websocket connect failed', err);
          ctx.extra.socket.close(CloseCode.InternalServerError, 'Internal server error');
          return false;
        }
      },
      onSubscribe: async (ctx, _id, params) => {
        try {
          const tooLong = documentTooLong(params.query);
          if (tooLong) return [tooLong];
          const viewer = await socketViewer(services, ctx.connectionParams, ctx.extra.request, trustProxy);
          if (!viewer) {
            ctx.extra.socket.close(CloseCode.Forbidden, 'Forbidden');
            return [new GraphQLError(message('auth_invalid_token', languageFrom(ctx.connectionParams?.['Accept-Language'] as string | undefined)), { extensions: { code: 'UNAUTHENTICATED' } })];
          }
          return await operationArgs(yoga, { ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params, connectionParams: ctx.connectionParams, wsViewer: viewer, schemaHidden: exposure.production && !holdsToken(viewer) }, logger);
        } catch (err) {
          return unexpected('graphql websocket operation failed', err);
        }
      },
    },
    wss,
  );
  // graphql-ws writes socket and server errors (e.g. a message over maxPayload) to the console;
  // ours go to the JSON log. `ws` itself closes a socket after its error (1009 for the size).
  wss.removeAllListeners('error');
  wss.on('error', (err) => logger?.error('graphql websocket server error', { error: err.message }));
  wss.on('connection', (socket) => {
    socket.removeAllListeners('error');
    socket.on('error', (err) => logger?.warn('graphql websocket closed on error', { error: err.message }));
  });
  return wss;
}

/**
 * A WebSocket operation's execution arguments through Yoga's envelope (its parse, validate and
 * context, so the limits, masking and introspection rules apply), or its masked errors. The
 * operation gets a request id of its own, as an HTTP request does (one socket carries many
 * operations, so the upgrade request's id would name them all alike): the caller's
 * `extensions.requestId` when it is short and plain, as X-Request-Id over HTTP, else a new one.
 */
async function operationArgs(yoga: GraphQLServer, initial: ServerContext & { params: { query: string; operationName?: string | null; variables?: Record<string, unknown> | null; extensions?: Record<string, unknown> | null } } & Record<string, unknown>, logger?: GraphQLExposure['logger']): Promise<ExecutionArgs | GraphQLError[]> {
  const request: RequestContext = { fields: { request_id: requestIdFrom(initial.params.extensions?.requestId as string | undefined) }, logger, operation: 'graphql' };
  const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped(initial as never);
  let document: DocumentNode;
  try {
    document = parse(initial.params.query);
  } catch (err) {
    if (err instanceof GraphQLError) return [maskGraphQLError(err)];
    throw err;
  }
  const errors = validate(schema, document);
  if (errors.length) return errors.map(maskGraphQLError);
  const contextValue = await runInContext(request, () => contextFactory());
  return { schema, operationName: initial.params.operationName, document, variableValues: initial.params.variables, contextValue, rootValue: { execute, subscribe, request } };
}

/**
 * The open sockets of each person's session, so that a session's end (sign-out, revoked from the
 * sessions list, membership removed, new password: NOTIFY on SESSIONS_CHANNEL from any process)
 * closes them at once with 4403, as a refused token does at its next operation.
 */
function socketsBySession() {
  const bySession = new Map<string, Set<WebSocket>>();
  return {
    add(sessionId: string, socket: WebSocket) {
      let set = bySession.get(sessionId);
      if (!set) bySession.set(sessionId, (set = new Set()));
      set.add(socket);
      socket.once('close', () => {
        set.delete(socket);
        if (set.size === 0 && bySession.get(sessionId) === set) bySession.delete(sessionId);
      });
    },
    close(sessionIds: readonly string[]) {
      for (const id of sessionIds) for (const socket of bySession.get(id) ?? []) socket.close(CloseCode.Forbidden, 'Forbidden');
    },
  };
}

/** A page of this gateway itself (its Origin names the host the socket was opened on). */
function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
