// The team: members (people with a role in the workspace), invitations, and each person's own
// sessions. An owner invites, changes roles and removes members (roles.ts); accepting an
// invitation and resetting a password need no sign-in (the link's token is the proof). The rules
// themselves are domain/people.
import { builder } from '../builder.ts';
import type { GraphQLContext, PersonIdentity } from '../context.ts';
import type { Invitation, PersonSession } from '../../generated/prisma/client.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { AccessTokenRoleEnum } from './access-tokens.ts';
import { ForbiddenError } from '../../domain/errors.ts';
import type { WorkspaceRole } from '../../domain/access-tokens.ts';
import { acceptInvitation, cancelInvitation, changeMemberRole, resendInvitation, findInvitation, inviteMember, listMembers, pendingInvitations, removeMember, type Actor, type MemberRecord } from '../../domain/people/members.ts';
import { listSessions, revokeSession } from '../../domain/people/sessions.ts';
import { requestPasswordReset, resetPassword } from '../../domain/people/resets.ts';
import { recordAudit } from '../../domain/audit.ts';
import { currentRequestId } from '../../observability/context.ts';

const MemberRef = builder.objectRef<MemberRecord>('Member').implement({
  description: "A person's membership of the workspace",
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    email: t.string({ nullable: false, resolve: (m) => m.person.email }),
    personId: t.string({ nullable: false, resolve: (m) => m.personId }),
    role: t.exposeString('role', { nullable: false }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
  }),
});

const InvitationRef = builder.objectRef<Invitation>('Invitation').implement({
  description: 'An invitation sent by e-mail (never its link)',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    email: t.exposeString('email', { nullable: false }),
    role: t.exposeString('role', { nullable: false }),
    invitedBy: t.exposeString('invitedBy', { nullable: false }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: false }),
  }),
});

const InvitationPreviewRef = builder.objectRef<{ email: string; role: string; workspaceName: string; expiresAt: Date }>('InvitationPreview').implement({
  description: 'What the accept screen shows of an invitation link',
  fields: (t) => ({
    email: t.exposeString('email', { nullable: false }),
    role: t.exposeString('role', { nullable: false }),
    workspaceName: t.exposeString('workspaceName', { nullable: false }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: false }),
  }),
});

const SessionRef = builder.objectRef<PersonSession & { current: boolean }>('PersonSession').implement({
  description: 'A signed-in browser of the person',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    userAgent: t.exposeString('userAgent', { nullable: false }),
    address: t.exposeString('address', { nullable: false }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', nullable: false }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: false }),
    current: t.exposeBoolean('current', { nullable: false, description: 'The session this request uses' }),
  }),
});

/** Who acts, for the invitation's `invitedBy` and the role limit. */
function actorOf(ctx: GraphQLContext): Actor {
  const v = ctx.viewer;
  return v.kind === 'dashboard' ? { label: v.token.name, role: v.token.role as WorkspaceRole } : { label: 'api', role: 'owner' };
}

/** The signed-in person (their own sessions, password, second factor); a token has none. */
export function personOf(ctx: GraphQLContext): PersonIdentity {
  const v = ctx.viewer;
  if (v.kind === 'dashboard' && v.person) return v.person;
  throw new ForbiddenError('people_only');
}

builder.queryField('members', (t) =>
  t.field({ type: [MemberRef], nullable: false, description: "The workspace's members, oldest first", resolve: (_r, _a, ctx) => listMembers(ctx.services.db, actingWorkspace(ctx).id) }),
);

builder.queryField('invitations', (t) =>
  t.field({ type: [InvitationRef], nullable: false, description: 'Invitations not yet accepted and not expired, newest first', resolve: (_r, _a, ctx) => pendingInvitations(ctx.services.db, actingWorkspace(ctx).id, ctx.services.clock.now()) }),
);

builder.queryField('invitation', (t) =>
  t.field({
    type: InvitationPreviewRef,
    nullable: true,
    description: "An invitation link's e-mail, role and workspace (no sign-in needed); null when invalid, used or expired",
    args: { invitationToken: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const found = await findInvitation(ctx.services.db, args.invitationToken, ctx.services.clock.now());
      return found ? { email: found.email, role: found.role, workspaceName: found.workspace.name, expiresAt: found.expiresAt } : null;
    },
  }),
);

builder.queryField('mySessions', (t) =>
  t.field({
    type: [SessionRef],
    nullable: false,
    description: "The signed-in person's sessions still open, newest first (none for a token)",
    resolve: async (_r, _a, ctx) => {
      const v = ctx.viewer;
      const me = v.kind === 'dashboard' ? v.person : undefined;
      if (!me) return []; // tokens have no sessions
      return (await listSessions(ctx.services.db, me.id, ctx.services.clock.now())).map((s) => ({ ...s, current: s.id === me.sessionId }));
    },
  }),
);

