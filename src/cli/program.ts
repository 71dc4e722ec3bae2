// The admin command line as a function: `runCli(argv, io)` parses the words, runs the command with
// the given output streams and environment, and answers the exit code. It never exits the process,
// so tests run it in-process; src/cli.ts runs it for `npm run gateway -- <command>`.
import { Command, CommanderError } from 'commander';
import { describeError, type CliIo } from './context.ts';
import { registerAccountCommands } from './accounts.ts';
import { registerTokenCommands } from './tokens.ts';
import { registerMemberCommands } from './members.ts';
import { registerWorkspaceCommands } from './workspace.ts';
import { registerWebhookCommands } from './webhooks.ts';
import { registerRiskCommands } from './risk.ts';
import { registerTestClockCommands } from './test-clock.ts';

export type { CliIo };

const HELP_AFTER = `
Uses DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR (default .data), the same
database \`npm start\` uses; a running gateway's embedded server is reused. Give it the gateway's
master key (GATEWAY_MASTER_KEY, else DATA_DIR/master.key): a key the database's secrets were not
written with is refused before anything is written.

Examples:
  npm run gateway -- workspace create acme --name "Acme" --plan orders,saved_cards
  npm run gateway -- channel create acme "Web shop"
  npm run gateway -- account create acme "Simulator" --currencies TRY,USD --default
  npm run gateway -- account create acme "iyzico" --provider iyzico --credential api_key=… --credential secret_key=…
  npm run gateway -- account update acme <token> --credential api_key=… --credential secret_key=…
  npm run gateway -- workspace settings acme --bin-source <token>
  npm run gateway -- routing add acme --account <token> --scheme troy --min-amount 100.00
  npm run gateway -- token create --workspace acme --name dashboard
  npm run gateway -- webhooks add acme https://shop.example/hooks --events transaction.successful,order.paid
  npm run gateway -- webhooks disable acme https://shop.example/hooks
  npm run gateway -- risk rules save acme --name "Big amounts" --outcome require_3ds --when "amount gt 200000"
  npm run gateway -- risk rules test acme --when "email_domain in mailinator.com,example.net" --days 90
  npm run gateway -- risk lists add acme block ip 203.0.113.0/24 --note "card testing"
  npm run gateway -- test-clock advance acme 31d
  npm run gateway -- --json workspace list`;

function buildProgram(io: CliIo): Command {
  // Set before the subcommands are added: they copy these settings when created.
  const program = new Command('gateway')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      getOutHelpWidth: () => (io.stdout.isTTY && io.stdout.columns) || 80,
      getErrHelpWidth: () => (io.stderr.isTTY && io.stderr.columns) || 80,
      getOutHasColors: () => Boolean(io.stdout.isTTY && io.stdout.hasColors?.()),
      getErrHasColors: () => Boolean(io.stderr.isTTY && io.stderr.hasColors?.()),
    })
    .description('Payment gateway administration: workspaces, channels, payment accounts, routing, keys, tokens, members, webhook addresses, risk rules and lists, and test clocks')
    .option('--json', 'print machine-readable JSON instead of text')
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', HELP_AFTER);
  registerWorkspaceCommands(program, io);
  registerAccountCommands(program, io);
  registerTokenCommands(program, io);
  registerMemberCommands(program, io);
  registerWebhookCommands(program, io);
  registerRiskCommands(program, io);
  registerTestClockCommands(program, io);
  return program;
}

/** Runs one command line (the words after `gateway`); 0 on success, else the exit code to use. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (err) {
    // Commander has printed its own message (or the help) already.
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr.write(`error: ${describeError(err)}\n`);
    return 1;
  }
}
