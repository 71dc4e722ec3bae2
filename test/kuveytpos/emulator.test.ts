// The KuveytPOS emulator on its own, as a client of its HTTP speaks to it (the connector's request
// builders and serialiser): the test cards, its refusals (a wrong password, an order id already
// sold, a provision with an unknown, spent or altered MD, a SOAP call badly signed, a refund of an
// unknown sale, an inquiry without dates), books without card numbers, latency, and
// `npm run emulator -- kuveytpos` as a developer runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../emulators/bank/cards.ts';
import { startKuveytEmulator, type KuveytEmulator } from '../../emulators/kuveytpos/server.ts';
import { walkGate } from '../helpers/bank-contract.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { enrollmentRequest, provisionRequest, refundRequest, saleRequest, statusRequest } from '../../src/providers/kuveytpos/requests.ts';
import { authenticationResponseOf, kuveytRequestXml, parseKuveytAnswer, type KuveytRequest } from '../../src/providers/kuveytpos/xml.ts';

let emu: KuveytEmulator;
beforeAll(async () => {
  emu = await startKuveytEmulator({ port: 0 });
});
afterAll(() => emu?.stop());

const ctxOf = (e: KuveytEmulator, password = e.password) => ({ credentials: { merchant_id: e.merchantId, customer_id: e.customerId, user_name: e.userName, password } });
const card = (number: string, expiryYear = '2030') => ({ holderName: 'A', number, securityCode: '000', expiryMonth: '12', expiryYear });

async function send(url: string, request: KuveytRequest) {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: kuveytRequestXml(request) });
  const answer = parseKuveytAnswer(await res.text());
  if (answer === null) throw new Error(`not a KuveytPOS answer (${res.status})`);
  return answer;
}
const fields = (answer: Awaited<ReturnType<typeof send>>) => (answer.kind === 'contract' ? answer.fields : answer.kind === 'soap' ? { ...answer.result.value, error: answer.result.errors[0]?.code ?? '' } : { action: answer.action });
const sale = async (e: KuveytEmulator, merchantOrderId: string, number: string, expiryYear?: string, password?: string) =>
  fields(await send(`${e.paymentUrl}/Non3DPayGate`, saleRequest({ merchantOrderId, amount: 1050n, currency: 'TRY', installmentNumber: 1, card: card(number, expiryYear) }, ctxOf(e, password))));

describe('the payment API', () => {
  it('answers each test card with its code; a past expiry is 54', async () => {
    const codes = { approved: '00', insufficient_funds: '51', do_not_honour: '05', expired: '54' };
    for (const [i, [number, c]] of Object.entries(TEST_CARDS).entries()) expect((await sale(emu, `card${i}`, number)).ResponseCode, c.label).toBe(codes[c.answer]);
    expect((await sale(emu, 'expired1', '4506349116608409', '2020')).ResponseCode).toBe('54');
  });

  it('refuses another password (HashDataError) and an order id already sold', async () => {
    expect((await sale(emu, 'pw1', '4506349116608409', undefined, 'wrong')).ResponseCode).toBe('HashDataError');
    expect((await sale(emu, 'twice1', '4506349116608409')).ResponseCode).toBe('00');
    expect((await sale(emu, 'twice1', '4506349116608409')).ResponseCode).toBe('MerchantOrderIdAlreadyExists');
  });

  it('the provision takes an authenticated MD once, for what was authenticated', async () => {
    const ctx = ctxOf(emu);
    const p = { merchantOrderId: 'prov1', amount: 2000n, currency: 'TRY' as const, installmentNumber: 1 };
    const gate = await send(emu.gateUrl, enrollmentRequest({ ...p, card: card('4506349116608409'), okUrl: 'http://127.0.0.1:9/ok', failUrl: 'http://127.0.0.1:9/fail', clientIp: '' }, ctx));
    if (gate.kind !== 'form') throw new Error('no form');
    const back = await walkGate({ kind: 'form', action: gate.action, fields: { ...gate.inputs } }, 'approve');
    const md = authenticationResponseOf(back.AuthenticationResponse!)!.fields.MD!;
    const provision = (over: Partial<typeof p> & { md?: string }) => send(`${emu.paymentUrl}/ThreeDModelProvisionGate`, provisionRequest({ ...p, md, clientIp: '', ...over }, ctx));
    expect(fields(await provision({ md: 'unknown' })).ResponseCode).toBe('MetaDataNotFound');
    expect(fields(await provision({ amount: 1n })).ResponseCode).toBe('MetaDataNotFound');
    expect(fields(await provision({ installmentNumber: 3 })).ResponseCode).toBe('MetaDataNotFound');
    expect(fields(await provision({ md: '' })).ResponseCode).toBe('EmptyMDException');
    expect(fields(await provision({})).ResponseCode).toBe('00');
    expect(fields(await provision({})).ResponseCode).toBe('MerchantOrderIdAlreadyExists');
  });

  it('keeps books with masked cards only', async () => {
    const state = await (await fetch(`${emu.url}/_emulator/state`)).text();
    expect(state).toContain('450634******8409');
    expect(state).not.toContain('4506349116608409');
  });

  it('waits the latency it was started with before every answer', async () => {
    const slow = await startKuveytEmulator({ port: 0, latency: { minMs: 300, maxMs: 300 } });
    try {
      const started = Date.now();
      expect((await sale(slow, 'slow1', '4506349116608409')).ResponseCode).toBe('00');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slow.stop();
    }
  });
});

