// `npm run emulator -- est`: the EST virtual POS emulator started by hand, with the merchant's
// credentials it accepts (flags, else EST_EMULATOR_* variables, else the emulator's test merchant).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_EST_CREDENTIALS as D, startEstEmulator } from './server.ts';

interface EstFlags extends ListenFlags {
  clientId: string;
  storeKey: string;
  apiUser: string;
  apiPassword: string;
}

export const EST_DEFAULT_PORT = 8792;

export function estCommand(): Command {
  return emulatorCommand('est', 'an EST (Payten) virtual POS: 3D gate, ACS page and XML API', EST_DEFAULT_PORT)
    .addOption(credentialOption('--client-id <id>', 'the merchant number (clientid)', D.clientId, 'EST_EMULATOR_CLIENT_ID'))
    .addOption(credentialOption('--store-key <key>', 'the 3D store key that signs the gate form and the callback', D.storeKey, 'EST_EMULATOR_STORE_KEY'))
    .addOption(credentialOption('--api-user <user>', 'the XML API user (Name)', D.apiUser, 'EST_EMULATOR_API_USER'))
    .addOption(credentialOption('--api-password <password>', 'the XML API password', D.apiPassword, 'EST_EMULATOR_API_PASSWORD'))
    .action(
      serveEmulator('EST', (flags: EstFlags) => startEstEmulator(flags), (emulator) => [
        ['3D gate', emulator.gateUrl],
        ['XML API', emulator.apiUrl],
        ['client id', emulator.clientId],
        ['store key', emulator.storeKey],
        ['API user', emulator.apiUser],
        ['API password', emulator.apiPassword],
      ]),
    );
}
