// What every CLI action gets: the database (opened after the arguments are checked, closed
// after the action), the master key, and one way to print for people or for scripts (--json).
import type { Command } from 'commander';
import { assertStartable, loadConfig } from '../config.ts';
import { CliError } from './parse.ts';
import type { CliContext, CliIo } from './io.ts';

export type { CliContext, CliIo, CliOutput } from './io.ts';

/** Wraps a commander action: opens the database, runs the action, always closes it again. */
export function withDatabase<A extends unknown[]>(io: CliIo, action: (ctx: CliContext, ...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    const command = args[args.length - 1] as Command;
    const json = Boolean(command.optsWithGlobals<{ json?: boolean }>().json);
    const config = loadConfig(io.env);
    assertStartable(config);
    // Loaded only here: Prisma and the PostgreSQL drivers are slow to import, and --help or a
    // rejected argument should answer at once.
    const { openDatabase } = await import('./database.ts');
    const { db, masterKey, close } = await openDatabase(config, io.stderr);
    try {
      const ctx: CliContext = { db, masterKey, config, json, print: (data, lines) => io.stdout.write(json ? JSON.stringify(data, null, 2) + '\n' : lines.join('\n') + '\n') };
      await action(ctx, ...args);
      // A write that succeeded is an audit entry, as the same change made in the dashboard is.
      const { auditCommand } = await import('./audit.ts');
      await auditCommand(ctx, io, command);
    } finally {
      await close();
    }
  };
}

/** One line an operator can act on, for any error an action throws. */
export function describeError(err: unknown): string {
  if (err instanceof CliError) return err.message;
  const e = err as { code?: unknown; message?: unknown; meta?: { target?: unknown; modelName?: unknown } };
  if (e?.code === 'P2002') return `Already exists: ${[e.meta?.modelName, e.meta?.target].filter(Boolean).join(' ') || 'a unique value is taken'}`;
  if (e?.code === 'P2025') return 'Not found';
  const lines = (typeof e?.message === 'string' ? e.message : '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // AggregateErrors (a refused connection) have no message, only a code.
  if (lines.length === 0) return typeof e?.code === 'string' ? e.code : String(err);
  // Prisma puts the reason on the last line, after the call it was made from; others read as one line.
  return 'clientVersion' in (e as object) ? lines[lines.length - 1] : lines.join(' ');
}
