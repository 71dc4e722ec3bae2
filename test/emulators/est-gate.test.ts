// The EST emulator's 3D gate, ACS and callback, over HTTP as a merchant's shopper goes through them.
// The callback's HASH is checked with estVer3Hash, itself checked against mewebstudio/pos's vectors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estVer3Hash } from '../../emulators/est/hash.ts';
import { startEstEmulator, type EstEmulator } from '../../emulators/est/server.ts';
import { callApi, FAIL_URL, gateForm, OK_URL, parseAutoPost, postForm, throughAcs } from './est-client.ts';

let emulator: EstEmulator;

beforeAll(async () => {
  emulator = await startEstEmulator({ clientId: '700655000200', storeKey: 'TEST-STORE-KEY', apiUser: 'api-user', apiPassword: 'api-pass', port: 0 });
});
afterAll(() => emulator?.stop());
beforeEach(() => {
  emulator.state.reset();
  emulator.behaviour.clear();
});

/** The callback is signed: its HASH is the ver3 hash of every other field with the store key. */
function expectSigned(fields: Record<string, string>): void {
  const { HASH, ...rest } = fields;
  expect(HASH).toBeTruthy();
  expect(estVer3Hash(rest, emulator.storeKey)).toBe(HASH);
  expect(estVer3Hash({ ...rest, amount: '1.00' }, emulator.storeKey)).not.toBe(HASH);
}

describe('ver3 hash (vectors from mewebstudio/pos tests/Unit/Crypt/EstV3PosCryptTest.php)', () => {
  it('signs the 3D Pay and 3D Secure gate forms as EstV3PosCrypt::create3DHash', () => {
    const base = { clientid: '190100000', amount: '100.25', oid: 'order222', okUrl: 'https://domain.com/success', failUrl: 'https://domain.com/fail_url', lang: 'tr', currency: '949', taksit: '', islemtipi: 'Auth', hashAlgorithm: 'ver3' };
    // testCreate3DHashFor3DPay
    expect(estVer3Hash({ ...base, storetype: '3d_pay', rnd: 'rand', firmaadi: 'siparis veren', Email: 'test@test.com' }, '123456')).toBe(
      '/uPxhEKWCEGi3NsDOOQ4u8Hu5g71v5GWspOid70WehTWEz97PqxG3IN1Jv5jsbOXOw3Z3Rr/0UtywzEgbqFfdA==',
    );
    // testCreate3DHashFor3DSecure
    expect(estVer3Hash({ ...base, storetype: '3d', rnd: '12345' }, '123456')).toBe('4aUsG5hqlIFLc9s8PKc5rWb2OLhmxDDewNgKa2XrwoYCIxlyVq8Fjl4IVaZzoqL983CfTseicmnTA0PjZr74xg==');
  });

  it('checks a real Ziraat 3D Pay callback (threeDHashCheckDataProvider): natural key order, escaping, nulls, HASH/encoding left out', () => {
    const callback: Record<string, string | null> = {
      ReturnOid: '202210308C0F', TRANID: null, hashAlgorithm: 'ver3', PAResSyntaxOK: 'true', firmaadi: 'John Doe', islemtipi: 'Auth', lang: 'tr',
      merchantID: '190200000', maskedCreditCard: '4355 08** **** 4358', amount: '1.01', sID: '1', ACQBIN: '454672', Ecom_Payment_Card_ExpDate_Year: '26',
      EXTRA_CARDBRAND: 'VISA', Email: 'mail@customer.com', MaskedPan: '435508***4358', acqStan: '184784', merchantName: 'Ziraat 3D_Pay', clientIp: '89.244.149.137',
      EXTRA_KAZANILANPUAN: '000000010.00', okUrl: 'http://localhost/akbank/3d-pay/response.php',
      md: '435508:51104213993AC8DFE8839C7F7E391B461115D09A1D88948C8ACE421D7D7EAA5A:3545:##190200000', ProcReturnCode: '00', payResults_dsId: '1', taksit: null,
      TransId: '22303RqiC11252', EXTRA_TRXDATE: '20221030 17:42:33', Ecom_Payment_Card_ExpDate_Month: '12', storetype: '3d_pay', Response: 'Approved', SettleId: '2383',
      mdErrorMsg: 'Y-status/Challenge authentication via ACS: https://3ds-acs.test.modirum.com/mdpayacs/creq?token=214711321.1667140951.Ud_jQl3B2l1',
      ErrMsg: null, PAResVerified: 'true', cavv: 'ABABBCgghAAAAABllJMDdZdTdic=', digest: 'digest', HostRefNum: '230317184784', callbackCall: 'true', AuthCode: '216981',
      failUrl: 'http://localhost/akbank/3d-pay/response.php', xid: 'N1An1iS5iN4u/1VWS6CgzSGRtN0=', encoding: 'ISO-8859-9', currency: '949', oid: '202210308C0F',
      mdStatus: '1', dsId: '1', eci: '05', version: '2.0', EXTRA_CARDISSUER: 'AKBANK T.A.S.', clientid: '190200000', txstatus: 'Y',
      HASH: 'jVgcwtx4vxxAcX8+ajsrrzp77k9uaGu1pjDQfCpoUG95y2MwwGipc6cF3kESiTphjV8/1ESSc6zg9KyTSxUnzA==', rnd: 'J/jGATA5LLVaMfpU+Yyu',
    };
    expect(estVer3Hash(callback, '123456')).toBe(callback.HASH);
    expect(estVer3Hash({ ...callback, mdStatus: '' }, '123456')).not.toBe(callback.HASH);
  });

  it('escapes | and \\ in values so that moving a separator changes the hash', () => {
    expect(estVer3Hash({ a: 'x|y', b: 'z' }, 'k')).not.toBe(estVer3Hash({ a: 'x', b: 'y|z' }, 'k'));
    expect(estVer3Hash({ a: 'x\\', b: '|z' }, 'k')).not.toBe(estVer3Hash({ a: 'x', b: '\\|z' }, 'k'));
  });
});

