// Garanti's 3-D Secure over HTTP: the gate form, the ACS page, the signed callback to successurl/errorurl,
// the 3D model's XML sale with the authentication, and the 3D Pay model's charge at the gate.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callbackHash } from '../../emulators/garanti/hash.ts';
import { startGarantiEmulator, type GarantiEmulator } from '../../emulators/garanti/server.ts';
import { ERROR_URL, SUCCESS_URL, formsOf, gateForm, postForm, threeDSecure, xml, type Form } from './garanti-client.ts';

let emu: GarantiEmulator;
beforeAll(async () => {
  emu = await startGarantiEmulator({ port: 0 });
});
afterAll(() => emu.stop());
beforeEach(() => {
  emu.state.reset();
  emu.behaviour.clear();
});

/** The callback's hash checks as GarantiPosCrypt::check3DHash checks it. */
function signed(cb: Form): boolean {
  return callbackHash(cb.fields, emu.storeKey).hash === cb.fields.hash;
}

describe('3D model', () => {
  it('approve: signed callback to successurl, then the XML sale with the authentication charges once', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORD3D1', amount: '10025', level: '3D', card: '4282209027132016' }));
    expect(cb.action).toBe(SUCCESS_URL);
    expect(signed(cb)).toBe(true);
    expect(cb.fields).toMatchObject({ mdstatus: '1', oid: 'ORD3D1', orderid: 'ORD3D1', txnamount: '10025', txncurrencycode: '949', clientid: emu.terminalId, procreturncode: '', response: '' });
    expect(cb.fields.hashparams).toBe('clientid:oid:authcode:procreturncode:response:mdstatus:cavv:eci:md:rnd:');
    // Card data never comes back.
    expect(Object.keys(cb.fields)).not.toContain('cardnumber');
    expect(Object.keys(cb.fields)).not.toContain('cardcvv2');
    expect(JSON.stringify(cb.fields)).not.toContain('4282209027132016');
    expect(emu.state.orders.size).toBe(0); // authenticated, not charged

    const secure3d = { md: cb.fields.md!, xid: cb.fields.xid!, cavv: cb.fields.cavv!, eci: cb.fields.eci! };
    const sale = await xml(emu, { type: 'sales', orderId: 'ORD3D1', amount: '10025', secure3d });
    expect(sale.Transaction.Response).toMatchObject({ Source: 'HOST', Code: '00', Message: 'Approved' });
    expect(sale.Transaction.AuthCode).toMatch(/^\d{6}$/);
    expect(sale.Order.OrderID).toBe('ORD3D1');
    const inq = await xml(emu, { type: 'orderinq', orderId: 'ORD3D1' });
    expect(inq.Order.OrderInqResult).toMatchObject({ Status: 'APPROVED', AuthAmount: '10025' });
  });

  it('the XML sale refuses an authentication for another amount or with a wrong cavv', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORD3D2', amount: '500', level: '3D', card: '4282209027132016' }));
    const secure3d = { md: cb.fields.md!, xid: cb.fields.xid!, cavv: cb.fields.cavv!, eci: cb.fields.eci! };
    const other = await xml(emu, { type: 'sales', orderId: 'ORD3D2', amount: '501', secure3d });
    expect(other.Transaction.Response).toMatchObject({ Source: 'GVPS', Code: '92' });
    const forged = await xml(emu, { type: 'sales', orderId: 'ORD3D2', amount: '500', secure3d: { ...secure3d, cavv: 'AAAA' } });
    expect(forged.Transaction.Response.Code).toBe('92');
    expect(emu.state.orders.size).toBe(0);
  });

  it('an authentication serves one sale: declined by the host (51), it cannot be sent again', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORD3D51', amount: '500', level: '3D', card: '4000000000005100' }));
    expect(cb.action).toBe(SUCCESS_URL);
    const secure3d = { md: cb.fields.md!, xid: cb.fields.xid!, cavv: cb.fields.cavv!, eci: cb.fields.eci! };
    const first = await xml(emu, { type: 'sales', orderId: 'ORD3D51', amount: '500', secure3d });
    expect(first.Transaction.Response).toMatchObject({ Source: 'HOST', Code: '51' });
    const again = await xml(emu, { type: 'sales', orderId: 'ORD3D51', amount: '500', secure3d });
    expect(again.Transaction.Response).toMatchObject({ Source: 'GVPS', Code: '92', ReasonCode: '0017' });
    // The same authenticated sale sent twice answers the same approved transaction.
    const ok = await threeDSecure(emu, gateForm(emu, { orderId: 'ORD3DOK', amount: '500', level: '3D', card: '4282209027132016' }));
    const auth = { md: ok.fields.md!, xid: ok.fields.xid!, cavv: ok.fields.cavv!, eci: ok.fields.eci! };
    const paid = await xml(emu, { type: 'sales', orderId: 'ORD3DOK', amount: '500', secure3d: auth });
    const repeated = await xml(emu, { type: 'sales', orderId: 'ORD3DOK', amount: '500', secure3d: auth });
    expect(repeated.Transaction.RetrefNum).toBe(paid.Transaction.RetrefNum);
  });

  it('decline on the ACS page: mdstatus 0 to errorurl, and no sale with that authentication', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORD3D3', amount: '500', level: '3D', card: '4282209027132016' }), 'decline');
    expect(cb.action).toBe(ERROR_URL);
    expect(signed(cb)).toBe(true);
    expect(cb.fields.mdstatus).toBe('0');
    const sale = await xml(emu, { type: 'sales', orderId: 'ORD3D3', amount: '500', secure3d: { md: cb.fields.md!, xid: cb.fields.xid!, cavv: '', eci: '' } });
    expect(sale.Transaction.Response.Code).toBe('92');
  });

  it('the ACS answers once', async () => {
    const gate = await postForm(emu.gateUrl, gateForm(emu, { orderId: 'ORD3D4', amount: '500', level: '3D', card: '4282209027132016' }));
    const approve = formsOf(gate.html).find((f) => f.fields.decision === 'approve')!;
    expect((await postForm(approve.action, approve.fields)).status).toBe(200);
    expect((await postForm(approve.action, approve.fields)).status).toBe(404);
  });

  it('test cards whose ACS answers mdstatus 0 and 4 without a challenge', async () => {
    const zero = await threeDSecure(emu, gateForm(emu, { orderId: 'ORDMD0', amount: '500', level: '3D', card: '4000000000990004' }));
    expect(zero).toMatchObject({ action: ERROR_URL, fields: { mdstatus: '0' } });
    const four = await threeDSecure(emu, gateForm(emu, { orderId: 'ORDMD4', amount: '500', level: '3D', card: '4000000000994006' }));
    expect(four).toMatchObject({ action: SUCCESS_URL, fields: { mdstatus: '4' } });
    expect(signed(zero) && signed(four)).toBe(true);
  });

  it('a bad secure3dhash is refused: mdstatus 7 to errorurl, nothing kept', async () => {
    const form = gateForm(emu, { orderId: 'ORDBAD', amount: '500', level: '3D_PAY', card: '4282209027132016' });
    const cb = await threeDSecure(emu, { ...form, txnamount: '1' }); // amount changed after signing
    expect(cb.action).toBe(ERROR_URL);
    expect(cb.fields).toMatchObject({ mdstatus: '7', procreturncode: '99' });
    expect(cb.fields.errmsg).toMatch(/secure3dhash/);
    expect(signed(cb)).toBe(true);
    expect(emu.state.sessions.size).toBe(0);
    expect(emu.state.orders.size).toBe(0);
  });

  it('a form without successurl/errorurl is a 400 page', async () => {
    const form = gateForm(emu, { orderId: 'ORDURL', amount: '500', level: '3D', card: '4282209027132016' });
    const res = await postForm(emu.gateUrl, { ...form, successurl: 'not a url' });
    expect(res.status).toBe(400);
  });
});

