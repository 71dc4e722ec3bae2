// GraphQL over HTTP (and SSE) for the dashboard and support staff, GraphiQL served offline, and
// graphql-ws on the same /graphql path for WebSocket subscriptions.
import type http from 'node:http';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Services } from '../domain/services.ts';
import type { GraphQLContext, Viewer } from './context.ts';
import type { LiveEvents } from './live.ts';
import { hashToken } from '../domain/secrets.ts';
import { tokenUsable } from '../domain/access-tokens.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { currentContext } from '../observability/context.ts';
import { useDatabaseUnavailable } from './unavailable.ts';

/** Resolves `Authorization: Bearer <token>`; no header is anonymous, a bad one is a 401. */
export async function viewerFromToken(services: Services, authorization: string | null | undefined): Promise<Viewer | null> {
  if (!authorization) return { kind: 'anonymous' };
  const m = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!m) return null;
  const token = await services.db.accessToken.findUnique({ where: { tokenHash: hashToken(m[1]!) }, include: { workspace: true } });
  if (!token || !tokenUsable(token, services.clock.now())) return null;
  if (token.role === 'support') return { kind: 'support' };
  if (!token.workspace) return null;
  return { kind: 'dashboard', workspace: token.workspace };
}

interface ServerContext {
  /** Set for WebSocket operations: the connection_init payload carries the Authorization. */
  connectionParams?: Record<string, unknown>;
}

export function createGraphQLServer(schema: GraphQLSchema, services: Services, live?: LiveEvents): YogaServerInstance<ServerContext, GraphQLContext> {
  return createYoga<ServerContext, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    renderGraphiQL,
    graphiql: { title: 'Payment gateway GraphiQL', headers: JSON.stringify({ Authorization: 'Bearer <token from npm run gateway -- token create>' }) },
    landingPage: false,
    logging: false,
    plugins: [useDatabaseUnavailable()],
    context: async ({ request, connectionParams }) => {
      const params = connectionParams ?? {};
      const header = (name: string) => request?.headers.get(name) ?? (params[name] as string | undefined) ?? (params[name.toLowerCase()] as string | undefined);
      const lang: Language = languageFrom(header('Accept-Language'));
      const viewer = await viewerFromToken(services, header('Authorization'));
      if (!viewer) {
        throw new GraphQLError(message('auth_invalid_token', lang), { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
      }
      const logContext = currentContext();
      if (logContext && viewer.kind === 'dashboard') logContext.workspace = viewer.workspace.slug;
      return { services, viewer, lang, live };
    },
  });
}

/** graphql-ws on the HTTP server, executing through Yoga's envelope (same schema, same context). */
export function attachWebSocket(server: http.Server, yoga: YogaServerInstance<ServerContext, GraphQLContext>): WebSocketServer {
  const wss = new WebSocketServer({ server, path: '/graphql' });
  type Root = { execute: (a: ExecutionArgs) => never; subscribe: (a: ExecutionArgs) => never };
  useServer(
    {
      execute: (args) => (args.rootValue as Root).execute(args),
      subscribe: (args) => (args.rootValue as Root).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          connectionParams: ctx.connectionParams,
        } as never);
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : (args as never);
      },
    },
    wss,
  );
  return wss;
}
