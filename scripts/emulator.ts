// npm run emulator -- iyzico|est [--port N] [--host H] [--api-key K] [--secret-key S] [--webhook-url URL] [--latency MIN-MAX]
// Starts a payment-provider emulator by hand and prints where it listens and the keys it accepts,
// so a developer can point a provider account at it. Ctrl-C stops it.
import { parseArgs } from 'node:util';
import { parseLatency, type Latency } from '../emulators/iyzico/behaviour.ts';
import { DEFAULT_CREDENTIALS, startIyzicoEmulator } from '../emulators/iyzico/server.ts';
import { runEstEmulator } from './emulator-est.ts';

// npm run emulator -- garanti [...]: its own flags (scripts/emulator-garanti.ts); it runs until stopped.
if (process.argv[2] === 'garanti') await (await import('./emulator-garanti.ts')).runGarantiEmulator(process.argv.slice(3));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', default: '8790' },
    host: { type: 'string', default: '127.0.0.1' },
    'api-key': { type: 'string', default: process.env.IYZICO_EMULATOR_API_KEY ?? DEFAULT_CREDENTIALS.apiKey },
    'secret-key': { type: 'string', default: process.env.IYZICO_EMULATOR_SECRET_KEY ?? DEFAULT_CREDENTIALS.secretKey },
    'webhook-url': { type: 'string' },
    // A real bank's time to answer, e.g. 300-800 (ms, uniformly random per call).
    latency: { type: 'string' },
  },
});

const provider = positionals[0];
if (provider !== 'iyzico' && provider !== 'est') {
  process.stderr.write(`usage: npm run emulator -- iyzico|est [--port N] [--host H] [--api-key K] [--secret-key S] [--webhook-url URL] [--latency MIN-MAX]\n(unknown provider: ${provider ?? 'none'})\n`);
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`--port must be 0-65535, got ${values.port}\n`);
  process.exit(2);
}
let latency: Latency | undefined;
try {
  latency = values.latency === undefined ? undefined : parseLatency(values.latency);
} catch (error) {
  process.stderr.write(`--${(error as Error).message}\n`);
  process.exit(2);
}

if (provider === 'est') {
  await runEstEmulator({ port, host: values.host, latency });
  await new Promise(() => {}); // serves until SIGINT/SIGTERM
}

const emulator = await startIyzicoEmulator({
  port,
  host: values.host,
  apiKey: values['api-key'],
  secretKey: values['secret-key'],
  webhookUrl: values['webhook-url'],
  // As iyzico: the first notification some seconds after the payment, retries apart.
  webhookDelayMs: 10_000,
  webhookRetryMs: 60_000,
  latency,
});
process.stdout.write(
  [
    `iyzico emulator listening on ${emulator.url}`,
    `  base URL:   ${emulator.url}`,
    `  API key:    ${emulator.apiKey}`,
    `  secret key: ${emulator.secretKey}`,
    `  webhooks:   ${values['webhook-url'] ?? 'off (--webhook-url URL)'}`,
    `  latency:    ${latency ? `${latency.minMs}-${latency.maxMs} ms before every API answer` : 'none (--latency MIN-MAX)'}`,
    `  state:      GET ${emulator.url}/_emulator/state`,
    `  controls:   POST ${emulator.url}/_emulator/behaviour {"mode":"decline|fail|timeout|slow","count":1,"delayMs":2000}`,
    '',
  ].join('\n'),
);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
