// `gateway token create|list|revoke`: GraphQL bearer tokens for the dashboard (one workspace, with
// a role: owner, developer, operator or viewer) or for support staff (read-only, every workspace). Only a hash is stored, so the token is printed
// once. Support tokens expire after 30 days unless --expires-in-days says otherwise.
import type { Command } from 'commander';
import { issueAccessToken, listAccessTokens, revokeAccessToken, SUPPORT_TOKEN_DAYS, tokenUsable, WORKSPACE_ROLES, type TokenRecord, type WorkspaceRole } from '../domain/access-tokens.ts';
import { requireWorkspace } from '../domain/workspaces.ts';
import { withDatabase, type CliIo } from './context.ts';
import { CliError, parseId } from './parse.ts';

/** `never` stays a word: commander turns a parser's null into an empty string. */
function parseDays(text: string): number | 'never' {
  if (text === 'never') return 'never';
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new CliError('--expires-in-days must be a whole number of days from 1 to 3650, or never');
  return days;
}

function parseRole(text: string): WorkspaceRole {
  if ((WORKSPACE_ROLES as readonly string[]).includes(text)) return text as WorkspaceRole;
  throw new CliError(`--role must be one of ${WORKSPACE_ROLES.join(', ')}`);
}

interface CreateOptions {
  workspace?: string;
  support?: boolean;
  name?: string;
  role?: WorkspaceRole;
  expiresInDays?: number | 'never';
}

export const tokenJson = (r: TokenRecord, now: Date) => ({
  id: r.id,
  name: r.name,
  role: r.role,
  team: r.workspace?.slug ?? null,
  created_at: r.createdAt.toISOString(),
  expires_at: r.expiresAt?.toISOString() ?? null,
  revoked_at: r.revokedAt?.toISOString() ?? null,
  active: tokenUsable(r, now),
});

export function registerTokenCommands(program: Command, io: CliIo): void {
  const token = program.command('token').description('GraphQL access tokens (Authorization: Bearer <token> on /graphql)');
  token
    .command('create')
    .description("Create a dashboard token (<team> or --workspace) with a role, or a read-only support token (--support); it is shown once")
    .argument('[team]', 'the workspace a dashboard token sees (same as --workspace)')
    .argument('[name]', 'a label to tell tokens apart (same as --name)')
    .option('--workspace <slug>', "a dashboard token that sees this workspace only")
    .option('--support', 'a support-staff token: reads every workspace, writes nothing')
    .option('--name <name>', 'a label to tell tokens apart (default: the role)')
    .option('--role <role>', `a dashboard token's role: ${WORKSPACE_ROLES.join(', ')} (default: owner)`, parseRole)
    .option('--expires-in-days <days>', `days until it stops working, or never (default: ${SUPPORT_TOKEN_DAYS} for support, never for dashboard)`, parseDays)
    .hook('preAction', (command) => {
      const opts = command.opts<CreateOptions>();
      const [team, name] = command.args;
      if (team && opts.workspace && team !== opts.workspace) throw new CliError('Give the workspace once: <team> or --workspace <slug>');
      if (name && opts.name && name !== opts.name) throw new CliError('Give the name once: <name> or --name <name>');
      if (Boolean(team || opts.workspace) === Boolean(opts.support)) throw new CliError('Give exactly one of --workspace <slug> or --support');
      if (opts.support && opts.role) throw new CliError('A support token has no role: it reads every workspace and writes nothing');
    })
    .action(
      withDatabase(io, async (ctx, team: string | undefined, name: string | undefined, opts: CreateOptions) => {
        const workspace = team ?? opts.workspace ?? null;
        const role = opts.support ? 'support' : (opts.role ?? 'owner');
        const label = name ?? opts.name ?? role;
        const { token: value, record: created } = await issueAccessToken(ctx.db, workspace, label, {
          role: opts.role,
          expiresInDays: opts.expiresInDays === 'never' ? null : opts.expiresInDays,
        });
        const expiresAt = created.expiresAt?.toISOString() ?? null;
        ctx.print({ id: created.id, role, team: workspace, name: label, expires_at: expiresAt, token: value }, [
          opts.support ? 'Support token created (read-only, every workspace).' : `Dashboard token created for "${workspace}" with the role ${role}.`,
          'It is shown only this once; store it now.',
          `  token    ${value}`,
          `  id       ${created.id} (to revoke it: npm run gateway -- token revoke <id>)`,
          `  expires  ${expiresAt ?? 'never'}`,
        ]);
      }),
    );
  token
    .command('list')
    .description('List access tokens (never the tokens themselves): every one, or one workspace\'s')
    .option('--workspace <slug>', "only this workspace's dashboard tokens")
    .action(
      withDatabase(io, async (ctx, opts: { workspace?: string }) => {
        const workspaceId = opts.workspace ? (await requireWorkspace(ctx.db, opts.workspace)).id : null;
        const now = new Date();
        const rows = (await listAccessTokens(ctx.db, { workspaceId })).map((r) => tokenJson(r, now));
        ctx.print(rows, rows.length === 0 ? ['No access tokens.'] : rows.map((r) =>
          `${r.id}  ${r.role.padEnd(9)} ${(r.team ?? '-').padEnd(16)} ${r.name.padEnd(16)} ${r.revoked_at ? `revoked ${r.revoked_at}` : r.active ? `expires ${r.expires_at ?? 'never'}` : `expired ${r.expires_at}`}`));
      }),
    );
  token
    .command('revoke')
    .description('Revoke a token by its id; it stops working at once in every gateway process')
    .argument('<id>', 'the id shown by token create or token list')
    .action(
      withDatabase(io, async (ctx, id: string) => {
        const tokenId = parseId(id, 'token id');
        const revoked = await revokeAccessToken(ctx.db, tokenId).catch(() => {
          throw new CliError(`No access token ${tokenId}`);
        });
        ctx.print(tokenJson(revoked, new Date()), [`Token ${revoked.id} (${revoked.name}) revoked.`]);
      }),
    );
}
