// npm run emulator -- <name> [options]: starts a payment provider's emulator by hand and
// prints where it listens and the credentials it accepts, so a developer can point a payment
// account at it. `npm run emulator -- <name> --help` lists its flags. Ctrl-C stops it.
import { Command } from 'commander';
import { estCommand } from '../emulators/est/cli.ts';
import { garantiCommand } from '../emulators/garanti/cli.ts';
import { iyzicoCommand } from '../emulators/iyzico/cli.ts';
import { posnetCommand } from '../emulators/posnet/cli.ts';
import { payforCommand } from '../emulators/payfor/cli.ts';
import { interPosCommand } from '../emulators/interpos/cli.ts';
import { akbankPosCommand } from '../emulators/akbank-pos/cli.ts';
import { kuveytPosCommand } from '../emulators/kuveytpos/cli.ts';
import { payflexCommand } from '../emulators/payflex/cli.ts';

const program = new Command('npm run emulator --')
  .usage('<emulator> [options]')
  .description("Starts a payment provider's emulator on 127.0.0.1 and prints where it listens and the credentials it accepts")
  .addCommand(iyzicoCommand())
  .addCommand(estCommand())
  .addCommand(garantiCommand())
  .addCommand(posnetCommand())
  .addCommand(payforCommand())
  .addCommand(interPosCommand())
  .addCommand(akbankPosCommand())
  .addCommand(kuveytPosCommand())
  .addCommand(payflexCommand());

const names = program.commands.map((command) => command.name());
program.on('command:*', ([name]: string[]) => program.error(`error: unknown emulator '${name}': choose ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`));

await program.parseAsync();