interface MemberPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  member?: MemberRecord;
  invitation?: Invitation;
  session?: PersonSession & { current: boolean };
}

const MemberPayload = builder.objectRef<MemberPayloadShape>('MemberPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, nullable: false, resolve: (p) => p.result }),
    member: t.field({ type: MemberRef, nullable: true, resolve: (p) => p.member ?? null }),
    invitation: t.field({ type: InvitationRef, nullable: true, resolve: (p) => p.invitation ?? null }),
    session: t.field({ type: SessionRef, nullable: true, resolve: (p) => p.session ?? null }),
    errors: t.field({ type: [UserErrorRef], nullable: false, resolve: (p) => p.errors }),
  }),
});

const run = (ctx: GraphQLContext, fn: () => Promise<Omit<MemberPayloadShape, 'result' | 'errors'>>) => payload(ctx, fn) as Promise<MemberPayloadShape>;

builder.mutationField('inviteMember', (t) =>
  t.field({
    type: MemberPayload,
    description: 'Invites a person by e-mail with a role; the link (sent by e-mail, never answered here) works for 7 days',
    args: { email: t.arg.string({ required: true }), role: t.arg({ type: AccessTokenRoleEnum, required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => ({ invitation: (await inviteMember(ctx.services, actingWorkspace(ctx), actorOf(ctx), args)).invitation })),
  }),
);

builder.mutationField('resendInvitation', (t) =>
  t.field({
    type: MemberPayload,
    description: 'Sends a pending invitation again with a new link valid for 7 days; the old link stops working',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => ({ invitation: (await resendInvitation(ctx.services, actingWorkspace(ctx), String(args.id))).invitation })),
  }),
);

builder.mutationField('cancelInvitation', (t) =>
  t.field({
    type: MemberPayload,
    description: 'Withdraws a pending invitation; its link stops working at once',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => ({ invitation: await cancelInvitation(ctx.services.db, actingWorkspace(ctx), String(args.id)) })),
  }),
);

builder.mutationField('acceptInvitation', (t) =>
  t.field({
    type: MemberPayload,
    description: 'Accepts an invitation: sets the password of a new person (one who has one already gives it); then sign in',
    args: { invitationToken: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) =>
      run(ctx, async () => {
        const member = await acceptInvitation(ctx.services.db, { token: args.invitationToken, password: args.password }, ctx.services.clock);
        // Whoever accepts is not signed in yet: the entry names the new member (the roles plugin records only signed-in callers).
        await recordAudit(ctx.services.db, {
          workspaceId: member.workspaceId,
          token: { id: member.personId, name: member.person.email, role: member.role },
          person: { id: member.personId, sessionId: null, address: ctx.address ?? 'unknown' },
          requestId: currentRequestId() ?? null,
          operation: 'acceptInvitation',
          outcome: 'done',
          variables: {},
          at: ctx.services.clock.now(),
        });
        return { member };
      }),
  }),
);

builder.mutationField('changeMemberRole', (t) =>
  t.field({
    type: MemberPayload,
    description: 'Gives a member another role; the last owner keeps theirs',
    args: { id: t.arg.id({ required: true }), role: t.arg({ type: AccessTokenRoleEnum, required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => ({ member: await changeMemberRole(ctx.services.db, actingWorkspace(ctx), String(args.id), args.role) })),
  }),
);

builder.mutationField('removeMember', (t) =>
  t.field({
    type: MemberPayload,
    description: "Removes a member and ends their sessions in the workspace at once; the last owner cannot be removed",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => ({ member: await removeMember(ctx.services.db, actingWorkspace(ctx), String(args.id), ctx.services.clock) })),
  }),
);

builder.mutationField('revokeSession', (t) =>
  t.field({
    type: MemberPayload,
    description: "Ends one of the signed-in person's own sessions at once (its open WebSockets close too)",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      run(ctx, async () => {
        const me = personOf(ctx);
        const s = await revokeSession(ctx.services.db, me.id, String(args.id), ctx.services.clock.now());
        return { session: { ...s, current: s.id === me.sessionId } };
      }),
  }),
);

builder.mutationField('requestPasswordReset', (t) =>
  t.field({
    type: MemberPayload,
    description: 'E-mails a password reset link (valid 30 minutes) when a person has this e-mail; answers the same either way',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => (await requestPasswordReset(ctx.services, args), {})),
  }),
);

builder.mutationField('resetPassword', (t) =>
  t.field({
    type: MemberPayload,
    description: "Sets a new password from a reset link (used once); every session of the person ends",
    args: { resetToken: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => run(ctx, async () => (await resetPassword(ctx.services.db, { token: args.resetToken, password: args.password }, ctx.services.clock), {})),
  }),
);
