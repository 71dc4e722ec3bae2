// `gateway token create|list|revoke`: GraphQL bearer tokens for the dashboard (one workspace) or
// for support staff (read-only, every workspace). Only a hash is stored, so the token is printed
// once. Support tokens expire after 30 days unless --expires-in-days says otherwise.
import type { Command } from 'commander';
import { issueAccessToken, listAccessTokens, revokeAccessToken, SUPPORT_TOKEN_DAYS, tokenUsable, type TokenRecord } from '../domain/access-tokens.ts';
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
    .description("Create a dashboard token (--workspace) or a read-only support token (--support); it is shown once")
    .option('--workspace <slug>', "a dashboard token that sees this workspace only")
    .option('--support', 'a support-staff token: reads every workspace, writes nothing')
    .option('--name <name>', 'a label to tell tokens apart (default: dashboard or support)')
    .option('--expires-in-days <days>', `days until it stops working, or never (default: ${SUPPORT_TOKEN_DAYS} for support, never for dashboard)`, parseDays)
    .hook('preAction', (command) => {
      const opts = command.opts<{ workspace?: string; support?: boolean }>();
      if (Boolean(opts.workspace) === Boolean(opts.support)) throw new CliError('Give exactly one of --workspace <slug> or --support');
    })
    .action(
      withDatabase(io, async (ctx, opts: { workspace?: string; support?: boolean; name?: string; expiresInDays?: number | 'never' }) => {
        const role = opts.support ? 'support' : 'dashboard';
        const { token: value, record: created } = await issueAccessToken(ctx.db, opts.workspace ?? null, opts.name ?? role, { expiresInDays: opts.expiresInDays === 'never' ? null : opts.expiresInDays });
        const expiresAt = created.expiresAt?.toISOString() ?? null;
        ctx.print({ id: created.id, role, team: opts.workspace ?? null, name: opts.name ?? role, expires_at: expiresAt, token: value }, [
          opts.support ? 'Support token created (read-only, every workspace).' : `Dashboard token created for "${opts.workspace}".`,
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