describe('3D gate', () => {
  it('refuses a form signed with another store key: posts Response=Error to failUrl, signed, and starts nothing', async () => {
    const response = await postForm(emulator.gateUrl, gateForm(emulator, {}, 'not-the-store-key'));
    expect(response.status).toBe(200);
    const { action, fields } = parseAutoPost(await response.text());
    expect(action).toBe(FAIL_URL);
    expect(fields).toMatchObject({ Response: 'Error', ErrorCode: 'HPP-1006' });
    expect(fields.ErrMsg).toMatch(/hash/);
    expect(fields.mdStatus).toBeUndefined();
    expect(fields.pan).toBeUndefined();
    expectSigned(fields);
    expect(emulator.state.sessions.size).toBe(0);
  });

  it('refuses a tampered amount (the hash no longer matches)', async () => {
    const form = { ...gateForm(emulator), amount: '1.00' };
    const { fields } = parseAutoPost(await (await postForm(emulator.gateUrl, form)).text());
    expect(fields).toMatchObject({ Response: 'Error', ErrorCode: 'HPP-1006' });
  });

  it('answers an unknown client id with its error page (no post back)', async () => {
    const response = await postForm(emulator.gateUrl, gateForm(emulator, { clientid: '999' }));
    const html = await response.text();
    expect(html).toContain('Üye işyeri bulunamadı');
    expect(html).not.toContain('<form');
  });

  it('posts the field it refuses to failUrl: currency, storetype, card number, installments', async () => {
    const refusal = async (overrides: Record<string, string>) => parseAutoPost(await (await postForm(emulator.gateUrl, gateForm(emulator, overrides))).text()).fields;
    expect((await refusal({ currency: '123' })).ErrorCode).toBe('HPP-1003');
    expect((await refusal({ storetype: '3d_host' })).ErrorCode).toBe('HPP-1007');
    expect((await refusal({ pan: '4355084355084359' })).ErrorCode).toBe('HPP-1001');
    expect((await refusal({ taksit: '1' })).ErrorCode).toBe('HPP-1010');
    expect((await refusal({ amount: '1.001' })).ErrorCode).toBe('HPP-1002');
    expect(emulator.state.sessions.size).toBe(0);
  });
});

