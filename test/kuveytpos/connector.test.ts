// The KuveytPOS connector when KuveytPOS does not answer as it should, and what it refuses
// unsent: no answer in time, an HTTP 500 page, an approved sale unsigned or about another order, a
// SOAP fault, or a body that is not KuveytPOS's is no answer (ProviderTimeoutError: the gateway asks
// the order inquiry later); a gate that answers a form to nowhere is no answer either. An amount of
// zero or a currency KuveytPOS does not take is refused before anything is sent; a reference the
// connector did not write is not its payment; the account is checked at the field path. Against a
// scripted KuveytPOS on 127.0.0.1 and the emulator.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKuveytEmulator, type KuveytEmulator } from '../../emulators/kuveytpos/server.ts';
import { listenOn } from '../../emulators/listen.ts';
import { bankOrderId } from '../../src/providers/bank-order-id.ts';
import { kuveytPosProvider } from '../../src/providers/kuveytpos/index.ts';
import { kuveytEndpoints, parseKuveytCredentials, parseKuveytSettings } from '../../src/providers/kuveytpos/settings.ts';
import { ProviderTimeoutError, type Connector } from '../../src/providers/types.ts';
import { kuveytAccount } from './helpers.ts';

let emu: KuveytEmulator;
let scripted: { url: string; close(): Promise<void> };
let nextBody = '';
let requests = 0;
beforeAll(async () => {
  emu = await startKuveytEmulator({ port: 0 });
  const server: Server = createServer((req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/xml' });
    res.end(nextBody);
  });
  scripted = await listenOn(server, { port: 0 });
});
afterAll(async () => {
  await emu?.stop();
  await scripted?.close();
});

const connect = (over: Record<string, unknown> = {}): Connector =>
  kuveytPosProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} }).connect(kuveytAccount(emu, { timeout_ms: 1_000, ...over }));
const card = { holderName: 'A', number: '4506349116608409', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };
const key = () => `${crypto.randomUUID()}:charge`;
const charge = (c: Connector, k = key()) => c.charge({ idempotencyKey: k, amount: 1000n, currency: 'TRY', installmentNumber: 1, card });

