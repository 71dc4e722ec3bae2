// `npm run emulator -- payfor`: the QNB Finansbank PayFor emulator started by hand, with the
// account it accepts (mewebstudio/pos's test account unless the flags say otherwise).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_PAYFOR_TERMINAL as D, type PayforTerminal } from './config.ts';
import { startPayforEmulator } from './server.ts';

type PayforFlags = ListenFlags & PayforTerminal;

export const PAYFOR_DEFAULT_PORT = 8794;

export function payforCommand(): Command {
  return emulatorCommand('payfor', 'the QNB Finansbank PayFor virtual POS: 3D gate (3DModel, 3DPay), ACS page and XML API', PAYFOR_DEFAULT_PORT)
    .addOption(credentialOption('--merchant-id <id>', 'the merchant number (MerchantId)', D.merchantId))
    .addOption(credentialOption('--user-code <user>', 'the API user (UserCode)', D.userCode))
    .addOption(credentialOption('--user-password <password>', "the API user's password (UserPass)", D.userPassword))
    .addOption(credentialOption('--store-key <key>', 'the 3D store key (MerchantPass) that signs the gate form and the callback', D.storeKey))
    .action(
      serveEmulator('payfor', (flags: PayforFlags) => startPayforEmulator(flags), (emulator) => [
        ['3D gate', emulator.gateUrl],
        ['XML API', emulator.apiUrl],
        ['merchant id', emulator.merchantId],
        ['API user', `${emulator.userCode} / ${emulator.userPassword}`],
        ['store key', emulator.storeKey],
      ]),
    );
}
