// `npm run emulator -- garanti`: the Garanti BBVA virtual POS emulator started by hand, with the
// terminal it accepts (mewebstudio/pos's test terminal unless the flags say otherwise).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_GARANTI_CREDENTIALS as D, type GarantiCredentials } from './config.ts';
import { startGarantiEmulator } from './server.ts';

type GarantiFlags = ListenFlags & GarantiCredentials;

export const GARANTI_DEFAULT_PORT = 8791;

export function garantiCommand(): Command {
  return emulatorCommand('garanti', 'the Garanti BBVA virtual POS (GVP): 3D gate, ACS page and XML API', GARANTI_DEFAULT_PORT)
    .addOption(credentialOption('--merchant-id <id>', 'the merchant number (terminalmerchantid)', D.merchantId))
    .addOption(credentialOption('--terminal-id <id>', 'the terminal number', D.terminalId))
    .addOption(credentialOption('--provision-user <user>', 'the provision user (sales, inquiries)', D.provisionUser))
    .addOption(credentialOption('--provision-password <password>', "the provision user's password", D.provisionPassword))
    .addOption(credentialOption('--refund-user <user>', 'the refund user (refunds, voids)', D.refundUser))
    .addOption(credentialOption('--refund-password <password>', "the refund user's password", D.refundPassword))
    .addOption(credentialOption('--store-key <key>', 'the 3D store key that signs the gate form and the callback', D.storeKey))
    .action(
      serveEmulator('garanti', (flags: GarantiFlags) => startGarantiEmulator(flags), (emulator) => [
        ['3D gate', emulator.gateUrl],
        ['XML API', emulator.apiUrl],
        ['merchant id', emulator.merchantId],
        ['terminal id', emulator.terminalId],
        ['provision', `${emulator.provisionUser} / ${emulator.provisionPassword}`],
        ['refund', `${emulator.refundUser} / ${emulator.refundPassword}`],
        ['store key', emulator.storeKey],
      ]),
    );
}
