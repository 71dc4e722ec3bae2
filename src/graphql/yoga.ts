// GraphQL over HTTP for the dashboard and support staff, with GraphiQL served offline.
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import type { Services } from '../domain/services.ts';
import type { GraphQLContext, Viewer } from './context.ts';
import { hashToken } from '../domain/secrets.ts';
import { languageFrom, message } from '../domain/messages.ts';

/** Resolves `Authorization: Bearer <token>`; no header is anonymous, a bad one is a 401. */
export async function viewerFromToken(services: Services, authorization: string | null): Promise<Viewer | null> {
  if (!authorization) return { kind: 'anonymous' };
  const m = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!m) return null;
  const token = await services.db.accessToken.findUnique({ where: { tokenHash: hashToken(m[1]!) }, include: { workspace: true } });
  if (!token || token.revokedAt) return null;
  if (token.role === 'support') return { kind: 'support' };
  if (!token.workspace) return null;
  return { kind: 'dashboard', workspace: token.workspace };
}

export function createGraphQLServer(schema: GraphQLSchema, services: Services): YogaServerInstance<Record<string, never>, GraphQLContext> {
  return createYoga<Record<string, never>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    renderGraphiQL,
    graphiql: { title: 'Payment gateway GraphiQL', headers: JSON.stringify({ Authorization: 'Bearer <token from npm run gateway -- token create>' }) },
    landingPage: false,
    logging: false,
    context: async ({ request }) => {
      const lang = languageFrom(request.headers.get('accept-language'));
      const viewer = await viewerFromToken(services, request.headers.get('authorization'));
      if (!viewer) {
        throw new GraphQLError(message('auth_invalid_token', lang), { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
      }
      return { services, viewer, lang };
    },
  });
}
