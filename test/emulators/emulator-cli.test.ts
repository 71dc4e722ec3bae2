// `npm run emulator -- iyzico` as a developer runs it: a real child process that prints its base
// URL and keys, answers iyzico's own client with those keys, and stops on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { iyzipay } from './iyzipay-client.ts';

const TSX = path.resolve('node_modules/.bin/tsx');
let child: ChildProcess | undefined;

// The child runs in a process group of its own: a test that fails before its SIGTERM leaves no
// emulator behind (tsx's node child included), since the whole group is killed.
afterEach(() => {
  if (child?.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
});

function start(args: string[]): Promise<{ stdout: () => string; exit: Promise<number | null> }> {
  child = spawn(TSX, ['scripts/emulator.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (err += c));
  // 'close', not 'exit': it comes after stdout and stderr are drained.
  const exit = new Promise<number | null>((resolve) => child!.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('secret key:') || child!.exitCode !== null) {
        clearInterval(timer);
        resolve({ stdout: () => out + err, exit });
      }
    }, 25);
    setTimeout(() => reject(new Error(`emulator did not start: ${out}${err}`)), 20_000);
  });
}

it('prints its base URL and the keys it accepts, which iyzipay can use; SIGTERM stops it', async () => {
  const run = await start(['iyzico', '--port', '0', '--api-key', 'dev-key', '--secret-key', 'dev-secret']);
  const text = run.stdout();
  const url = /base URL: +(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
  expect(url).toBeTruthy();
  expect(text).toMatch(/API key: +dev-key/);
  expect(text).toMatch(/secret key: +dev-secret/);
  const client = iyzipay({ apiKey: 'dev-key', secretKey: 'dev-secret', uri: url! });
  expect(await client.call('binNumber', 'retrieve', { binNumber: '552879' })).toMatchObject({ status: 'success', bankName: 'Halkbank' });
  child!.kill('SIGTERM');
  expect(await run.exit).toBe(0);
});

it('refuses an unknown provider with a usage line', async () => {
  const run = await start(['stripe']);
  expect(await run.exit).toBe(2);
  expect(run.stdout()).toContain('usage: npm run emulator -- iyzico');
});

it('answers after the --latency it was given, and refuses a latency it cannot read', async () => {
  const run = await start(['iyzico', '--port', '0', '--latency', '150-200']);
  const url = /base URL: +(http:\/\/127\.0\.0\.1:\d+)/.exec(run.stdout())?.[1];
  expect(run.stdout()).toMatch(/latency: +150-200 ms before every API answer/);
  const client = iyzipay({ apiKey: 'sandbox-emulator-api-key', secretKey: 'sandbox-emulator-secret-key', uri: url! });
  const started = Date.now();
  expect(await client.call('binNumber', 'retrieve', { binNumber: '552879' })).toMatchObject({ status: 'success' });
  expect(Date.now() - started).toBeGreaterThanOrEqual(149);
  child!.kill('SIGTERM');
  await run.exit;

  const refused = await start(['iyzico', '--latency', 'slow']);
  expect(await refused.exit).toBe(2);
  expect(refused.stdout()).toContain('--latency must be MIN-MAX or MS in milliseconds, got "slow"');
});
