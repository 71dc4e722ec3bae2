// The PayFor connector when PayFor does not answer as it should: no answer in time, an HTTP 500
// page, an answer about another order, or one that is not PayFor's XML is no answer
// (ProviderTimeoutError: the gateway asks the order inquiry later), and nothing is guessed. A bank
// that does not know the order (V013) is `unknown` to the inquiry. Against a scripted PayFor on
// 127.0.0.1 and the emulator's controls.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayforEmulator, type PayforEmulator } from '../../emulators/payfor/server.ts';
import { listenOn } from '../../emulators/listen.ts';
import { payforProvider } from '../../src/providers/payfor/index.ts';
import { ProviderTimeoutError, type Connector } from '../../src/providers/types.ts';
import { payforCredentials } from './helpers.ts';

let emu: PayforEmulator;
let scripted: { url: string; close(): Promise<void> };
let nextBody = '';
beforeAll(async () => {
  emu = await startPayforEmulator({ port: 0 });
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(nextBody);
  });
  scripted = await listenOn(server, { port: 0 });
});
afterAll(async () => {
  await emu?.stop();
  await scripted?.close();
});

const connect = (apiUrl: string, timeoutMs = 1_000): Connector =>
  payforProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} }).connect({
    id: 'acc',
    credentials: payforCredentials(emu),
    settings: { environment: 'test', model: '3d', gate_url: emu.gateUrl, api_url: apiUrl, timeout_ms: timeoutMs },
  });
const card = { holderName: 'A', number: '4155650100416111', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };
const charge = (c: Connector, key = `${crypto.randomUUID()}:charge`) => c.charge({ idempotencyKey: key, amount: 1000n, currency: 'TRY', installmentNumber: 1, card });

describe('answers that are no answer', () => {
  it('no answer in time, or an HTTP 500 page: ProviderTimeoutError', async () => {
    emu.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(charge(connect(emu.apiUrl))).rejects.toBeInstanceOf(ProviderTimeoutError);
    emu.behaviour.set({ mode: 'fail', count: 1 });
    await expect(charge(connect(emu.apiUrl))).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('an answer about another order, without a ProcReturnCode, or not PayFor\u2019s XML: ProviderTimeoutError', async () => {
    for (const body of [
      '<PayforResponse><ProcReturnCode>00</ProcReturnCode><TransId>someoneelse</TransId></PayforResponse>',
      '<PayforResponse><TransId>x</TransId><ErrMsg>?</ErrMsg></PayforResponse>',
      '<html><body>Service Unavailable</body></html>',
    ]) {
      nextBody = body;
      await expect(charge(connect(scripted.url)), body).rejects.toBeInstanceOf(ProviderTimeoutError);
    }
  });

  it('the inquiry: V013 is unknown; an approved sale of another amount is asked again', async () => {
    const c = connect(emu.apiUrl);
    expect(await c.paymentStatus({ idempotencyKey: `${crypto.randomUUID()}:charge`, providerReference: null, amount: 1000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
    const key = `${crypto.randomUUID()}:charge`;
    expect(await charge(c, key)).toMatchObject({ status: 'succeeded' });
    await expect(c.paymentStatus({ idempotencyKey: key, providerReference: null, amount: 999n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('an amount of zero is refused before anything is sent', async () => {
    const c = connect(emu.apiUrl);
    expect(await c.charge({ idempotencyKey: 'k:charge', amount: 0n, currency: 'TRY', installmentNumber: 1, card })).toMatchObject({ status: 'error', code: 'provider_error' });
  });
});
