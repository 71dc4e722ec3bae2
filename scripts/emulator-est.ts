// The `est` part of `npm run emulator -- est [--port N] [--host H] [--latency MIN-MAX]`: starts the EST
// virtual POS emulator and prints its addresses and the credentials it accepts. The credentials come
// from EST_EMULATOR_CLIENT_ID, EST_EMULATOR_STORE_KEY, EST_EMULATOR_API_USER, EST_EMULATOR_API_PASSWORD
// (else the defaults). Ctrl-C stops it.
import type { Latency } from '../emulators/iyzico/behaviour.ts';
import { startEstEmulator } from '../emulators/est/server.ts';

export async function runEstEmulator(options: { port: number; host: string; latency?: Latency }): Promise<void> {
  const emulator = await startEstEmulator({
    ...options,
    clientId: process.env.EST_EMULATOR_CLIENT_ID,
    storeKey: process.env.EST_EMULATOR_STORE_KEY,
    apiUser: process.env.EST_EMULATOR_API_USER,
    apiPassword: process.env.EST_EMULATOR_API_PASSWORD,
  });
  process.stdout.write(
    [
      `EST emulator listening on ${emulator.url}`,
      `  3D gate:      ${emulator.gateUrl}`,
      `  XML API:      ${emulator.apiUrl}`,
      `  client id:    ${emulator.clientId}`,
      `  store key:    ${emulator.storeKey}`,
      `  API user:     ${emulator.apiUser}`,
      `  API password: ${emulator.apiPassword}`,
      `  latency:      ${options.latency ? `${options.latency.minMs}-${options.latency.maxMs} ms before every answer` : 'none (--latency MIN-MAX)'}`,
      `  state:        GET ${emulator.url}/_emulator/state`,
      `  controls:     POST ${emulator.url}/_emulator/behaviour {"mode":"decline|fail|timeout|slow","count":1,"delayMs":2000}`,
      '',
    ].join('\n'),
  );
  const stop = () => void emulator.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
