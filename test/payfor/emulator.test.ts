// The PayFor emulator on its own, as a client of its HTTP speaks to it: the XML API's refusals
// (wrong user, unknown order, a used order id), its test cards, a gate form signed with another
// store key, the SHA-256 callback the bank's newer answers carry (the connector takes it), latency,
// books without card numbers, and `npm run emulator -- payfor` as a developer runs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayforEmulator, type PayforEmulator } from '../../emulators/payfor/server.ts';
import { TEST_CARDS } from '../../emulators/payfor/cards.ts';
import { payforProvider } from '../../src/providers/payfor/index.ts';
import { threeDFormFields } from '../../src/providers/payfor/requests.ts';
import { parsePayforAnswer, payforRequestXml } from '../../src/providers/payfor/xml.ts';
import { walkGate } from '../helpers/bank-contract.ts';
import { useProcessGroups } from '../helpers/emulator-process.ts';
import { payforCredentials } from './helpers.ts';

let emu: PayforEmulator;
beforeAll(async () => {
  emu = await startPayforEmulator({ port: 0 });
});
afterAll(() => emu?.stop());

const account = (e: PayforEmulator) => ({ MerchantId: e.merchantId, UserCode: e.userCode, UserPass: e.userPassword, MbrId: '5' });
async function xml(e: PayforEmulator, request: Record<string, string>): Promise<Record<string, string>> {
  const res = await fetch(e.apiUrl, { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: payforRequestXml(request) });
  const answer = parsePayforAnswer(await res.text());
  if (answer === null) throw new Error('not a PayFor answer');
  return answer.kind === 'response' ? { ...answer.fields } : { history: JSON.stringify(answer.entries) };
}
const sale = (e: PayforEmulator, orderId: string, pan: string, expiry = '1230') =>
  xml(e, { ...account(e), MOTO: '0', OrderId: orderId, SecureType: 'NonSecure', TxnType: 'Auth', PurchAmount: '10.5', Currency: '949', InstallmentCount: '0', Lang: 'tr', CardHolderName: 'A', Pan: pan, Expiry: expiry, Cvv2: '000' });

describe('the XML API', () => {
  it('answers each test card with its code; a past expiry is 54', async () => {
    const simple = Object.entries(TEST_CARDS).filter(([, c]) => c.threeDStatus === null);
    for (const [i, [pan, card]] of simple.entries()) expect((await sale(emu, `card${i}`, pan)).ProcReturnCode, card.label).toBe(card.code);
    expect((await sale(emu, 'expired1', '4155650100416111', '0120')).ProcReturnCode).toBe('54');
  });

  it('refuses another password (V001), an order id already paid (101310), a refund or inquiry of an unknown order (V013)', async () => {
    expect(await xml(emu, { ...account(emu), UserPass: 'wrong', OrgOrderId: 'x', SecureType: 'Inquiry', TxnType: 'OrderInquiry' })).toMatchObject({ ProcReturnCode: 'V001' });
    expect((await sale(emu, 'twice1', '4155650100416111')).ProcReturnCode).toBe('00');
    expect((await sale(emu, 'twice1', '4155650100416111')).ProcReturnCode).toBe('101310');
    expect(await xml(emu, { ...account(emu), SecureType: 'NonSecure', Lang: 'tr', OrgOrderId: 'nope', TxnType: 'Refund', PurchAmount: '1', Currency: '949' })).toMatchObject({ ProcReturnCode: 'V013' });
    expect(await xml(emu, { ...account(emu), OrgOrderId: 'nope', SecureType: 'Inquiry', Lang: 'tr', TxnType: 'OrderInquiry' })).toMatchObject({ ProcReturnCode: 'V013', OrgOrderId: 'nope' });
  });

  it('keeps books with masked cards only', async () => {
    const state = await (await fetch(`${emu.url}/_emulator/state`)).text();
    expect(state).toContain('415565******6111');
    expect(state).not.toContain('4155650100416111');
  });

  it('waits the latency it was started with before every answer', async () => {
    const slow = await startPayforEmulator({ port: 0, latency: { minMs: 300, maxMs: 300 } });
    try {
      const started = Date.now();
      expect((await sale(slow, 'slow1', '4155650100416111')).ProcReturnCode).toBe('00');
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await slow.stop();
    }
  });
});

