// Garanti's XML API (POST /VPServlet, GVPSRequest) over HTTP: sales, refund, void, orderinq, the users
// and HashData it takes, and the test controls.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startGarantiEmulator, type GarantiEmulator } from '../../emulators/garanti/server.ts';
import { gvpsRequest, xml } from './garanti-client.ts';

const APPROVED = { number: '4282209027132016', expire: '1230', cvv: '000' };

let emu: GarantiEmulator;
beforeAll(async () => {
  emu = await startGarantiEmulator({ port: 0, merchantId: '9000001', terminalId: '10000123', provisionPassword: 'prov-pass', refundPassword: 'refund-pass', storeKey: 'store-key' });
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.state.reset();
  emu.behaviour.clear();
});

const sale = (orderId: string, amount = '10000', card = APPROVED) => xml(emu, { type: 'sales', orderId, amount, card });
const controls = (path: string, body?: unknown) => fetch(`${emu.url}/_emulator/${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

describe('sales', () => {
  it('approves with the credentials it was started with and answers GVP\'s envelope', async () => {
    expect(emu).toMatchObject({ merchantId: '9000001', terminalId: '10000123', provisionUser: 'PROVAUT', refundUser: 'PROVRFN', storeKey: 'store-key' });
    expect(emu.apiUrl).toBe(`${emu.url}/VPServlet`);
    expect(emu.gateUrl).toBe(`${emu.url}/servlet/gt3dengine`);
    const a = await sale('ORDX1');
    expect(a.Transaction.Response).toMatchObject({ Source: 'HOST', Code: '00', ReasonCode: '00', Message: 'Approved', ErrorMsg: '' });
    expect(a.Transaction.RetrefNum).toMatch(/^\d{12}$/);
    expect(a.Transaction.AuthCode).toMatch(/^\d{6}$/);
    expect(a.Transaction.ProvDate).toMatch(/^\d{8} \d\d:\d\d:\d\d$/);
    expect(a.Transaction.CardNumberMasked).toBe('428220******2016');
    expect(a.Transaction.HashData).toMatch(/^[0-9A-F]{128}$/);
    expect(a.Order.OrderID).toBe('ORDX1');
    expect(a.Terminal.ID).toBe('10000123');
  });

  it('is idempotent per orderid: the same sale answers the same transaction; another amount is refused', async () => {
    const first = await sale('ORDX2');
    const again = await sale('ORDX2');
    expect(again.Transaction.RetrefNum).toBe(first.Transaction.RetrefNum);
    expect(emu.state.orders.get('ORDX2')!.txns).toHaveLength(1);
    const other = await sale('ORDX2', '20000');
    expect(other.Transaction.Response).toMatchObject({ Source: 'GVPS', Code: '92', ReasonCode: '0104' });
  });

  it.each([
    ['4000000000005100', '51'],
    ['4000000000000507', '05'],
    ['4000000000005407', '54'],
  ])('test card %s is declined with %s', async (number, code) => {
    const a = await sale(`ORD${code}`, '100', { ...APPROVED, number });
    expect(a.Transaction.Response).toMatchObject({ Source: 'HOST', Code: code, Message: 'Declined' });
    expect(a.Transaction.AuthCode).toBe('');
    // A declined order may be paid again under the same order id.
    expect((await sale(`ORD${code}`, '100')).Transaction.Response.Code).toBe('00');
  });

  it('an expiry date in the past answers 54', async () => {
    const a = await sale('ORDEXP', '100', { ...APPROVED, expire: '0120' });
    expect(a.Transaction.Response.Code).toBe('54');
  });

  it('refuses a wrong HashData, a wrong password, a non-integer amount: Code 92, nothing kept', async () => {
    const badHash = await xml(emu, { type: 'sales', orderId: 'ORDH', amount: '100', card: APPROVED, hashData: 'AB'.repeat(64) });
    expect(badHash.Transaction.Response).toMatchObject({ Source: 'GVPS', Code: '92', ReasonCode: '0651', SysErrMsg: 'Terminal/HashData does not match' });
    const badPassword = await xml(emu, { type: 'sales', orderId: 'ORDH', amount: '100', card: APPROVED, password: 'refund-pass' });
    expect(badPassword.Transaction.Response.Code).toBe('92');
    const decimal = await xml(emu, { type: 'sales', orderId: 'ORDH', amount: '1.00', card: APPROVED });
    expect(decimal.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0002' });
    expect(emu.state.orders.size).toBe(0);
  });

  it('takes the document form-encoded in `data` (as Active Merchant garanti.rb posts it)', async () => {
    const body = new URLSearchParams({ data: gvpsRequest(emu, { type: 'sales', orderId: 'ORDFORM', amount: '100', card: APPROVED }) });
    const res = await fetch(emu.apiUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(await res.text()).toMatch(/<Code>00<\/Code>/);
    expect(emu.state.orders.has('ORDFORM')).toBe(true);
  });

  it('a document that is not a GVPSRequest answers Code 92 / 0002', async () => {
    const res = await fetch(emu.apiUrl, { method: 'POST', body: '<nope/>' });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<Code>92<\/Code><ReasonCode>0002<\/ReasonCode>/);
  });
});

describe('refund and void', () => {
  it('partial refunds up to the sale, never more; PROVRFN only', async () => {
    await sale('ORDR1', '10000');
    const asProvaut = await xml(emu, { type: 'refund', orderId: 'ORDR1', amount: '100', provUser: 'PROVAUT', password: 'prov-pass' });
    expect(asProvaut.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0651' });
    const r1 = await xml(emu, { type: 'refund', orderId: 'ORDR1', amount: '4000' });
    expect(r1.Transaction.Response.Code).toBe('00');
    const over = await xml(emu, { type: 'refund', orderId: 'ORDR1', amount: '6001' });
    expect(over.Transaction.Response).toMatchObject({ Source: 'GVPS', Code: '92', ReasonCode: '0208' });
    expect(over.Transaction.Response.SysErrMsg).toMatch(/exceeds/);
    let inq = await xml(emu, { type: 'orderinq', orderId: 'ORDR1' });
    expect(inq.Order.OrderInqResult).toMatchObject({ Status: 'APPROVED', AuthAmount: '10000', RefundedAmount: '4000' });
    const r2 = await xml(emu, { type: 'refund', orderId: 'ORDR1', amount: '6000' });
    expect(r2.Transaction.Response.Code).toBe('00');
    inq = await xml(emu, { type: 'orderinq', orderId: 'ORDR1' });
    expect(inq.Order.OrderInqResult).toMatchObject({ Status: 'REFUNDED', RefundedAmount: '10000' });
    const txns = inq.Order.OrderHistInqResult.OrderTxnList.OrderTxn;
    // The refused refund stays in the history (Status 01, ReturnCode 92), as GVP lists one.
    expect(txns.map((t: Record<string, string>) => [t.Type, t.AuthAmount, t.Status, t.ReturnCode])).toEqual([
      ['sales', '10000', '00', '00'],
      ['refund', '4000', '00', '00'],
      ['refund', '6001', '01', '92'],
      ['refund', '6000', '00', '00'],
    ]);
  });

  it('refund of an unknown order: 0110', async () => {
    const a = await xml(emu, { type: 'refund', orderId: 'NOPE', amount: '100' });
    expect(a.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0110', ErrorMsg: 'İşlem bulunamadı' });
  });

  it('void takes the last refund back, then the sale; a voided order has nothing to refund', async () => {
    await sale('ORDV1', '10000');
    await xml(emu, { type: 'refund', orderId: 'ORDV1', amount: '3000' });
    const refusedSaleVoid = emu.state.orders.get('ORDV1')!.txns[0]!.retrefNum;
    const early = await xml(emu, { type: 'void', orderId: 'ORDV1', originalRetrefNum: refusedSaleVoid });
    expect(early.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0208' });
    expect((await xml(emu, { type: 'void', orderId: 'ORDV1' })).Transaction.Response.Code).toBe('00'); // the refund
    expect(emu.state.refunded(emu.state.orders.get('ORDV1')!)).toBe(0);
    expect((await xml(emu, { type: 'void', orderId: 'ORDV1' })).Transaction.Response.Code).toBe('00'); // the sale
    const inq = await xml(emu, { type: 'orderinq', orderId: 'ORDV1' });
    expect(inq.Order.OrderInqResult).toMatchObject({ Status: 'VOID', AuthAmount: '0' });
    expect((await xml(emu, { type: 'refund', orderId: 'ORDV1', amount: '1' })).Transaction.Response.ReasonCode).toBe('0208');
    expect((await xml(emu, { type: 'void', orderId: 'ORDV1' })).Transaction.Response.ReasonCode).toBe('0208');
  });

  it('orderinq of an unknown order: 0110; orderhistoryinq: 0108 (mewebstudio/pos fail_order_not_found)', async () => {
    const a = await xml(emu, { type: 'orderinq', orderId: 'UNKNOWN1' });
    expect(a.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0110' });
    const h = await xml(emu, { type: 'orderhistoryinq', orderId: 'UNKNOWN1' });
    expect(h.Transaction.Response).toMatchObject({ Code: '92', ReasonCode: '0108', ErrorMsg: 'Gönderilen sipariş numarasına ait kayıt bulunmamaktadır' });
  });
});

describe('controls', () => {
  it('decline: the next sale answers 05; refunds and inquiries are not touched', async () => {
    await sale('ORDC0');
    await controls('behaviour', { mode: 'decline', count: 1 });
    expect((await xml(emu, { type: 'orderinq', orderId: 'ORDC0' })).Transaction.Response.Code).toBe('00');
    expect((await sale('ORDC1')).Transaction.Response.Code).toBe('05');
    expect((await sale('ORDC1')).Transaction.Response.Code).toBe('00');
  });

  it('fail answers HTTP 500; slow waits delayMs', async () => {
    await controls('behaviour', { mode: 'fail' });
    expect((await fetch(emu.apiUrl, { method: 'POST', body: '' })).status).toBe(500);
    await controls('behaviour', { mode: 'slow', delayMs: 300 });
    const started = Date.now();
    await sale('ORDSLOW');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('timeout: the client gives up, nothing is charged', async () => {
    await controls('behaviour', { mode: 'timeout' });
    await expect(xml(emu, { type: 'sales', orderId: 'ORDT', amount: '100', card: APPROVED }, AbortSignal.timeout(300))).rejects.toThrow();
    expect(emu.state.orders.size).toBe(0);
  });

  it('a bad rule is a 400; state lists orders without card numbers; reset forgets everything', async () => {
    expect((await controls('behaviour', { mode: 'explode' })).status).toBe(400);
    await sale('ORDS1');
    await controls('behaviour', { mode: 'decline', count: -1 });
    const state = await (await fetch(`${emu.url}/_emulator/state`)).json();
    expect(state.orders[0]).toMatchObject({ orderId: 'ORDS1', charged: 10000, refunded: 0, cardMasked: '428220******2016' });
    expect(state.behaviour).toEqual([{ mode: 'decline', count: -1, delayMs: 2000 }]);
    expect(JSON.stringify(state)).not.toContain(APPROVED.number);
    expect((await controls('reset')).status).toBe(200);
    const after = await (await fetch(`${emu.url}/_emulator/state`)).json();
    expect(after).toMatchObject({ orders: [], behaviour: [] });
  });
});
