// `gateway member invite <team> <email> --role <role>`: invites a person to a workspace's
// dashboard. The link goes by e-mail (SMTP_URL) and is printed too, for an operator to pass on
// where no SMTP server is configured; it works once, for 7 days.
import type { Command } from 'commander';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../domain/access-tokens.ts';
import { inviteMember, INVITATION_DAYS } from '../domain/people/members.ts';
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
          if (err instanceof DomainError) throw new CliError(err.issues.map((i) => `${i.path.join('.') || 'input'}: ${message(i.code, 'en', i.params)}`).join('; '));
          throw err;
        }
      }),
    );
}
