// The EST emulator's XML API (CC5Request / CC5Response) as a merchant calls it: non-3D Auth,
// Credit (partial, never more than charged), Void, ORDERSTATUS / ORDERHISTORY, and the controls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEstEmulator, type EstEmulator } from '../../emulators/est/server.ts';
import { callApi } from './est-client.ts';

let emulator: EstEmulator;

beforeAll(async () => {
  emulator = await startEstEmulator({ port: 0 });
});
afterAll(() => emulator?.stop());
beforeEach(() => {
  emulator.state.reset();
  emulator.behaviour.clear();
});

let counter = 0;
const newOid = () => `api${Date.now()}${counter++}`;
const auth = (oid: string, overrides: Record<string, string> = {}) =>
  callApi(emulator, { Type: 'Auth', OrderId: oid, Total: '250.50', Currency: '949', Taksit: '', Number: '4355084355084358', Expires: '12/30', Cvv2Val: '000', Mode: 'P', ...overrides });
const extraOf = (answer: Record<string, unknown>) => answer.Extra as Record<string, string>;
const control = (rule: object) => fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', body: JSON.stringify(rule) });

describe('Auth (non-3D)', () => {
  it('approves a card, urlencoded DATA= or raw XML, and records the sale in minor units', async () => {
    const oid = newOid();
    const { status, text, answer } = await auth(oid);
    expect(status).toBe(200);
    expect(text).toMatch(/^<\?xml[^>]*\?>\s*<CC5Response>/);
    expect(answer).toMatchObject({ OrderId: oid, GroupId: oid, Response: 'Approved', ProcReturnCode: '00', ErrMsg: '' });
    expect(answer.TransId).toMatch(/^\d{5}\w{4}\d{5}$/);
    expect(answer.HostRefNum).toMatch(/^\d{12}$/);
    expect(emulator.state.orders.get(oid)!.transactions).toMatchObject([{ chargeType: 'S', status: 'A', amountMinor: 25050 }]);
    const raw = await callApi(emulator, { Type: 'Auth', OrderId: newOid(), Total: '1', Currency: '840', Number: '5406675406675403', Expires: '0130', Cvv2Val: '123' }, { raw: true });
    expect(raw.answer).toMatchObject({ Response: 'Approved', ProcReturnCode: '00' });
  });

  it('refuses wrong API credentials and writes nothing', async () => {
    for (const credentials of [{ Password: 'wrong' }, { Name: 'someone' }, { ClientId: '1' }] as Record<string, string>[]) {
      const { answer } = await callApi(emulator, { Type: 'Auth', OrderId: newOid(), Total: '1.00', Currency: '949', Number: '4355084355084358', Expires: '12/30', Cvv2Val: '000' }, { credentials });
      expect(answer).toMatchObject({ Response: 'Error', ProcReturnCode: '99' });
      expect(extraOf(answer).ERRORCODE).toBe('CORE-2702');
    }
    expect(emulator.state.orders.size).toBe(0);
  });

  it('declines per test card with the bank code and records the declined attempt', async () => {
    for (const [pan, code] of [['4355080000000054', '51'], ['4355080000000104', '05'], ['4355080000000203', '54'], ['4355080000000302', '82']] as const) {
      const oid = newOid();
      const { answer } = await auth(oid, { Number: pan });
      expect(answer).toMatchObject({ Response: 'Declined', ProcReturnCode: code, AuthCode: '' });
      expect(extraOf(answer).ERRORCODE).toBe(`ISO8583-${code}`);
      expect(emulator.state.orders.get(oid)!.transactions[0]!.status).toBe('D');
    }
    expect((await auth(newOid(), { Expires: '01/20' })).answer.ProcReturnCode).toBe('54');
  });

  it('refuses bad input with Response Error: card number, amount, currency, CVV, installments', async () => {
    expect(extraOf((await auth(newOid(), { Number: '4355084355084359' })).answer).ERRORCODE).toBe('CORE-2012');
    expect(extraOf((await auth(newOid(), { Total: '1.005' })).answer).ERRORCODE).toBe('CORE-2005');
    expect(extraOf((await auth(newOid(), { Currency: 'TRY' })).answer).ERRORCODE).toBe('CORE-2006');
    expect((await auth(newOid(), { Cvv2Val: '' })).answer).toMatchObject({ Response: 'Error', ProcReturnCode: '82' });
    expect(extraOf((await auth(newOid(), { Taksit: '24' })).answer).ERRORCODE).toBe('CORE-2603');
    expect(emulator.state.orders.size).toBe(0);
  });

  it('refuses a second Auth for a paid order id, but lets a declined one be retried', async () => {
    const oid = newOid();
    expect((await auth(oid)).answer.Response).toBe('Approved');
    const again = await auth(oid);
    expect(again.answer).toMatchObject({ Response: 'Error', ProcReturnCode: '99' });
    expect(extraOf(again.answer).ERRORCODE).toBe('CORE-2001');
    expect(emulator.state.orders.get(oid)!.transactions).toHaveLength(1);

    const declined = newOid();
    expect((await auth(declined, { Number: '4355080000000054' })).answer.ProcReturnCode).toBe('51');
    expect((await auth(declined)).answer.Response).toBe('Approved');
  });

  it('answers a body without a CC5Request with Response Error', async () => {
    const response = await fetch(emulator.apiUrl, { method: 'POST', body: 'DATA=not-xml' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<Response>Error</Response>');
  });
});

describe('Credit, Void and the order inquiry', () => {
  it('refunds partially, refuses more than what is left, refunds the rest, then answers Net Tutar 0', async () => {
    const oid = newOid();
    await auth(oid, { Total: '100.00' });
    const first = await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '30.25', Currency: '949' });
    expect(first.answer).toMatchObject({ OrderId: oid, Response: 'Approved', ProcReturnCode: '00' });
    const over = await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '69.76', Currency: '949' });
    expect(over.answer).toMatchObject({ Response: 'Error', ProcReturnCode: '99' });
    expect(extraOf(over.answer).ERRORCODE).toBe('CORE-2507');
    const rest = await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '69.75', Currency: '949' });
    expect(rest.answer.Response).toBe('Approved');
    const nothingLeft = await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '0.01' });
    expect(nothingLeft.answer).toMatchObject({ Response: 'Declined', ErrMsg: 'Net Tutar 0.' });
    // A refused credit stays in the history as a declined C line with code 99, as EST lists one.
    expect(emulator.state.orders.get(oid)!.transactions.map((t) => [t.chargeType, t.status, t.amountMinor, t.procReturnCode])).toEqual([
      ['S', 'A', 10000, '00'],
      ['C', 'A', 3025, '00'],
      ['C', 'D', 6976, '99'],
      ['C', 'A', 6975, '00'],
      ['C', 'D', 1, '99'],
    ]);
    const history = extraOf((await callApi(emulator, { OrderId: oid, Extra: { ORDERHISTORY: 'QUERY' } })).answer);
    expect(history.TRXCOUNT).toBe('5');
    expect(history.TRX1).toMatch(/^C\tD\t1\t1\t.*\t99\t\w+$/);
  });

  it('refunds everything left when Total is absent, and refuses an unknown order or another currency', async () => {
    const oid = newOid();
    await auth(oid, { Total: '10.00' });
    expect((await callApi(emulator, { Type: 'Credit', OrderId: oid, Currency: '840' })).answer.Response).toBe('Error');
    expect((await callApi(emulator, { Type: 'Credit', OrderId: oid })).answer.Response).toBe('Approved');
    expect(emulator.state.orders.get(oid)!.transactions[1]!.amountMinor).toBe(1000);
    expect(extraOf((await callApi(emulator, { Type: 'Credit', OrderId: 'unknown', Total: '1.00' })).answer).ERRORCODE).toBe('CORE-2504');
  });

  it('voids the latest approved transaction: a refund first, then the sale; then nothing is left to void', async () => {
    const oid = newOid();
    await auth(oid, { Total: '50.00' });
    await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '20.00' });
    expect((await callApi(emulator, { Type: 'Void', OrderId: oid })).answer).toMatchObject({ Response: 'Approved', ProcReturnCode: '00' });
    expect(emulator.state.orders.get(oid)!.transactions.map((t) => t.status)).toEqual(['A', 'V']);
    expect((await callApi(emulator, { Type: 'Void', OrderId: oid })).answer.Response).toBe('Approved');
    expect(emulator.state.orders.get(oid)!.transactions.map((t) => t.status)).toEqual(['V', 'V']);
    const none = await callApi(emulator, { Type: 'Void', OrderId: oid });
    expect(none.answer).toMatchObject({ Response: 'Error', ErrMsg: 'İptal edilmeye uygun satış işlemi bulunamadı.' });
    // A voided sale refunds nothing and the order id can be paid again.
    expect((await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '1.00' })).answer.Response).toBe('Error');
    expect((await auth(oid)).answer.Response).toBe('Approved');
  });

  it('ORDERSTATUS describes the latest transaction; ORDERHISTORY lists them all, newest first', async () => {
    const oid = newOid();
    const sale = (await auth(oid, { Total: '1.01' })).answer;
    let status = (await callApi(emulator, { OrderId: oid, Extra: { ORDERSTATUS: 'QUERY' } })).answer;
    expect(status).toMatchObject({ Response: 'Approved', ProcReturnCode: '00', OrderId: oid, TransId: sale.TransId, ErrMsg: `Record(s) found for ${oid}` });
    expect(extraOf(status)).toMatchObject({ ORD_ID: oid, CHARGE_TYPE_CD: 'S', TRANS_STAT: 'A', ORIG_TRANS_AMT: '101', CAPTURE_AMT: '101', AUTH_CODE: sale.AuthCode, PAN: '4355 08** **** 4358' });
    expect(extraOf(status).ORDERSTATUS).toContain(`ORD_ID:${oid}\tCHARGE_TYPE_CD:S\tORIG_TRANS_AMT:101`);

    const refund = (await callApi(emulator, { Type: 'Credit', OrderId: oid, Total: '0.50' })).answer;
    status = (await callApi(emulator, { OrderId: oid, Extra: { ORDERSTATUS: 'QUERY' } })).answer;
    expect(extraOf(status)).toMatchObject({ CHARGE_TYPE_CD: 'C', TRANS_STAT: 'A', ORIG_TRANS_AMT: '50', TRANS_ID: refund.TransId });
    await callApi(emulator, { Type: 'Void', OrderId: oid });
    status = (await callApi(emulator, { OrderId: oid, Extra: { ORDERSTATUS: 'QUERY' } })).answer;
    expect(extraOf(status)).toMatchObject({ CHARGE_TYPE_CD: 'C', TRANS_STAT: 'V' });
    expect(extraOf(status).VOID_DTTM).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);

    const history = extraOf((await callApi(emulator, { OrderId: oid, Extra: { ORDERHISTORY: 'QUERY' } })).answer);
    expect(history.TRXCOUNT).toBe('2');
    expect(history.TRX1!.split('\t').slice(0, 4)).toEqual(['C', 'V', '50', '50']);
    expect(history.TRX2!.split('\t').slice(0, 4)).toEqual(['S', 'A', '101', '101']);
    expect(history.TRX2!.split('\t')[10]).toBe(sale.TransId);

    expect((await callApi(emulator, { OrderId: 'nope', Extra: { ORDERSTATUS: 'QUERY' } })).answer).toMatchObject({ ProcReturnCode: '99', ErrMsg: 'No record found for nope' });
  });
});

