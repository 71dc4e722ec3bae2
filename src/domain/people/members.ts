// A workspace's team: people with a role each. An owner invites by e-mail (the link expires),
// changes roles and removes members; a workspace always keeps at least one owner, checked under a
// lock on its owners' rows so that two owners demoting each other at once cannot leave none.
import type { Db, Tx } from '../../db/client.ts';
import type { Invitation, Membership, Person, Workspace } from '../../generated/prisma/client.ts';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Mailer } from '../mailer.ts';
import { NotFoundError, StateError, ValidationError } from '../errors.ts';
import { parseInput, isUuid } from '../validation.ts';
import { roleWithin, WORKSPACE_ROLES, type WorkspaceRole } from '../access-tokens.ts';
import { email, hashPassword, password, passwordMatches } from './passwords.ts';
import { newSecret, secretHash } from './tokens.ts';
import { endSessions } from './sessions.ts';

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type MemberRecord = Membership & { person: Pick<Person, 'id' | 'email'> };

/** Who acts: a person's e-mail or a token's name, and the role it acts with. */
export interface Actor {
  label: string;
  role: WorkspaceRole;
}

const inviteInput = z.object({ email: email(), role: z.enum(WORKSPACE_ROLES, { error: 'role_invalid' }) });

/** The link a person opens to accept: the token rides in the fragment, which browsers never send. */
export const invitationLink = (baseUrl: string, token: string) => `${baseUrl}/dashboard/#invitation=${encodeURIComponent(token)}`;

/**
 * Invites `email` with `role` (the actor's role or narrower) and e-mails the link; returns the
 * invitation and the link (the CLI prints it where no SMTP server is configured).
 */
export async function inviteMember(
  deps: { db: Db; mailer: Mailer; baseUrl: string; clock: Clock },
  workspace: Workspace,
  actor: Actor,
  input: unknown,
): Promise<{ invitation: Invitation; link: string }> {
  const { invitation, link } = await createInvitation(deps, workspace, actor, input);
  await sendInvitation(deps.mailer, workspace, invitation, link);
  return { invitation, link };
}

const sendInvitation = (mailer: Mailer, workspace: Workspace, invitation: Invitation, link: string) =>
  mailer.send({ to: invitation.email, subject: `${workspace.name}: davet / invitation`, text: invitationText(workspace.name, invitation.role, link, INVITATION_DAYS) });

/**
 * Sends a pending invitation again with a new link and a new expiry: the old link stops working
 * (its token's hash is replaced), so a mail that went astray opens nothing.
 */
export async function resendInvitation(deps: { db: Db; mailer: Mailer; baseUrl: string; clock: Clock }, workspace: Workspace, invitationId: string): Promise<{ invitation: Invitation; link: string }> {
  const open = await openInvitation(deps.db, workspace.id, invitationId);
  const token = newSecret();
  const now = deps.clock.now();
  const taken = await deps.db.invitation.updateMany({
    where: { id: open.id, acceptedAt: null },
    data: { tokenHash: secretHash(token), createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS) },
  });
  if (taken.count !== 1) throw NotFoundError.single(['id'], 'invitation_not_found');
  const invitation = await deps.db.invitation.findUniqueOrThrow({ where: { id: open.id } });
  const link = invitationLink(deps.baseUrl, token);
  await sendInvitation(deps.mailer, workspace, invitation, link);
  return { invitation, link };
}

/** Withdraws a pending invitation: its link stops working at once. */
export async function cancelInvitation(db: Db, workspace: Workspace, invitationId: string): Promise<Invitation> {
  const open = await openInvitation(db, workspace.id, invitationId);
  const gone = await db.invitation.deleteMany({ where: { id: open.id, acceptedAt: null } });
  if (gone.count !== 1) throw NotFoundError.single(['id'], 'invitation_not_found');
  return open;
}

/** A pending invitation of the workspace (not accepted; an expired one may be resent or cancelled too). */
async function openInvitation(db: Db, workspaceId: string, invitationId: string): Promise<Invitation> {
  const found = isUuid(invitationId) ? await db.invitation.findFirst({ where: { id: invitationId, workspaceId, acceptedAt: null } }) : null;
  if (!found) throw NotFoundError.single(['id'], 'invitation_not_found');
  return found;
}

/** An invitation and its link, not sent (the demo workspace's first owner gets the link in a file). */
export async function createInvitation(
  deps: { db: Db; baseUrl: string; clock: Clock },
  workspace: Workspace,
  actor: Actor,
  input: unknown,
): Promise<{ invitation: Invitation; link: string }> {
  const { email: to, role } = parseInput(inviteInput, input);
  if (!roleWithin(role, actor.role)) throw ValidationError.single(['role'], 'role_above_own', { role: actor.role });
  const existing = await deps.db.membership.findFirst({ where: { workspaceId: workspace.id, person: { email: to } } });
  if (existing) throw ValidationError.single(['email'], 'already_member');
  const token = newSecret();
  const now = deps.clock.now();
  const invitation = await deps.db.invitation.create({
    data: { workspaceId: workspace.id, email: to, role, tokenHash: secretHash(token), invitedBy: actor.label, createdAt: now, expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS) },
  });
  return { invitation, link: invitationLink(deps.baseUrl, token) };
}

