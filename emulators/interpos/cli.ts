// `npm run emulator -- interpos`: the Denizbank InterPOS emulator started by hand, with the
// merchant's credentials it accepts (flags, else INTERPOS_EMULATOR_* variables, else
// mewebstudio/pos's test account).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_INTERPOS_CREDENTIALS as D } from './config.ts';
import { startInterPosEmulator } from './server.ts';

interface InterPosFlags extends ListenFlags {
  shopCode: string;
  userCode: string;
  userPassword: string;
  storeKey: string;
}

export const INTERPOS_DEFAULT_PORT = 8795;

export function interPosCommand(): Command {
  return emulatorCommand('interpos', 'a Denizbank InterPOS virtual POS: 3D gate (3D, 3D Pay), 3D Host page, ACS and API', INTERPOS_DEFAULT_PORT)
    .addOption(credentialOption('--shop-code <code>', 'the merchant number (ShopCode)', D.shopCode, 'INTERPOS_EMULATOR_SHOP_CODE'))
    .addOption(credentialOption('--user-code <user>', 'the API user (UserCode)', D.userCode, 'INTERPOS_EMULATOR_USER_CODE'))
    .addOption(credentialOption('--user-password <password>', 'the API password (UserPass)', D.userPassword, 'INTERPOS_EMULATOR_USER_PASSWORD'))
    .addOption(credentialOption('--store-key <key>', 'the 3D store key (MerchantPass) that signs the gate form and the callback', D.storeKey, 'INTERPOS_EMULATOR_STORE_KEY'))
    .action(
      serveEmulator('InterPOS', (flags: InterPosFlags) => startInterPosEmulator(flags), (emulator) => [
        ['3D gate and API', emulator.gateUrl],
        ['3D Host page', emulator.hostUrl],
        ['shop code', emulator.shopCode],
        ['user code', emulator.userCode],
        ['user password', emulator.userPassword],
        ['store key', emulator.storeKey],
      ]),
    );
}
