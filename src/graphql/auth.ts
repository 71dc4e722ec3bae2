// Resolver guards. Authentication itself happens before GraphQL (REST HMAC or bearer token).
import { GraphQLError } from 'graphql';
import type { Workspace } from '../generated/prisma/client.ts';
import type { GraphQLContext } from './context.ts';
import { message } from '../domain/messages.ts';

/** The workspace an operation acts for; support staff act for none and may only read. */
export function actingWorkspace(ctx: GraphQLContext): Workspace {
  const v = ctx.viewer;
  if (v.kind === 'merchant' || v.kind === 'dashboard') return v.workspace;
  if (v.kind === 'support') throw new GraphQLError(message('read_only', ctx.lang), { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
  throw unauthenticated(ctx);
}

/** Workspace ids a read may see: one for merchants and dashboards, all (null) for support. */
export function readableWorkspaceId(ctx: GraphQLContext): string | null {
  const v = ctx.viewer;
  if (v.kind === 'merchant' || v.kind === 'dashboard') return v.workspace.id;
  if (v.kind === 'support') return null;
  throw unauthenticated(ctx);
}

function unauthenticated(ctx: GraphQLContext): GraphQLError {
  return new GraphQLError(message('auth_invalid_token', ctx.lang), { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
}
