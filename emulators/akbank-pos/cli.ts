// `npm run emulator -- akbank-pos`: the Akbank virtual POS emulator started by hand, with the
// terminal it accepts (mewebstudio/pos's test account unless the flags say otherwise).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_AKBANK_TERMINAL as D, type AkbankTerminal } from './config.ts';
import { startAkbankEmulator } from './server.ts';

type AkbankFlags = ListenFlags & AkbankTerminal;

export const AKBANK_POS_DEFAULT_PORT = 8796;

export function akbankPosCommand(): Command {
  return emulatorCommand('akbank-pos', "Akbank's virtual POS (JSON API): 3-D gates (3D, 3D Pay, 3D Host), ACS page and API", AKBANK_POS_DEFAULT_PORT)
    .addOption(credentialOption('--merchant-safe-id <id>', 'the merchant safe id (merchantSafeId)', D.merchantSafeId))
    .addOption(credentialOption('--terminal-safe-id <id>', 'the terminal safe id (terminalSafeId)', D.terminalSafeId))
    .addOption(credentialOption('--secret-key <key>', 'the secret key that signs API bodies (auth-hash), the 3-D form and the callback', D.secretKey))
    .action(
      serveEmulator('akbank-pos', (flags: AkbankFlags) => startAkbankEmulator(flags), (emulator) => [
        ['API', emulator.apiUrl],
        ['3-D gate', emulator.gateUrl],
        ['3D Host gate', emulator.hostGateUrl],
        ['merchant safe id', emulator.merchantSafeId],
        ['terminal safe id', emulator.terminalSafeId],
        ['secret key', emulator.secretKey],
      ]),
    );
}
