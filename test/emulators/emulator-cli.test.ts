// `npm run emulator` as a developer runs it: real child processes. An unknown emulator names the
// ones there are; the bank emulators and iyzico start side by side on their default ports; the iyzico emulator prints
// its base URL and keys, answers iyzico's own client signed with them and refuses other keys.
import { expect, it } from 'vitest';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { iyzipay } from './iyzipay-client.ts';

const processes = useProcessGroups();

/** Every emulator, in the order `npm run emulator` lists them. */
const EMULATORS = ['iyzico', 'est', 'garanti', 'posnet', 'payfor', 'interpos', 'akbank-pos', 'kuveytpos', 'payflex'];

it('refuses an unknown emulator (and none) naming every emulator', async () => {
  const unknown = processes.start('npm', ['run', 'emulator', '--', 'stripe']);
  expect(await unknown.exit).not.toBe(0);
  expect(unknown.output()).toContain(`unknown emulator 'stripe': choose ${EMULATORS.slice(0, -1).join(', ')} or ${EMULATORS.at(-1)}`);

  const none = await processes.emulator([]);
  expect(await none.exit).not.toBe(0);
  for (const name of EMULATORS) expect(none.output()).toMatch(new RegExp(`^  ${name} \\[options\\]`, 'm'));
}, 60_000);

it('starts all three side by side on their own default ports', async () => {
  const runs = await Promise.all(['iyzico', 'est', 'garanti'].map((name) => processes.emulator([name])));
  const urls = runs.map((run) => /listening on (\S+)/.exec(run.output())?.[1]);
  expect(urls, runs.map((run) => run.output()).join('\n')).toEqual(['http://127.0.0.1:8790', 'http://127.0.0.1:8792', 'http://127.0.0.1:8791']);
  for (const [i, url] of urls.entries()) expect((await fetch(`${url}/_emulator/state`)).status, runs[i]!.output()).toBe(200);
  expect(await Promise.all(runs.map((run) => run.stop()))).toEqual([0, 0, 0]);
}, 90_000);

it('accepts the keys given as flags, refuses others, and prints them; SIGTERM stops it', async () => {
  const run = await processes.emulator(['iyzico', '--port', '0', '--api-key', 'dev-key', '--secret-key', 'dev-secret']);
  const url = run.printed('base URL');
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(run.printed('API key')).toBe('dev-key');
  expect(run.printed('secret key')).toBe('dev-secret');
  const bin = (apiKey: string, secretKey: string) => iyzipay({ apiKey, secretKey, uri: url! }).call('binNumber', 'retrieve', { binNumber: '552879' });
  expect(await bin('dev-key', 'dev-secret')).toMatchObject({ status: 'success', bankName: 'Halkbank' });
  expect(await bin('dev-key', 'sandbox-emulator-secret-key')).toMatchObject({ status: 'failure', errorCode: '1000' });
  expect(await bin('sandbox-emulator-api-key', 'dev-secret')).toMatchObject({ status: 'failure', errorCode: '1001' });
  expect(await run.stop()).toBe(0);
}, 60_000);

it('answers after the --latency it was given, and refuses a latency it cannot read', async () => {
  const run = await processes.emulator(['iyzico', '--port', '0', '--latency', '150-200']);
  expect(run.printed('latency')).toBe('150-200 ms before every answer');
  const client = iyzipay({ apiKey: 'sandbox-emulator-api-key', secretKey: 'sandbox-emulator-secret-key', uri: run.printed('base URL')! });
  const started = Date.now();
  expect(await client.call('binNumber', 'retrieve', { binNumber: '552879' })).toMatchObject({ status: 'success' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(149);
  await run.stop();

  const refused = await processes.emulator(['iyzico', '--latency', 'slow']);
  expect(await refused.exit).not.toBe(0);
  expect(refused.output()).toContain('latency must be MIN-MAX or MS in milliseconds, got "slow"');
}, 60_000);