describe('the 3D gate', () => {
  const card = { holderName: 'A', number: '4155650100416111', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };
  const form = (e: PayforEmulator, storeKey: string, orderId: string) =>
    threeDFormFields({ orderId, amount: 1000n, currency: 'TRY', installmentNumber: 1, card, callbackUrl: 'http://127.0.0.1:9/cb', model: '3d' }, { credentials: { ...payforCredentials(e), store_key: storeKey }, lang: 'tr' });
  const redirect = (e: PayforEmulator, fields: Record<string, string>) => ({ kind: 'form' as const, action: e.gateUrl, fields, cardFields: {} });

  it('refuses a form signed with another store key: a signed refusal to FailUrl, no authentication', async () => {
    const back = await walkGate(redirect(emu, form(emu, 'other-key', 'gate1')));
    expect(back).toMatchObject({ '3DStatus': '-1', ProcReturnCode: '96', ErrMsg: 'Hash hatalı', RequestGuid: '0' });
  });

  it('signs with SHA-256 when asked, as the bank\u2019s newer answers do, and the connector takes it and sells', async () => {
    const sha = await startPayforEmulator({ port: 0, hashAlgorithm: 'sha256' });
    try {
      const back = await walkGate(redirect(sha, form(sha, sha.storeKey, 'sha256order')));
      expect(back.ResponseHash).toHaveLength(44);
      expect(back.HashType).toBeUndefined();
      const connector = payforProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} }).connect({
        id: 'acc',
        credentials: payforCredentials(sha),
        settings: { environment: 'test', model: '3d', gate_url: sha.gateUrl, api_url: sha.apiUrl },
      });
      const payment = { startKey: 'k', providerReference: 'sha256order', amount: 1000n, currency: 'TRY' as const };
      const checked = await connector.verifyCallback(payment, back);
      expect(checked).toMatchObject({ status: 'verified', authenticated: true });
      if (checked.status !== 'verified' || !checked.authenticated) return;
      expect(await connector.complete3D({ idempotencyKey: 'k:complete', payment, data: checked.data })).toEqual({ status: 'succeeded', providerReference: 'sha256order' });
    } finally {
      await sha.stop();
    }
  });
});

const processes = useProcessGroups();

it('`npm run emulator -- payfor` takes the account as flags, prints it with its addresses, and stops on SIGTERM', async () => {
  const run = await processes.emulator(['payfor', '--port', '0', '--merchant-id', '111222333', '--user-code', 'DEVUSER', '--user-password', 'dev-pass', '--store-key', 'dev-key']);
  const url = /listening on (\S+)/.exec(run.output())?.[1];
  expect(run.printed('3D gate')).toBe(`${url}/Gateway/Default.aspx`);
  expect(run.printed('XML API')).toBe(`${url}/Gateway/XMLGate.aspx`);
  expect([run.printed('merchant id'), run.printed('API user'), run.printed('store key')]).toEqual(['111222333', 'DEVUSER / dev-pass', 'dev-key']);
  const dev = { url, gateUrl: run.printed('3D gate'), apiUrl: run.printed('XML API'), merchantId: '111222333', userCode: 'DEVUSER', userPassword: 'dev-pass', storeKey: 'dev-key' } as PayforEmulator;
  expect((await sale(dev, 'cli1', '4155650100416111')).ProcReturnCode).toBe('00');
  expect((await sale({ ...dev, userPassword: 'UcBN0' }, 'cli2', '4155650100416111')).ProcReturnCode).toBe('V001');
  expect(await run.stop()).toBe(0);
}, 90_000);
