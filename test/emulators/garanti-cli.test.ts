// `npm run emulator -- garanti` as a developer runs it: a real child process that prints its gate, API and
// terminal, answers the XML API with those credentials, and stops on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { GarantiEmulator } from '../../emulators/garanti/server.ts';
import { xml } from './garanti-client.ts';

const TSX = path.resolve('node_modules/.bin/tsx');
let child: ChildProcess | undefined;

// Its own process group: a failed test leaves no emulator (nor tsx's node child) behind.
afterEach(() => {
  if (child?.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}, 90_000);

it('prints the gate, the API and the terminal it accepts; the XML API answers with them; SIGTERM stops it', async () => {
  child = spawn(TSX, ['scripts/emulator.ts', 'garanti', '--port', '0', '--terminal-id', '10000999', '--store-key', 'cli-store-key', '--refund-password', 'cli-refund'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  const exit = new Promise<number | null>((resolve) => child!.on('close', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (!out.includes('controls:') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 25));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  expect(url, out).toBeTruthy();
  expect(out).toContain(`3D gate:      ${url}/servlet/gt3dengine`);
  expect(out).toContain(`XML API:      ${url}/VPServlet`);
  expect(out).toMatch(/terminal id: +10000999/);
  expect(out).toMatch(/store key: +cli-store-key/);
  expect(out).toMatch(/refund: +PROVRFN \/ cli-refund/);

  const emu = { url, apiUrl: `${url}/VPServlet`, gateUrl: `${url}/servlet/gt3dengine`, merchantId: '7000679', terminalId: '10000999', provisionUser: 'PROVAUT', provisionPassword: '123qweASD/', refundUser: 'PROVRFN', refundPassword: 'cli-refund', storeKey: 'cli-store-key' } as GarantiEmulator;
  const sale = await xml(emu, { type: 'sales', orderId: 'CLI1', amount: '100', card: { number: '4282209027132016', expire: '1230', cvv: '000' } });
  expect(sale.Transaction.Response.Code).toBe('00');
  const refund = await xml(emu, { type: 'refund', orderId: 'CLI1', amount: '100' });
  expect(refund.Transaction.Response.Code).toBe('00');

  child.kill('SIGTERM');
  expect(await exit).toBe(0);
}, 90_000);
