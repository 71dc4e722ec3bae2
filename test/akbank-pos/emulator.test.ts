// The Akbank emulator on its own, as a client of its HTTP speaks to it: the API's refusals (a body
// its auth-hash does not sign, a random used twice, a bad request time, an order id already paid,
// an unknown order), its test cards, a gate form signed with another key, latency, books without
// card numbers, and `npm run emulator -- akbank-pos` as a developer runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../emulators/akbank-pos/cards.ts';
import { startAkbankEmulator, type AkbankEmulator } from '../../emulators/akbank-pos/server.ts';
import { hmacBase64 } from '../../src/providers/akbank-pos/hash.ts';
import { akbankJson, type AkbankRequest } from '../../src/providers/akbank-pos/json.ts';
import { orderHistoryRequest, saleRequest, threeDFormFields } from '../../src/providers/akbank-pos/requests.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { akbankCredentials } from './helpers.ts';

let emu: AkbankEmulator;
beforeAll(async () => {
  emu = await startAkbankEmulator({ port: 0 });
});
afterAll(() => emu?.stop());

const ctxOf = (e: AkbankEmulator) => ({ credentials: akbankCredentials(e), lang: 'tr' as const, now: () => new Date() });
async function call(e: AkbankEmulator, request: AkbankRequest, opts: { key?: string; body?: string } = {}): Promise<Record<string, unknown>> {
  const body = opts.body ?? akbankJson(request);
  const res = await fetch(`${e.apiUrl}/transaction/process`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'auth-hash': hmacBase64(body, opts.key ?? e.secretKey) }, body });
  return (await res.json()) as Record<string, unknown>;
}
const card = (number: string, expiryYear = '2030') => ({ holderName: 'A', number, securityCode: '000', expiryMonth: '12', expiryYear });
const sale = (e: AkbankEmulator, orderId: string, number: string, expiryYear?: string) => call(e, saleRequest({ orderId, amount: 1050n, currency: 'TRY', installmentNumber: 1, card: card(number, expiryYear) }, ctxOf(e)));

describe('the JSON API', () => {
  it('answers each test card with its code; a past expiry is host 54', async () => {
    const simple = Object.entries(TEST_CARDS).filter(([, c]) => c.acs === 'challenge');
    for (const [i, [pan, c]] of simple.entries()) {
      const answer = await sale(emu, `card${i}`, pan);
      expect(answer.responseCode, c.label).toBe(c.hostCode === '00' ? 'VPS-0000' : 'VPS-1005');
      if (c.hostCode !== '00') expect(answer.hostResponseCode, c.label).toBe(c.hostCode);
    }
    expect(await sale(emu, 'expired1', '4355093000315232', '2020')).toMatchObject({ responseCode: 'VPS-1005', hostResponseCode: '54' });
  });

  it('refuses a body its auth-hash does not sign, a random used twice, a bad request time, a second sale on an order, an unknown order', async () => {
    const request = saleRequest({ orderId: 'signed1', amount: 1050n, currency: 'TRY', installmentNumber: 1, card: card('4355093000315232') }, ctxOf(emu));
    expect(await call(emu, request, { key: 'another-key' })).toMatchObject({ responseCode: 'VPS-1901' });
    expect(await call(emu, request)).toMatchObject({ responseCode: 'VPS-0000' });
    expect(await call(emu, { ...request, order: { orderId: 'signed2' } })).toMatchObject({ responseCode: 'VPS-1902' });
    expect(await call(emu, { ...request, randomNumber: 'AB'.repeat(64), requestDateTime: '2024-04-14 16:45' })).toMatchObject({ responseCode: 'VPS-1073' });
    expect(await sale(emu, 'signed1', '4355093000315232')).toMatchObject({ responseCode: 'VPS-1013' });
    expect(await call(emu, orderHistoryRequest({ orderId: 'nosuchorder' }, ctxOf(emu)))).toMatchObject({ responseCode: 'VPS-1123' });
  });

  it('keeps its books without card numbers', async () => {
    await sale(emu, 'books1', '4355093000315232');
    const state = JSON.stringify(await (await fetch(`${emu.url}/_emulator/state`)).json());
    expect(state).toContain('books1');
    expect(state).not.toContain('4355093000315232');
    expect(state).toContain('435509******5232');
  });

  it('waits the latency it was started with before every answer', async () => {
    const slow = await startAkbankEmulator({ port: 0, latency: { minMs: 300, maxMs: 300 } });
    try {
      const started = Date.now();
      expect((await sale(slow, 'slow1', '4355093000315232')).responseCode).toBe('VPS-0000');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slow.stop();
    }
  });
});

describe('the 3-D gate', () => {
  it('sends a form signed with another key back to failUrl with VPS-1902, signed', async () => {
    const fields = threeDFormFields({ orderId: 'gate1', amount: 1050n, currency: 'TRY', installmentNumber: 1, callbackUrl: 'http://127.0.0.1/cb', model: '3d', card: card('4355093000315232') }, { ...ctxOf(emu), credentials: { ...akbankCredentials(emu), secret_key: 'another-key' } });
    const res = await fetch(emu.gateUrl, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const page = await res.text();
    expect(page).toContain('action="http://127.0.0.1/cb"');
    expect(page).toContain('value="VPS-1902"');
    expect(page).toContain('hash hatalı');
    expect(page).toContain('name="hashParams" value="responseCode+responseMessage+orderId"');
  });
});

const processes = useProcessGroups();

it('`npm run emulator -- akbank-pos` takes the terminal as flags, prints it with its addresses, and stops on SIGTERM', async () => {
  const run = await processes.emulator(['akbank-pos', '--port', '0', '--merchant-safe-id', 'DEVMERCHANT', '--terminal-safe-id', 'DEVTERMINAL', '--secret-key', 'dev-key']);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('API')).toBe(`${url}/api/v1/payment/virtualpos`);
  expect(run.printed('3-D gate')).toBe(`${url}/securepay`);
  expect(run.printed('3D Host gate')).toBe(`${url}/payhosting`);
  expect([run.printed('merchant safe id'), run.printed('terminal safe id'), run.printed('secret key')]).toEqual(['DEVMERCHANT', 'DEVTERMINAL', 'dev-key']);
  const dev = { url, apiUrl: run.printed('API'), merchantSafeId: 'DEVMERCHANT', terminalSafeId: 'DEVTERMINAL', secretKey: 'dev-key' } as AkbankEmulator;
  expect((await sale(dev, 'cli1', '4355093000315232')).responseCode).toBe('VPS-0000');
  expect((await call(dev, saleRequest({ orderId: 'cli2', amount: 100n, currency: 'TRY', installmentNumber: 1, card: card('4355093000315232') }, ctxOf(dev)), { key: emu.secretKey })).responseCode).toBe('VPS-1901');
  expect(await run.stop()).toBe(0);
}, 90_000);