describe('controls', () => {
  it('decline: the next Auth is declined 05 (an inquiry does not use the rule up)', async () => {
    expect((await control({ mode: 'decline', count: 1 })).status).toBe(200);
    const oid = newOid();
    await callApi(emulator, { OrderId: oid, Extra: { ORDERSTATUS: 'QUERY' } });
    expect((await auth(oid)).answer).toMatchObject({ Response: 'Declined', ProcReturnCode: '05' });
    expect((await auth(oid)).answer.Response).toBe('Approved');
  });

  it('fail: HTTP 500 for the next call; timeout: no answer; slow: answers after delayMs', async () => {
    await control({ mode: 'fail' });
    expect((await auth(newOid())).status).toBe(500);
    await control({ mode: 'timeout' });
    const oid = newOid();
    const gaveUp = callApi(emulator, { Type: 'Auth', OrderId: oid, Total: '1.00', Currency: '949', Number: '4355084355084358', Expires: '12/30', Cvv2Val: '000' }, { signal: AbortSignal.timeout(300) });
    await expect(gaveUp).rejects.toThrow();
    expect(emulator.state.orders.has(oid)).toBe(false);
    await control({ mode: 'slow', delayMs: 300 });
    const started = Date.now();
    expect((await auth(newOid())).answer.Response).toBe('Approved');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('refuses a bad rule with 400; state lists orders; reset forgets them and the rules', async () => {
    expect((await control({ mode: 'explode' })).status).toBe(400);
    const oid = newOid();
    await auth(oid);
    await control({ mode: 'fail', count: -1 });
    const state = (await (await fetch(`${emulator.url}/_emulator/state`)).json()) as { orders: { oid: string; transactions: { amountMinor: number }[] }[]; behaviour: unknown[] };
    expect(state.orders).toMatchObject([{ oid, transactions: [{ amountMinor: 25050 }] }]);
    expect(JSON.stringify(state)).not.toContain('4355084355084358');
    expect(state.behaviour).toHaveLength(1);
    expect((await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' })).status).toBe(200);
    expect(emulator.state.orders.size).toBe(0);
    expect(emulator.behaviour.list()).toEqual([]);
  });
});
