// `npm run emulator -- posnet`: the Yapı Kredi PosNet emulator started by hand, with the merchant
// it accepts (flags, else POSNET_EMULATOR_* variables, else the emulator's test merchant).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_POSNET_MERCHANT as D, startPosnetEmulator } from './server.ts';

interface PosnetFlags extends ListenFlags {
  merchantId: string;
  terminalId: string;
  posnetId: string;
  encKey: string;
}

export const POSNET_DEFAULT_PORT = 8793;

export function posnetCommand(): Command {
  return emulatorCommand('posnet', 'a Yapı Kredi PosNet virtual POS: XML service, 3-D service and ACS page', POSNET_DEFAULT_PORT)
    .addOption(credentialOption('--merchant-id <mid>', 'the merchant number (mid)', D.merchantId, 'POSNET_EMULATOR_MERCHANT_ID'))
    .addOption(credentialOption('--terminal-id <tid>', 'the terminal number (tid)', D.terminalId, 'POSNET_EMULATOR_TERMINAL_ID'))
    .addOption(credentialOption('--posnet-id <id>', 'the PosNet id of the 3-D service', D.posnetId, 'POSNET_EMULATOR_POSNET_ID'))
    .addOption(credentialOption('--enc-key <key>', 'the encryption key (ENCKEY) the macs are made with', D.encKey, 'POSNET_EMULATOR_ENC_KEY'))
    .action(
      serveEmulator('PosNet', (flags: PosnetFlags) => startPosnetEmulator(flags), (emulator) => [
        ['3-D service', emulator.gateUrl],
        ['XML service', emulator.apiUrl],
        ['merchant id', emulator.merchantId],
        ['terminal id', emulator.terminalId],
        ['posnet id', emulator.posnetId],
        ['enc key', emulator.encKey],
      ]),
    );
}