describe('3D Pay model', () => {
  it('approve: charged at the gate, procreturncode 00 to successurl; the order inquiry shows the sale', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORDPAY1', amount: '10100', level: '3D_PAY', card: '5406675406675403', installments: '3' }));
    expect(cb.action).toBe(SUCCESS_URL);
    expect(signed(cb)).toBe(true);
    expect(cb.fields).toMatchObject({ mdstatus: '1', procreturncode: '00', response: 'Approved', txnamount: '10100', secure3dsecuritylevel: '3D_PAY' });
    expect(cb.fields.authcode).toMatch(/^\d{6}$/);
    expect(cb.fields.hostrefnum).not.toBe('');
    const inq = await xml(emu, { type: 'orderinq', orderId: 'ORDPAY1' });
    expect(inq.Order.OrderInqResult).toMatchObject({ Status: 'APPROVED', AuthAmount: '10100', InstallmentCnt: '3', AuthCode: cb.fields.authcode });
  });

  it('insufficient funds: procreturncode 51 to errorurl', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORDPAY51', amount: '10100', level: '3D_PAY', card: '4000000000005100' }));
    expect(cb.action).toBe(ERROR_URL);
    expect(signed(cb)).toBe(true);
    expect(cb.fields).toMatchObject({ mdstatus: '1', procreturncode: '51', response: 'Declined' });
    const inq = await xml(emu, { type: 'orderinq', orderId: 'ORDPAY51' });
    expect(inq.Order.OrderInqResult.Status).toBe('DECLINED');
  });

  it('not authenticated: no charge', async () => {
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORDPAY0', amount: '10100', level: '3D_PAY', card: '4282209027132016' }), 'decline');
    expect(cb).toMatchObject({ action: ERROR_URL, fields: { mdstatus: '0', procreturncode: '' } });
    expect(emu.state.orders.size).toBe(0);
  });

  it('the behaviour control "decline" declines the gate charge with 05', async () => {
    await fetch(`${emu.url}/_emulator/behaviour`, { method: 'POST', body: JSON.stringify({ mode: 'decline' }) });
    const cb = await threeDSecure(emu, gateForm(emu, { orderId: 'ORDPAYD', amount: '100', level: '3D_PAY', card: '4282209027132016' }));
    expect(cb).toMatchObject({ action: ERROR_URL, fields: { procreturncode: '05' } });
  });
});
