// `npm run emulator -- est` as a developer runs it: a real child process that prints the gate and
// API addresses and the credentials (from the EST_EMULATOR_* variables), answers an XML Auth with
// them, and stops on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const TSX = path.resolve('node_modules/.bin/tsx');
let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL'); // its own process group: tsx's node child goes too
  } catch {
    // already gone
  }
});

it('prints its addresses and credentials, answers the XML API with them; SIGTERM stops it', async () => {
  child = spawn(TSX, ['scripts/emulator.ts', 'est', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, EST_EMULATOR_CLIENT_ID: '100200300', EST_EMULATOR_API_USER: 'dev-user', EST_EMULATOR_API_PASSWORD: 'dev-pass' },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  child.stderr!.on('data', (c: Buffer) => (out += c));
  const exit = new Promise<number | null>((resolve) => child!.on('close', (code) => resolve(code)));
  const started = Date.now();
  while (!out.includes('controls:') && child.exitCode === null && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 25));

  expect(out).toMatch(/3D gate: +http:\/\/127\.0\.0\.1:\d+\/fim\/est3Dgate/);
  expect(out).toMatch(/client id: +100200300/);
  const apiUrl = /XML API: +(\S+)/.exec(out)?.[1];
  const xml = '<?xml version="1.0" encoding="ISO-8859-9"?><CC5Request><Name>dev-user</Name><Password>dev-pass</Password><ClientId>100200300</ClientId>' +
    '<Type>Auth</Type><OrderId>cli1</OrderId><Total>1.00</Total><Currency>949</Currency><Number>4355084355084358</Number><Expires>12/30</Expires><Cvv2Val>000</Cvv2Val></CC5Request>';
  const answer = await (await fetch(apiUrl!, { method: 'POST', body: `DATA=${encodeURIComponent(xml)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).text();
  expect(answer).toContain('<Response>Approved</Response>');
  child.kill('SIGTERM');
  expect(await exit).toBe(0);
});
