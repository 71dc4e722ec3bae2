// `npm run emulator -- kuveytpos`: the Kuveyt Türk KuveytPOS emulator started by hand, with the
// account it accepts (the bank's public test account unless the flags say otherwise).
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, serveEmulator, type ListenFlags } from '../cli.ts';
import { DEFAULT_KUVEYT_TERMINAL as D, type KuveytTerminal } from './config.ts';
import { startKuveytEmulator } from './server.ts';

type KuveytFlags = ListenFlags & KuveytTerminal;

export const KUVEYTPOS_DEFAULT_PORT = 8798;

export function kuveytPosCommand(): Command {
  return emulatorCommand('kuveytpos', 'the Kuveyt Türk KuveytPOS: 3-D gate (enrollment), ACS page, payment API and SOAP service', KUVEYTPOS_DEFAULT_PORT)
    .addOption(credentialOption('--merchant-id <id>', 'the shop number (MerchantId)', D.merchantId))
    .addOption(credentialOption('--customer-id <id>', 'the customer number (CustomerId)', D.customerId))
    .addOption(credentialOption('--user-name <user>', 'the API user (UserName)', D.userName))
    .addOption(credentialOption('--password <password>', "the API user's password, whose SHA-1 signs requests and answers", D.password))
    .action(
      serveEmulator('kuveytpos', (flags: KuveytFlags) => startKuveytEmulator(flags), (emulator) => [
        ['3D gate', emulator.gateUrl],
        ['payment API', emulator.paymentUrl],
        ['SOAP service', emulator.queryUrl],
        ['merchant id', emulator.merchantId],
        ['customer id', emulator.customerId],
        ['API user', `${emulator.userName} / ${emulator.password}`],
      ]),
    );
}