describe('3D model: gate -> ACS -> callback -> XML Auth', () => {
  it('approves: okUrl gets mdStatus 1 and the proof, signed; the XML Auth with md charges once', async () => {
    const form = gateForm(emulator, { storetype: '3D', firmaadi: 'A|B \\ C' });
    const trip = await throughAcs(emulator, form);
    expect(trip.acsHtml).toContain('4355 08** **** 4358');
    expect(trip.action).toBe(OK_URL);
    const f = trip.fields;
    expect(f).toMatchObject({ mdStatus: '1', oid: form.oid, amount: '100.25', currency: '949', clientid: emulator.clientId, storetype: '3D', firmaadi: 'A|B \\ C', eci: '05', txstatus: 'Y' });
    expect(f.md).toMatch(/^435508:[0-9A-F]{64}:\d{4}:##700655000200$/);
    expect(f.xid && f.cavv).toBeTruthy();
    expect(f.Response).toBeUndefined(); // 3D model: the gate charged nothing
    expect(trip.html).not.toContain('4355084355084358');
    expect(f.cv2).toBeUndefined();
    expectSigned(f);
    expect(emulator.state.orders.size).toBe(0);

    const auth = { Type: 'Auth', OrderId: form.oid, Total: '100.25', Currency: '949', Taksit: '', Number: f.md, PayerTxnId: f.xid, PayerSecurityLevel: f.eci, PayerAuthenticationCode: f.cavv, CardholderPresentCode: '13', Mode: 'P' };
    const first = await callApi(emulator, auth);
    expect(first.answer).toMatchObject({ OrderId: form.oid, Response: 'Approved', ProcReturnCode: '00' });
    expect(first.answer.AuthCode).toMatch(/^P\d{5}$/);
    const again = await callApi(emulator, auth);
    expect(again.answer).toMatchObject({ Response: 'Error', ProcReturnCode: '99' });
    const status = await callApi(emulator, { OrderId: form.oid, Extra: { ORDERSTATUS: 'QUERY' } });
    expect(status.answer.Extra).toMatchObject({ TRANS_STAT: 'A', CHARGE_TYPE_CD: 'S', ORIG_TRANS_AMT: '10025', MDSTATUS: '1', ECI_3D: '05', PAN: '4355 08** **** 4358' });
  });

  it('refuses an XML Auth whose proof or amount is not the callback\'s', async () => {
    const form = gateForm(emulator);
    const { fields: f } = await throughAcs(emulator, form);
    const auth = { Type: 'Auth', OrderId: form.oid, Total: '100.25', Currency: '949', Number: f.md, PayerTxnId: f.xid, PayerSecurityLevel: f.eci, PayerAuthenticationCode: f.cavv };
    expect((await callApi(emulator, { ...auth, PayerAuthenticationCode: 'forged' })).answer.Response).toBe('Error');
    expect((await callApi(emulator, { ...auth, Total: '1.00' })).answer.Response).toBe('Error');
    expect((await callApi(emulator, { ...auth, OrderId: 'another' })).answer.Response).toBe('Error');
    expect(emulator.state.orders.size).toBe(0);
    expect((await callApi(emulator, auth)).answer.Response).toBe('Approved');
  });

  it('the Decline button posts mdStatus 0 to failUrl, without the proof', async () => {
    const trip = await throughAcs(emulator, gateForm(emulator), 'decline');
    expect(trip.action).toBe(FAIL_URL);
    expect(trip.fields).toMatchObject({ mdStatus: '0', txstatus: 'N', eci: '', cavv: '' });
    expectSigned(trip.fields);
  });

  it('a card whose ACS answers mdStatus 0 goes to failUrl; one with mdStatus 4 (attempt) to okUrl with ECI 06', async () => {
    const zero = await throughAcs(emulator, gateForm(emulator, { pan: '4355080000000401' }));
    expect(zero.action).toBe(FAIL_URL);
    expect(zero.fields.mdStatus).toBe('0');
    const four = await throughAcs(emulator, gateForm(emulator, { pan: '4355080000000500' }));
    expect(four.action).toBe(OK_URL);
    expect(four.fields).toMatchObject({ mdStatus: '4', eci: '06', txstatus: 'A' });
  });

  it('an answered ACS page cannot be answered again', async () => {
    const trip = await throughAcs(emulator, gateForm(emulator));
    expect((await postForm(`${trip.acsUrl}/complete`, { decision: 'approve' })).status).toBe(404);
  });
});

describe('3D Pay model: the gate charges the card', () => {
  it('approves: okUrl gets Response Approved, ProcReturnCode 00, TransId, signed; the order is paid', async () => {
    const form = gateForm(emulator, { storetype: '3d_pay', amount: '1.01', currency: '978', taksit: '3' });
    const { action, fields } = await throughAcs(emulator, form);
    expect(action).toBe(OK_URL);
    expect(fields).toMatchObject({ mdStatus: '1', Response: 'Approved', ProcReturnCode: '00', oid: form.oid, amount: '1.01', currency: '978', taksit: '3' });
    expect(fields.TransId).toBeTruthy();
    expect(fields.AuthCode).toMatch(/^P\d{5}$/);
    expectSigned(fields);
    const order = emulator.state.orders.get(form.oid)!;
    expect(order.transactions).toMatchObject([{ chargeType: 'S', status: 'A', amountMinor: 101, transId: fields.TransId }]);
    // The md of a 3D Pay callback authorises nothing more.
    const auth = await callApi(emulator, { Type: 'Auth', OrderId: form.oid, Total: '1.01', Currency: '978', Number: fields.md, PayerTxnId: fields.xid, PayerSecurityLevel: fields.eci, PayerAuthenticationCode: fields.cavv });
    expect(auth.answer.Response).toBe('Error');
    // A paid oid is refused at the gate.
    const again = parseAutoPost(await (await postForm(emulator.gateUrl, gateForm(emulator, { ...form, hash: '' }))).text());
    expect(again.fields).toMatchObject({ Response: 'Error', ErrorCode: 'CORE-2001' });
  });

  it('declines per test card: failUrl gets the bank code (51, 05, 54, 82)', async () => {
    for (const [pan, code] of [['4355080000000054', '51'], ['4355080000000104', '05'], ['4355080000000203', '54'], ['4355080000000302', '82']] as const) {
      const { action, fields } = await throughAcs(emulator, gateForm(emulator, { storetype: '3d_pay', pan }));
      expect(action).toBe(FAIL_URL);
      expect(fields).toMatchObject({ mdStatus: '1', Response: 'Declined', ProcReturnCode: code });
      expect(fields.AuthCode).toBe('');
      expectSigned(fields);
    }
  });

  it('a card past its expiry month is declined 54', async () => {
    const { fields } = await throughAcs(emulator, gateForm(emulator, { storetype: '3d_pay', Ecom_Payment_Card_ExpDate_Year: '20' }));
    expect(fields.ProcReturnCode).toBe('54');
  });

  it('an unauthenticated shopper is not charged: failUrl, no Response', async () => {
    const form = gateForm(emulator, { storetype: '3d_pay' });
    const { action, fields } = await throughAcs(emulator, form, 'decline');
    expect(action).toBe(FAIL_URL);
    expect(fields.mdStatus).toBe('0');
    expect(fields.Response).toBeUndefined();
    expect(emulator.state.orders.has(form.oid)).toBe(false);
  });

  it('a decline control rule declines the next 3D Pay charge with 05', async () => {
    await fetch(`${emulator.url}/_emulator/behaviour`, { method: 'POST', body: JSON.stringify({ mode: 'decline' }) });
    const { fields } = await throughAcs(emulator, gateForm(emulator, { storetype: '3d_pay' }));
    expect(fields).toMatchObject({ Response: 'Declined', ProcReturnCode: '05' });
    expect((await throughAcs(emulator, gateForm(emulator, { storetype: '3d_pay' }))).fields.ProcReturnCode).toBe('00');
  });
});