function invitationText(workspaceName: string, role: string, link: string, days: number): string {
  return [
    `${workspaceName} ödeme panosuna ${role} rolüyle davet edildiniz. Parolanızı belirlemek için bağlantıyı açın (${days} gün geçerli):`,
    link,
    '',
    `You are invited to the ${workspaceName} payment dashboard as ${role}. Open the link to set your password (valid for ${days} days):`,
    link,
  ].join('\n');
}

/** A pending invitation by its link's token (the accept screen shows its e-mail and workspace), or null. */
export async function findInvitation(db: Db, token: string, now: Date): Promise<(Invitation & { workspace: Workspace }) | null> {
  const found = await db.invitation.findUnique({ where: { tokenHash: secretHash(token) }, include: { workspace: true } });
  return found && found.acceptedAt === null && found.expiresAt > now ? found : null;
}

const acceptInput = z.object({ token: z.string({ error: 'invitation_invalid' }).min(1, { error: 'invitation_invalid' }), password: password() });

/**
 * Accepts an invitation: a new person sets a password; a person who already has one (a member of
 * another workspace) confirms it instead. The link works once.
 */
export async function acceptInvitation(db: Db, input: unknown, clock: Clock): Promise<MemberRecord> {
  const { token, password: plain } = parseInput(acceptInput, input);
  const now = clock.now();
  const invitation = await findInvitation(db, token, now);
  if (!invitation) throw ValidationError.single(['token'], 'invitation_invalid');
  const person = await db.person.findUnique({ where: { email: invitation.email } });
  if (person && !(await passwordMatches(person.passwordHash, plain))) throw ValidationError.single(['password'], 'sign_in_failed');
  const passwordHash = person ? null : await hashPassword(plain);
  return db.$transaction(async (tx) => {
    const taken = await tx.invitation.updateMany({ where: { id: invitation.id, acceptedAt: null }, data: { acceptedAt: now } });
    if (taken.count !== 1) throw ValidationError.single(['token'], 'invitation_invalid');
    const who = person ?? (await tx.person.create({ data: { email: invitation.email, passwordHash: passwordHash!, createdAt: now, passwordChangedAt: now } }));
    return tx.membership.upsert({
      where: { personId_workspaceId: { personId: who.id, workspaceId: invitation.workspaceId } },
      create: { personId: who.id, workspaceId: invitation.workspaceId, role: invitation.role, createdAt: now },
      update: {},
      include: { person: { select: { id: true, email: true } } },
    });
  });
}

/** Members oldest first, and the invitations still open. */
export async function listMembers(db: Db, workspaceId: string): Promise<MemberRecord[]> {
  return db.membership.findMany({ where: { workspaceId }, include: { person: { select: { id: true, email: true } } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function pendingInvitations(db: Db, workspaceId: string, now: Date): Promise<Invitation[]> {
  return db.invitation.findMany({ where: { workspaceId, acceptedAt: null, expiresAt: { gt: now } }, orderBy: { createdAt: 'desc' } });
}

/** The member with this e-mail (any case), for the CLI, which names people rather than ids. */
export async function memberByEmail(db: Db, workspaceId: string, address: string): Promise<MemberRecord> {
  const found = await db.membership.findFirst({ where: { workspaceId, person: { email: address.trim().toLowerCase() } }, include: { person: { select: { id: true, email: true } } } });
  if (!found) throw NotFoundError.single(['email'], 'member_not_found');
  return found;
}

/** Gives a member another role; the last owner keeps theirs. */
export async function changeMemberRole(db: Db, workspace: Workspace, memberId: string, role: unknown): Promise<MemberRecord> {
  const newRole = parseInput(z.enum(WORKSPACE_ROLES, { error: 'role_invalid' }), role);
  return db.$transaction(async (tx) => {
    const member = await lockedMember(tx, workspace.id, memberId);
    if (member.role === 'owner' && newRole !== 'owner') await keepAnOwner(tx, workspace.id);
    return tx.membership.update({ where: { id: member.id }, data: { role: newRole }, include: { person: { select: { id: true, email: true } } } });
  });
}

/** Removes a member and ends their sessions in this workspace at once; the last owner stays. */
export async function removeMember(db: Db, workspace: Workspace, memberId: string, clock: Clock): Promise<MemberRecord> {
  return db.$transaction(async (tx) => {
    const member = await lockedMember(tx, workspace.id, memberId);
    if (member.role === 'owner') await keepAnOwner(tx, workspace.id);
    await tx.membership.delete({ where: { id: member.id } });
    await endSessions(tx, { personId: member.personId, workspaceId: workspace.id }, clock.now());
    return member;
  });
}



/** The member, its workspace's owner rows locked until the transaction ends. */
async function lockedMember(tx: Tx, workspaceId: string, memberId: string): Promise<MemberRecord> {
  if (!isUuid(memberId)) throw NotFoundError.single(['id'], 'member_not_found');
  await tx.$queryRaw`SELECT id FROM "Membership" WHERE "workspaceId" = ${workspaceId}::uuid AND (role = 'owner' OR id = ${memberId}::uuid) FOR UPDATE`;
  const member = await tx.membership.findFirst({ where: { id: memberId, workspaceId }, include: { person: { select: { id: true, email: true } } } });
  if (!member) throw NotFoundError.single(['id'], 'member_not_found');
  return member;
}

async function keepAnOwner(tx: Tx, workspaceId: string): Promise<void> {
  const owners = await tx.membership.count({ where: { workspaceId, role: 'owner' } });
  if (owners <= 1) throw StateError.single(['id'], 'last_owner');
}
