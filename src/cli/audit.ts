// A change made with the CLI is an audit entry like the same change made in the dashboard: the
// same operation name (saveRiskRule, addRiskListEntry, ...) and arguments, so the Audit screen and
// its filter show both. The CLI has no token and no signed-in person: whoever runs it holds the
// database's credentials and can do all an owner can, so the entry is an owner's, named after the
// operating-system account and machine it ran on (`cli: deploy@gw-1`), with no token id. As in
// the dashboard, the entry follows the change and a failed write does not undo it; the operator
// is told on stderr.
import os from 'node:os';
import { recordAudit } from '../domain/audit.ts';
import type { CliContext, CliIo } from './context.ts';

/** Who ran the CLI: the operating-system account (USER, else the process's own) and the host. */
export function cliActor(env: Record<string, string | undefined>): string {
  let user = env.USER || env.LOGNAME || '';
  if (!user) {
    try {
      user = os.userInfo().username;
    } catch {
      // A container user with no passwd entry has no name, only a number.
      user = `uid ${process.getuid?.() ?? '?'}`;
    }
  }
  return `cli: ${user}@${os.hostname()}`;
}

export async function auditCliChange(ctx: CliContext, io: CliIo, workspaceId: string, operation: string, variables: unknown): Promise<void> {
  try {
    await recordAudit(ctx.db, { workspaceId, token: { id: null, name: cliActor(io.env), role: 'owner' }, operation, outcome: 'done', variables, at: new Date() });
  } catch (err) {
    io.stderr.write(`warning: the change was made but its audit entry was not written: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