describe('answers that are no answer', () => {
  it('no answer in time, or an HTTP 500 page: ProviderTimeoutError', async () => {
    emu.behaviour.set({ mode: 'timeout', count: 1 });
    await expect(charge(connect())).rejects.toBeInstanceOf(ProviderTimeoutError);
    emu.behaviour.set({ mode: 'fail', count: 1 });
    await expect(charge(connect())).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('an approved sale unsigned, about another order, without a ResponseCode, or not KuveytPOS\u2019s: ProviderTimeoutError', async () => {
    const k = key();
    const mine = bankOrderId(k);
    for (const body of [
      `<VPosTransactionResponseContract><ResponseCode>00</ResponseCode><OrderId>5</OrderId><RRN>1</RRN><MerchantOrderId>${mine}</MerchantOrderId></VPosTransactionResponseContract>`,
      `<VPosTransactionResponseContract><ResponseCode>00</ResponseCode><OrderId>5</OrderId><MerchantOrderId>someoneelse</MerchantOrderId><HashData>x</HashData></VPosTransactionResponseContract>`,
      '<VPosTransactionResponseContract><OrderId>0</OrderId></VPosTransactionResponseContract>',
      '<html><body>Service Unavailable</body></html>',
    ]) {
      nextBody = body;
      await expect(charge(connect({ payment_url: scripted.url }), k), body).rejects.toBeInstanceOf(ProviderTimeoutError);
    }
  });

  it('a SOAP fault to a refund, and a gate form that leads nowhere: ProviderTimeoutError', async () => {
    nextBody = '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>x</faultstring></s:Fault></s:Body></s:Envelope>';
    const sale = `${'a'.repeat(32)}:155767900:411219539222:539222:050560:1000:949`;
    await expect(connect({ query_url: scripted.url }).refund({ idempotencyKey: 'refund:r1', providerReference: sale, amount: 100n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
    nextBody = '<html><body><form action="javascript:alert(1)"><input name="x" value="y"></form></body></html>';
    await expect(connect({ gate_url: scripted.url }).start3D({ idempotencyKey: 'k:authorise', amount: 1000n, currency: 'TRY', installmentNumber: 1, card, callbackUrl: 'http://127.0.0.1:9/cb' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it('the inquiry: no order is unknown; an approved sale of another amount is asked again', async () => {
    const c = connect();
    expect(await c.paymentStatus({ idempotencyKey: key(), providerReference: null, amount: 1000n, currency: 'TRY' })).toEqual({ status: 'unknown' });
    const k = key();
    expect(await charge(c, k)).toMatchObject({ status: 'succeeded' });
    await expect(c.paymentStatus({ idempotencyKey: k, providerReference: null, amount: 999n, currency: 'TRY' })).rejects.toBeInstanceOf(ProviderTimeoutError);
    await expect(c.paymentStatus({ idempotencyKey: k, providerReference: null, amount: 1000n, currency: 'USD' })).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('the gate\u2019s HTML answer', () => {
  const start = (c: Connector) => c.start3D({ idempotencyKey: 'k:authorise', amount: 1000n, currency: 'TRY', installmentNumber: 1, card, callbackUrl: 'http://127.0.0.1:9/cb' });
  const page = (action: string, authenticationResponse: string) =>
    `<!DOCTYPE html><html><body onload="OnLoadEvent();"><form name="downloadForm" action="${action}" method="POST"><input type="hidden" name="AuthenticationResponse" value="${encodeURIComponent(authenticationResponse)}"><input type="submit" name="submit" value="Submit"></form></body></html>`;

  it('a form carrying an enrollment that went through (00) is the redirect, as the bank wrote it', async () => {
    nextBody = page('https://boa.kuveytturk.com.tr/sanalposservice/Home/ThreeDModelPayGate', '<VPosTransactionResponseContract><ResponseCode>00</ResponseCode><MD>67YtBfBRTZ0XBKnAHi8c/A==</MD></VPosTransactionResponseContract>');
    const started = await start(connect({ gate_url: scripted.url }));
    expect(started).toMatchObject({ status: 'redirect', redirect: { kind: 'form', action: 'https://boa.kuveytturk.com.tr/sanalposservice/Home/ThreeDModelPayGate', fields: { AuthenticationResponse: expect.stringContaining('%3CResponseCode%3E00') as unknown } } });
  });

  it('a form sending the shopper back with a refusal fails the payment with the bank\u2019s code; an unreadable one is no answer', async () => {
    nextBody = page('http://127.0.0.1:9/cb', '<VPosTransactionResponseContract><ResponseCode>PosMerchantIPError</ResponseCode><ResponseMessage>IP adresi tanımlı değildir.</ResponseMessage><OrderId>0</OrderId></VPosTransactionResponseContract>');
    expect(await start(connect({ gate_url: scripted.url }))).toEqual({ status: 'error', code: 'provider_error', message: 'IP adresi tanımlı değildir.', providerCode: 'PosMerchantIPError', providerMessage: 'IP adresi tanımlı değildir.' });
    nextBody = page('http://127.0.0.1:9/cb', 'not xml');
    await expect(start(connect({ gate_url: scripted.url }))).rejects.toBeInstanceOf(ProviderTimeoutError);
  });
});

describe('what the bank refuses, in the gateway\u2019s words', () => {
  it('a cancel twice is refund_rejected (21); a refund of a cancelled sale is refund_rejected (28); a refund above what is left is refund_rejected', async () => {
    const c = connect();
    const sold = await charge(c);
    if (sold.status !== 'succeeded') throw new Error(JSON.stringify(sold));
    expect(await c.refund({ idempotencyKey: 'refund:a', providerReference: sold.providerReference, amount: 1001n, currency: 'TRY' })).toMatchObject({ status: 'declined', code: 'refund_rejected' });
    expect(await c.cancel({ idempotencyKey: 'cancel:a', providerReference: sold.providerReference })).toMatchObject({ status: 'succeeded' });
    expect(await c.cancel({ idempotencyKey: 'cancel:b', providerReference: sold.providerReference })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '21' });
    expect(await c.refund({ idempotencyKey: 'refund:b', providerReference: sold.providerReference, amount: 100n, currency: 'TRY' })).toMatchObject({ status: 'declined', code: 'refund_rejected', providerCode: '28' });
  });
});

describe('refused before anything is sent', () => {
  it('an amount of zero, a currency KuveytPOS does not take (GBP), a reference the connector did not write', async () => {
    const c = connect({ payment_url: scripted.url, gate_url: scripted.url, query_url: scripted.url });
    const before = requests;
    expect(await c.charge({ idempotencyKey: 'k:charge', amount: 0n, currency: 'TRY', installmentNumber: 1, card })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(await c.charge({ idempotencyKey: 'k:charge', amount: 100n, currency: 'GBP', installmentNumber: 1, card })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(await c.start3D({ idempotencyKey: 'k:authorise', amount: 100n, currency: 'GBP', installmentNumber: 1, card, callbackUrl: 'http://127.0.0.1:9/cb' })).toMatchObject({ status: 'error' });
    expect(await c.refund({ idempotencyKey: 'refund:x', providerReference: 'not-ours:1', amount: 100n, currency: 'TRY' })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(await c.cancel({ idempotencyKey: 'cancel:x', providerReference: 'abc' })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(requests).toBe(before);
  });

  it('checks the account at the field path', () => {
    const at = (...paths: string[]) => expect.objectContaining({ issues: expect.arrayContaining(paths.map((p) => expect.objectContaining({ path: [p] }))) as unknown });
    expect(() => parseKuveytCredentials({ merchant_id: 'abc', customer_id: '1', user_name: 'u' })).toThrow(at('merchant_id', 'password'));
    expect(() => parseKuveytSettings({ environment: 'live', payment_url: 'ftp://x', timeout_ms: 10 })).toThrow(at('environment', 'payment_url', 'timeout_ms'));
    expect(parseKuveytSettings({})).toEqual({ environment: 'test', timeout_ms: 60_000 });
    expect(kuveytEndpoints(parseKuveytSettings({ environment: 'production' }))).toEqual({
      gate: 'https://sanalpos.kuveytturk.com.tr/ServiceGateWay/Home/ThreeDModelPayGate',
      payment: 'https://sanalpos.kuveytturk.com.tr/ServiceGateWay/Home',
      query: 'https://boa.kuveytturk.com.tr/BOA.Integration.WCFService/BOA.Integration.VirtualPos/VirtualPosService.svc/Basic',
    });
  });
});
