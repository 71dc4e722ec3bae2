// `npm run emulator -- iyzico`: the iyzico emulator started by hand, with the keys it accepts and,
// when asked, signed payment notifications timed as iyzico sends them.
import type { Command } from 'commander';
import { credentialOption, emulatorCommand, printStarted, stopOnSignal, type ListenFlags } from '../cli.ts';
import { DEFAULT_CREDENTIALS, startIyzicoEmulator } from './server.ts';

interface IyzicoFlags extends ListenFlags {
  apiKey: string;
  secretKey: string;
  webhookUrl?: string;
}

export const IYZICO_DEFAULT_PORT = 8790;

export function iyzicoCommand(): Command {
  return emulatorCommand('iyzico', 'the iyzico API (IYZWSv2 keys, sandbox test cards, 3-D Secure ACS page)', IYZICO_DEFAULT_PORT)
    .addOption(credentialOption('--api-key <key>', 'the API key it accepts', DEFAULT_CREDENTIALS.apiKey, 'IYZICO_EMULATOR_API_KEY'))
    .addOption(credentialOption('--secret-key <key>', 'the secret key requests are signed with', DEFAULT_CREDENTIALS.secretKey, 'IYZICO_EMULATOR_SECRET_KEY'))
    .option('--webhook-url <url>', 'where each payment attempt is notified (X-IYZ-SIGNATURE-V3)')
    .action(async (flags: IyzicoFlags) => {
      const emulator = await startIyzicoEmulator({
        ...flags,
        // As iyzico: the first notification some seconds after the payment, retries a minute apart.
        webhookDelayMs: 10_000,
        webhookRetryMs: 60_000,
      });
      printStarted(`iyzico emulator listening on ${emulator.url}`, emulator.url, [
        ['base URL', emulator.url],
        ['API key', emulator.apiKey],
        ['secret key', emulator.secretKey],
        ['webhooks', flags.webhookUrl ?? 'off (--webhook-url URL)'],
      ], flags.latency);
      stopOnSignal(() => emulator.close());
    });
}