describe('the SOAP service', () => {
  const unknownSale = { merchantOrderId: 'nosuch', orderId: '1', rrn: '1', stan: '1', provision: '1' };

  it('refuses a badly signed call, a refund of an unknown sale, and an inquiry without dates', async () => {
    expect(fields(await send(emu.queryUrl, refundRequest({ sale: unknownSale, amount: 100n, currencyCode: '0949', whole: false }, ctxOf(emu, 'wrong'))))).toMatchObject({ error: 'HashDataError' });
    expect(fields(await send(emu.queryUrl, refundRequest({ sale: unknownSale, amount: 100n, currencyCode: '0949', whole: false }, ctxOf(emu))))).toMatchObject({ error: 'OrderDataNotFound', ResponseCode: 'DbLayerError' });
    const status = statusRequest({ merchantOrderId: 'x', currencyCode: '0949', now: new Date() }, ctxOf(emu));
    if (status.kind !== 'soap') throw new Error('not soap');
    const { StartDate: _s, ...undated } = status.request;
    expect(fields(await send(emu.queryUrl, { ...status, request: undated }))).toMatchObject({ error: 'InvalidRequestError' });
    const res = await fetch(emu.queryUrl, { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: '<not-soap/>' });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('<s:Fault>');
  });
});

const processes = useProcessGroups();

it('`npm run emulator -- kuveytpos` takes the account as flags, prints it with its addresses, and stops on SIGTERM', async () => {
  const run = await processes.emulator(['kuveytpos', '--port', '0', '--merchant-id', '111', '--customer-id', '222', '--user-name', 'devuser', '--password', 'dev-pass']);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('3D gate')).toBe(`${url}/boa.virtualpos.services/Home/ThreeDModelPayGate`);
  expect(run.printed('payment API')).toBe(`${url}/boa.virtualpos.services/Home`);
  expect(run.printed('SOAP service')).toBe(`${url}/BOA.Integration.WCFService/BOA.Integration.VirtualPos/VirtualPosService.svc/Basic`);
  expect([run.printed('merchant id'), run.printed('customer id'), run.printed('API user')]).toEqual(['111', '222', 'devuser / dev-pass']);
  const dev = { url, paymentUrl: run.printed('payment API'), merchantId: '111', customerId: '222', userName: 'devuser', password: 'dev-pass' } as KuveytEmulator;
  expect((await sale(dev, 'cli1', '4506349116608409')).ResponseCode).toBe('00');
  expect((await sale(dev, 'cli2', '4506349116608409', undefined, 'api123')).ResponseCode).toBe('HashDataError');
  expect(await run.stop()).toBe(0);
}, 90_000);
