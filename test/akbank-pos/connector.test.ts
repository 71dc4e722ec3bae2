// The Akbank connector when Akbank does not answer as it should: no answer in time, an HTTP 500
// page, an answer about another order, or one that is not Akbank's JSON is no answer
// (ProviderTimeoutError: the gateway asks the order history later), and nothing is guessed. A
// bank that does not know the order (VPS-1123) is `unknown` to the inquiry. A payment Akbank
// cannot take (zero, GBP) is refused before anything is sent; a bad account is a 4xx with the
// field's path. Against a scripted Akbank on 127.0.0.1 and the emulator's controls.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAkbankEmulator, type AkbankEmulator } from '../../emulators/akbank-pos/server.ts';
import { listenOn } from '../../emulators/listen.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { akbankPosProvider } from '../../src/providers/akbank-pos/index.ts';
import { parseAkbankPosCredentials, parseAkbankPosSettings } from '../../src/providers/akbank-pos/settings.ts';
import { ProviderTimeoutError, type Connector } from '../../src/providers/types.ts';
import { akbankCredentials } from './helpers.ts';

let emu: AkbankEmulator;
let scripted: { url: string; close(): Promise<void> };
let nextBody = '';
let calls = 0;
beforeAll(async () => {
  emu = await startAkbankEmulator({ port: 0 });
  const server: Server = createServer((_req, res) => {
    calls += 1;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(nextBody);
  });
  scripted = await listenOn(server, { port: 0 });
});
afterAll(async () => {
  await emu?.stop();
  await scripted?.close();
});

const connect = (apiUrl: string, timeoutMs = 1_000): Connector =>
  akbankPosProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} }).connect({
    id: 'acc',
    credentials: akbankCredentials(emu),
    settings: { environment: 'test', model: '3d', gate_url: emu.gateUrl, api_url: apiUrl, timeout_ms: timeoutMs },
  });
const card = { holderName: 'A', number: '4355093000315232', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };
const charge = (c: Connector, key = `${crypto.randomUUID()}:charge`) => c.charge({ idempotencyKey: key, amount: 1000n, currency: 'TRY', installmentNumber: 1, card });

describe('answers that are no answer', () => {
  it('no answer in time, or an HTTP 500 page: ProviderTimeoutError', async () => {
    emu.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(charge(connect(emu.apiUrl))).rejects.toBeInstanceOf(ProviderTimeoutError);
    emu.behaviour.set({ mode: 'fail', count: 1 });
    await expect(charge(connect(emu.apiUrl))).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('an answer about another order, without a responseCode, or not JSON: ProviderTimeoutError', async () => {
    for (const body of ['{"responseCode":"VPS-0000","order":{"orderId":"someoneelse"}}', '{"txnCode":"1000","responseMessage":"?"}', '<html><body>Service Unavailable</body></html>', '[1,2]']) {
      nextBody = body;
      await expect(charge(connect(scripted.url)), body).rejects.toBeInstanceOf(ProviderTimeoutError);
    }
  });

  it('the inquiry: VPS-1123 is unknown; an approved sale of another amount is asked again', async () => {
    const c = connect(emu.apiUrl);
    expect(await c.paymentStatus({ idempotencyKey: `${crypto.randomUUID()}:charge`, providerReference: null, amount: 1000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
    const key = `${crypto.randomUUID()}:charge`;
    expect(await charge(c, key)).toMatchObject({ status: 'succeeded' });
    await expect(c.paymentStatus({ idempotencyKey: key, providerReference: null, amount: 999n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('payments Akbank cannot take, accounts that are not accounts', () => {
  it('an amount of zero or a GBP payment is refused before anything is sent', async () => {
    const c = connect(scripted.url);
    const before = calls;
    expect(await c.charge({ idempotencyKey: 'k:charge', amount: 0n, currency: 'TRY', installmentNumber: 1, card })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(await c.charge({ idempotencyKey: 'k:charge', amount: 100n, currency: 'GBP', installmentNumber: 1, card })).toMatchObject({ status: 'error', code: 'provider_error', message: 'Akbank does not take GBP' });
    expect(await c.start3D({ idempotencyKey: 'k:authorise', amount: 100n, currency: 'GBP', installmentNumber: 1, card, callbackUrl: 'http://127.0.0.1/cb' })).toMatchObject({ status: 'error' });
    expect(calls).toBe(before);
  });

  it('credentials and settings: a clear error at the field path', () => {
    const issues = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (error instanceof ValidationError) return error.issues.map((i) => `${i.path.join('.')}:${i.code}`);
        throw error;
      }
      return [];
    };
    expect(issues(() => parseAkbankPosCredentials({ merchant_safe_id: 'has space', terminal_safe_id: '', secret_key: 'k' }))).toEqual(['merchant_safe_id:value_not_allowed', 'terminal_safe_id:required']);
    expect(issues(() => parseAkbankPosSettings({ model: '3d_secure' }))).toEqual(['model:value_not_allowed']);
    expect(parseAkbankPosSettings({})).toMatchObject({ environment: 'test', model: '3d', lang: 'tr' });
  });
});
