// `npm run emulator -- payflex`: the VakıfBank PayFlex emulator started by hand, with the merchant it
// accepts (mewebstudio/pos's test account unless the flags say otherwise).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_PAYFLEX_TERMINAL as D, type PayflexTerminal } from './config.ts';
import { startPayflexEmulator } from './server.ts';

type PayflexFlags = ListenFlags & PayflexTerminal;

export const PAYFLEX_DEFAULT_PORT = 8797;

export function payflexCommand(): Command {
  return emulatorCommand('payflex', 'the VakıfBank PayFlex virtual POS (VPOS 7/24, MPI v4): MPI enrollment, ACS page, VPOS and search', PAYFLEX_DEFAULT_PORT)
    .addOption(credentialOption('--merchant-id <id>', 'the merchant number (MerchantId)', D.merchantId))
    .addOption(credentialOption('--password <password>', "the merchant's password (Password, MerchantPassword)", D.password))
    .addOption(credentialOption('--terminal-no <no>', 'the terminal number (TerminalNo)', D.terminalNo))
    .action(
      serveEmulator('payflex', (flags: PayflexFlags) => startPayflexEmulator(flags), (emulator) => [
        ['MPI enrollment', emulator.enrollmentUrl],
        ['VPOS', emulator.apiUrl],
        ['search', emulator.queryUrl],
        ['merchant id', emulator.merchantId],
        ['password', emulator.password],
        ['terminal', emulator.terminalNo],
      ]),
    );
}
