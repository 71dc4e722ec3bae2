// `gateway member invite <team> <email> --role <role>`: invites a person to a workspace's
// dashboard. The link goes by e-mail (SMTP_URL) and is printed too, for an operator to pass on
// where no SMTP server is configured; it works once, for 7 days. `member list`, `member role` and
// `member remove` show and change the team by e-mail, with the dashboard's rules (the last owner
// stays; a removed member's sessions end at once).
import type { Command } from 'commander';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../domain/access-tokens.ts';
import { changeMemberRole, inviteMember, INVITATION_DAYS, listMembers, memberByEmail, pendingInvitations, removeMember } from '../domain/people/members.ts';
import { requireWorkspace } from '../domain/workspaces.ts';
import { systemClock } from '../domain/clock.ts';
import { DomainError } from '../domain/errors.ts';
import { message } from '../domain/messages.ts';
import { createMailer } from '../mail.ts';
import { createLogger } from '../logger.ts';
import { withDatabase, type CliIo } from './context.ts';
import { CliError } from './parse.ts';

function parseRole(text: string): WorkspaceRole {
  if ((WORKSPACE_ROLES as readonly string[]).includes(text)) return text as WorkspaceRole;
  throw new CliError(`--role must be one of ${WORKSPACE_ROLES.join(', ')}`);
}

export function registerMemberCommands(program: Command, io: CliIo): void {
  const member = program.command('member').description("People of a workspace's dashboard (e-mail and password, a role each)");
  member
    .command('invite')
    .description(`Invite a person by e-mail with a role; the link is e-mailed (SMTP_URL) and printed, and works for ${INVITATION_DAYS} days`)
    .argument('<team>', 'the workspace')
    .argument('<email>', "the person's e-mail address")
    .option('--role <role>', `${WORKSPACE_ROLES.join(', ')} (default: owner)`, parseRole)
    .action(
      withDatabase(io, async (ctx, team: string, email: string, opts: { role?: WorkspaceRole }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        // Without SMTP the link is printed below instead of being logged as an unsent mail.
        const mailer = ctx.config.SMTP_URL ? createMailer({ smtpUrl: ctx.config.SMTP_URL, from: ctx.config.MAIL_FROM, logger: createLogger('warn', (line) => io.stderr.write(line + '\n')) }) : { send: async () => {} };
        try {
          const { invitation, link } = await inviteMember({ db: ctx.db, mailer, baseUrl: ctx.config.baseUrl, clock: systemClock }, workspace, { label: 'cli', role: 'owner' }, { email, role: opts.role ?? 'owner' });
          ctx.print({ id: invitation.id, team, email: invitation.email, role: invitation.role, expires_at: invitation.expiresAt.toISOString(), link, mailed: Boolean(ctx.config.SMTP_URL) }, [
            `Invitation for ${invitation.email} (${invitation.role}) in "${team}", valid until ${invitation.expiresAt.toISOString()}.`,
            ctx.config.SMTP_URL ? 'It was e-mailed; the link is also:' : 'SMTP_URL is not set: nothing was e-mailed. Pass the link on yourself:',
            `  ${link}`,
          ]);
        } catch (err) {
          throw asCliError(err);
        }
      }),
    );
  member
    .command('list')
    .description('The members of a workspace (e-mail, role, two-factor on or not) and its pending invitations')
    .argument('<team>', 'the workspace')
    .action(
      withDatabase(io, async (ctx, team: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const members = await listMembers(ctx.db, workspace.id);
        const twoFactor = new Set((await ctx.db.person.findMany({ where: { id: { in: members.map((x) => x.personId) }, totpEnabledAt: { not: null } }, select: { id: true } })).map((p) => p.id));
        const invitations = await pendingInvitations(ctx.db, workspace.id, systemClock.now());
        const rows = members.map((x) => ({ email: x.person.email, role: x.role, two_factor: twoFactor.has(x.personId), since: x.createdAt.toISOString() }));
        ctx.print({ team, members: rows, invitations: invitations.map((i) => ({ email: i.email, role: i.role, expires_at: i.expiresAt.toISOString() })) }, [
          ...rows.map((r) => `${r.email}  ${r.role}${r.two_factor ? '  2FA' : ''}  since ${r.since}`),
          ...invitations.map((i) => `${i.email}  ${i.role}  invited, until ${i.expiresAt.toISOString()}`),
          ...(rows.length + invitations.length === 0 ? [`No members in "${team}".`] : []),
        ]);
      }),
    );
  member
    .command('role')
    .description('Give a member another role (the last owner keeps theirs)')
    .argument('<team>', 'the workspace')
    .argument('<email>', "the member's e-mail address")
    .argument('<role>', WORKSPACE_ROLES.join(', '), parseRole)
    .action(
      withDatabase(io, async (ctx, team: string, email: string, role: WorkspaceRole) => {
        const workspace = await requireWorkspace(ctx.db, team);
        try {
          const changed = await changeMemberRole(ctx.db, workspace, (await memberByEmail(ctx.db, workspace.id, email)).id, role);
          ctx.print({ team, email: changed.person.email, role: changed.role }, [`${changed.person.email} is now ${changed.role} in "${team}".`]);
        } catch (err) {
          throw asCliError(err);
        }
      }),
    );
  member
    .command('remove')
    .description("Remove a member; their sessions in the workspace end at once (the last owner stays)")
    .argument('<team>', 'the workspace')
    .argument('<email>', "the member's e-mail address")
    .action(
      withDatabase(io, async (ctx, team: string, email: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        try {
          const removed = await removeMember(ctx.db, workspace, (await memberByEmail(ctx.db, workspace.id, email)).id, systemClock);
          ctx.print({ team, email: removed.person.email, removed: true }, [`${removed.person.email} was removed from "${team}"; their sessions there ended.`]);
        } catch (err) {
          throw asCliError(err);
        }
      }),
    );
}

function asCliError(err: unknown): unknown {
  if (err instanceof DomainError) return new CliError(err.issues.map((i) => `${i.path.join('.') || 'input'}: ${message(i.code, 'en', i.params)}`).join('; '));
  return err;
}
