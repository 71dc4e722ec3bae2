// `gateway token create`: GraphQL bearer tokens for the dashboard (one workspace) or for support
// staff (read-only, every workspace). Only a hash is stored, so the token is printed once.
import type { Command } from 'commander';
import { createAccessToken } from '../domain/workspaces.ts';
import { withDatabase, type CliIo } from './context.ts';
import { CliError } from './parse.ts';

export function registerTokenCommands(program: Command, io: CliIo): void {
  const token = program.command('token').description('GraphQL access tokens (Authorization: Bearer <token> on /graphql)');
  token
    .command('create')
    .description("Create a dashboard token (--workspace) or a read-only support token (--support); it is shown once")
    .option('--workspace <slug>', "a dashboard token that sees this workspace only")
    .option('--support', 'a support-staff token: reads every workspace, writes nothing')
    .option('--name <name>', 'a label to tell tokens apart (default: dashboard or support)')
    .hook('preAction', (command) => {
      const opts = command.opts<{ workspace?: string; support?: boolean }>();
      if (Boolean(opts.workspace) === Boolean(opts.support)) throw new CliError('Give exactly one of --workspace <slug> or --support');
    })
    .action(
      withDatabase(io, async (ctx, opts: { workspace?: string; support?: boolean; name?: string }) => {
        const role = opts.support ? 'support' : 'dashboard';
        const value = await createAccessToken(ctx.db, opts.workspace ?? null, opts.name ?? role);
        ctx.print({ role, team: opts.workspace ?? null, name: opts.name ?? role, token: value }, [
          opts.support ? 'Support token created (read-only, every workspace).' : `Dashboard token created for "${opts.workspace}".`,
          'It is shown only this once; store it now.',
          `  token  ${value}`,
        ]);
      }),
    );
}
