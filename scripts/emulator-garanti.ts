// npm run emulator -- garanti [--port N] [--host H] [--merchant-id M] [--terminal-id T] [--provision-user U]
//   [--provision-password P] [--refund-user U] [--refund-password P] [--store-key K] [--latency MIN-MAX]
// Starts the Garanti BBVA virtual POS emulator and prints its gate, API and the terminal it accepts.
import { parseArgs } from 'node:util';
import { parseLatency, type Latency } from '../emulators/iyzico/behaviour.ts';
import { DEFAULT_GARANTI_CREDENTIALS as D } from '../emulators/garanti/config.ts';
import { startGarantiEmulator } from '../emulators/garanti/server.ts';

/** Runs until SIGINT/SIGTERM: the promise never settles while the emulator listens. */
export async function runGarantiEmulator(args: string[]): Promise<never> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8791' },
      host: { type: 'string', default: '127.0.0.1' },
      'merchant-id': { type: 'string', default: D.merchantId },
      'terminal-id': { type: 'string', default: D.terminalId },
      'provision-user': { type: 'string', default: D.provisionUser },
      'provision-password': { type: 'string', default: D.provisionPassword },
      'refund-user': { type: 'string', default: D.refundUser },
      'refund-password': { type: 'string', default: D.refundPassword },
      'store-key': { type: 'string', default: D.storeKey },
      latency: { type: 'string' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got ${values.port}`);
  let latency: Latency | undefined;
  try {
    latency = values.latency === undefined ? undefined : parseLatency(values.latency);
  } catch (error) {
    fail(`--${(error as Error).message}`);
  }
  const emulator = await startGarantiEmulator({
    port,
    host: values.host,
    merchantId: values['merchant-id'],
    terminalId: values['terminal-id'],
    provisionUser: values['provision-user'],
    provisionPassword: values['provision-password'],
    refundUser: values['refund-user'],
    refundPassword: values['refund-password'],
    storeKey: values['store-key'],
    latency,
  });
  process.stdout.write(
    [
      `garanti emulator listening on ${emulator.url}`,
      `  3D gate:      ${emulator.gateUrl}`,
      `  XML API:      ${emulator.apiUrl}`,
      `  merchant id:  ${emulator.merchantId}`,
      `  terminal id:  ${emulator.terminalId}`,
      `  provision:    ${emulator.provisionUser} / ${emulator.provisionPassword}`,
      `  refund:       ${emulator.refundUser} / ${emulator.refundPassword}`,
      `  store key:    ${emulator.storeKey}`,
      `  state:        GET ${emulator.url}/_emulator/state`,
      `  controls:     POST ${emulator.url}/_emulator/behaviour {"mode":"decline|fail|timeout|slow","count":1,"delayMs":2000}`,
      '',
    ].join('\n'),
  );
  const stop = () => void emulator.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise<never>(() => {});
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
