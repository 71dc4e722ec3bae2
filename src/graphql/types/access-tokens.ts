// Access tokens for the dashboard and support: an owner creates (the token is shown once), lists
// and revokes its workspace's tokens; support staff list every token (and revoke nothing: they only
// read). Support tokens are created by the CLI only. Who may call what is roles.ts.
import { builder } from '../builder.ts';
import { allowedMutations } from '../roles.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { createWorkspaceToken, listAccessTokens, revokeAccessToken, tokenUsable, WORKSPACE_ROLES, type TokenRecord, type WorkspaceRole } from '../../domain/access-tokens.ts';

const AccessTokenRecord = builder.objectRef<TokenRecord>('AccessToken').implement({
  description: 'A GraphQL bearer token (never the token itself: only its hash is stored)',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    role: t.exposeString('role', { nullable: false, description: 'owner, developer, operator or viewer (one workspace; what each may change is in docs/decisions.md), or support (every workspace, read-only)' }),
    workspace: t.string({ nullable: true, description: 'The slug of a dashboard token\'s workspace', resolve: (r) => r.workspace?.slug ?? null }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    active: t.boolean({ nullable: false, description: 'Neither revoked nor expired', resolve: (r, _a, ctx) => tokenUsable(r, ctx.services.clock.now()) }),
  }),
});

interface RevokePayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  accessToken?: TokenRecord;
}

const RevokeAccessTokenPayload = builder.objectRef<RevokePayloadShape>('RevokeAccessTokenPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    accessToken: t.field({ type: AccessTokenRecord, nullable: true, resolve: (p) => p.accessToken ?? null }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

builder.queryField('accessTokens', (t) =>
  t.field({
    type: [AccessTokenRecord],
    nullable: false,
    description: "Tokens newest first: the workspace's for a dashboard (a developer's or operator's: those of its own role and viewers'), every token for support",
    resolve: (_r, _a, ctx) =>
      listAccessTokens(ctx.services.db, { workspaceId: readableWorkspaceId(ctx), within: ctx.viewer.kind === 'dashboard' ? (ctx.viewer.token.role as WorkspaceRole) : undefined }),
  }),
);

builder.mutationField('revokeAccessToken', (t) =>
  t.field({
    type: RevokeAccessTokenPayload,
    description: "Revokes one of the workspace's tokens; it stops working at once in every gateway process",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({
        accessToken: await revokeAccessToken(ctx.services.db, String(args.id), { workspaceId: actingWorkspace(ctx).id, clock: ctx.services.clock }),
      })) as Promise<RevokePayloadShape>,
  }),
);

export const AccessTokenRoleEnum = builder.enumType('AccessTokenRole', {
  description: 'The role of a workspace token: owner (everything), developer (API keys, webhooks), operator (refunds, cancels, links, products), viewer (reads)',
  values: WORKSPACE_ROLES,
});

interface CreatePayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  accessToken?: TokenRecord;
  token?: string;
}

const CreateAccessTokenPayload = builder.objectRef<CreatePayloadShape>('CreateAccessTokenPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    accessToken: t.field({ type: AccessTokenRecord, nullable: true, resolve: (p) => p.accessToken ?? null }),
    token: t.string({ nullable: true, description: 'The bearer token itself: shown only in this answer, never again', resolve: (p) => p.token ?? null }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

builder.mutationField('createAccessToken', (t) =>
  t.field({
    type: CreateAccessTokenPayload,
    description: "A new token for the workspace with a role (at most the caller's own: owners give any, others their own or viewer); the token is in this answer only",
    args: {
      name: t.arg.string({ required: true }),
      role: t.arg({ type: AccessTokenRoleEnum, required: true }),
      expiresInDays: t.arg.int({ description: 'Days until it stops working (1-3650); omitted: never' }),
    },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const own = ctx.viewer.kind === 'dashboard' ? (ctx.viewer.token.role as WorkspaceRole) : 'owner';
        const { token, record } = await createWorkspaceToken(ctx.services.db, actingWorkspace(ctx), args, ctx.services.clock, own);
        return { accessToken: record, token };
      }) as Promise<CreatePayloadShape>,
  }),
);

builder.queryField('viewerRole', (t) =>
  t.string({
    nullable: true,
    description: 'The role of the token in use (owner, developer, operator, viewer, support): the dashboard shows what it may do; null without a token',
    resolve: (_r, _a, ctx) => (ctx.viewer.kind === 'dashboard' || ctx.viewer.kind === 'support' ? ctx.viewer.token.role : null),
  }),
);

builder.queryField('viewerPermissions', (t) =>
  t.stringList({
    nullable: false,
    description:
      'The mutations the token in use may call, from the role table: the dashboard hides what the role may not use (the API refuses it anyway). Empty for support tokens and without a token',
    resolve: (_r, _a, ctx) => allowedMutations(ctx),
  }),
);
