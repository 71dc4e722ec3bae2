import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { judgeCallback, type CallbackContext } from '../../../src/providers/garanti/callback.ts';
import type { ThreeDsPayment } from '../../../src/providers/types.ts';
import { SIGNED_CALLBACK } from './fixtures.ts';

const ctx: CallbackContext = { storeKey: '12345678', terminalId: '30691298', model: '3d' };
// The payment mewebstudio's signed callback (GarantiPosCryptTest) is about: order 2023100354BB, 1.01 TRY.
const payment: ThreeDsPayment = { startKey: 'x:authorise', providerReference: '2023100354BB', amount: 101n, currency: 'TRY' };

/** Signs fields as GVP does: SHA-512 upper hex of the hashparams values and the store key. */
function signed(fields: Record<string, string>, storeKey = '12345678'): Record<string, string> {
  const names = fields.hashparams!.split(':').filter((n) => n !== '');
  const hash = createHash('sha512').update(`${names.map((n) => fields[n] ?? '').join('')}${storeKey}`).digest('hex').toUpperCase();
  return { ...fields, hash };
}

describe('Garanti 3D callback', () => {
  it("verifies mewebstudio's signed callback for its payment and keeps what the 3D sale needs", () => {
    const check = judgeCallback(ctx, payment, SIGNED_CALLBACK);
    expect(check).toEqual({
      status: 'verified',
      authenticated: true,
      data: {
        orderId: '2023100354BB',
        cavv: SIGNED_CALLBACK.cavv,
        eci: '02',
        xid: SIGNED_CALLBACK.xid,
        md: SIGNED_CALLBACK.md,
        installment: '',
        ip: '172.26.0.1',
      },
    });
  });

  it('rejects a forged form (a signed field changed, or signed with another key)', () => {
    expect(judgeCallback(ctx, payment, { ...SIGNED_CALLBACK, cavv: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' }).status).toBe('rejected');
    expect(judgeCallback(ctx, payment, signed(SIGNED_CALLBACK, 'guessed-key'))).toEqual({ status: 'rejected', cause: 'signature', reason: 'callback hash does not match the store key' });
    const { hash: _hash, ...unsigned } = SIGNED_CALLBACK;
    expect(judgeCallback(ctx, payment, unsigned).status).toBe('rejected');
  });

  it('rejects a form that signs neither the order nor mdstatus', () => {
    const check = judgeCallback(ctx, payment, signed({ ...SIGNED_CALLBACK, hashparams: 'clientid:rnd:' }));
    expect(check).toEqual({ status: 'rejected', cause: 'incomplete', reason: 'callback does not sign the order id' });
    expect(judgeCallback(ctx, payment, signed({ ...SIGNED_CALLBACK, hashparams: 'clientid:oid:rnd:' }))).toEqual({ status: 'rejected', cause: 'incomplete', reason: 'callback does not sign its outcome' });
  });

  it("rejects another order's callback", () => {
    expect(judgeCallback(ctx, { ...payment, providerReference: 'ANOTHERORDER1' }, SIGNED_CALLBACK)).toEqual({ status: 'rejected', cause: 'order', reason: 'callback is for another order' });
    // Signed for another order, but posted to this payment's address.
    const other = signed({ ...SIGNED_CALLBACK, oid: 'ANOTHERORDER1', orderid: 'ANOTHERORDER1' });
    expect(judgeCallback(ctx, payment, other).status).toBe('rejected');
  });

  it('rejects another terminal, amount or currency', () => {
    expect(judgeCallback({ ...ctx, terminalId: '10000001' }, payment, SIGNED_CALLBACK)).toEqual({ status: 'rejected', cause: 'merchant', reason: 'callback is for another terminal' });
    expect(judgeCallback(ctx, { ...payment, amount: 102n }, SIGNED_CALLBACK)).toEqual({ status: 'rejected', cause: 'amount', reason: 'callback amount is not the payment amount' });
    expect(judgeCallback(ctx, { ...payment, currency: 'USD' }, SIGNED_CALLBACK)).toEqual({ status: 'rejected', cause: 'currency', reason: 'callback currency is not the payment currency' });
  });

  // GVP authenticates with mdstatus 1-4 (mewebstudio/pos GarantiPosResponseDataMapper::is3dAuthSuccess).
  it.each(['2', '3', '4'])('takes the half-secure mdstatus %s as authenticated, as GVP does', (mdstatus) => {
    expect(judgeCallback(ctx, payment, signed({ ...SIGNED_CALLBACK, mdstatus }))).toMatchObject({ status: 'verified', authenticated: true, data: { orderId: '2023100354BB' } });
  });

  it.each(['0', '5', '6', '7', '8'])('takes mdstatus %s as failed 3D Secure', (mdstatus) => {
    const check = judgeCallback(ctx, payment, signed({ ...SIGNED_CALLBACK, mdstatus, mderrormessage: 'Not authenticated' }));
    expect(check).toEqual({
      status: 'verified',
      authenticated: false,
      failure: { status: 'declined', code: '3ds_failed', message: `3D Secure not completed (mdStatus:${mdstatus})`, providerCode: `mdStatus:${mdstatus}`, providerMessage: 'Not authenticated' },
    });
  });

  // GarantiPosResponseDataMapperTest threeDPayPaymentDataProvider 'authFail': GVP's own error, posted without a hash.
  const systemError: Record<string, string> = {
    mdstatus: '7',
    mderrormessage: 'Sistem Hatasi',
    errmsg: 'Sistem Hatasi',
    clientid: '30691298',
    oid: '2022110159A0',
    response: 'Error',
    procreturncode: '99',
    orderid: '2022110159A0',
    txncurrencycode: '949',
    txnamount: '0',
    terminalid: '30691298',
  };
  const errored: ThreeDsPayment = { ...payment, providerReference: '2022110159A0' };

  it("changes nothing on GVP's unsigned error form, whatever the model: anyone who learns the address could post one", () => {
    const unsignedReject = { status: 'rejected', cause: 'unsigned', reason: 'callback is not signed' };
    expect(judgeCallback(ctx, errored, systemError)).toEqual(unsignedReject);
    expect(judgeCallback({ ...ctx, model: '3d_pay' }, errored, systemError)).toEqual(unsignedReject);
    expect(judgeCallback(ctx, errored, { ...systemError, mdstatus: '1' })).toEqual(unsignedReject);
  });

  // GarantiPosResponseDataMapperTest threeDPaymentDataProvider '3d_auth_fail_1' (mewebstudio/pos): the ACS's
  // refusal (mdstatus 0) signed with the same hashparams as a success, store key 12345678. In both models it is
  // believed only because it is signed.
  const authFail: Record<string, string> = {
    apiversion: '512', authcode: '', cavv: '', cavvalgorithm: '', clientid: '30691298', customeripaddress: '192.168.0.1', eci: '', errmsg: '',
    errorurl: 'http://localhost:807/garanti/3d/response.php', garanticardind: '',
    hash: 'FD9BF014BFBC3D977B123AE84247CE3F639913644429304C4EE108C0F40212853628CAECAADB798EE73D467F50C3B5D90FE0F3B921EDAA94B6E2EA888F9FE9B7',
    hashparams: 'clientid:oid:authcode:procreturncode:response:mdstatus:cavv:eci:md:rnd:',
    hashparamsval: '30691298202409078CF30aW5kZXg6MDIYjoYTHmZE91tOHZxS3PEkMcb8vBvm21xQz107TS6WKHVjLlrZP9AMx7KFu8jZRZA3WtZxMUuaUynWLxQGsVrw1vTKIofUQ0dw2P/jVVvPMX/RxI7Bpjvo/pZp3Nmbj2wd1W146UhNNmge7eA+hdrNSHuPp7PmjAihyZEPujAi3Q==6ga2Y3buKZ3ZcJSC7uE6',
    hostmsg: '', hostrefnum: '', ireqcode: '', ireqdetail: '', MaskedPan: '42822090****8012',
    md: 'aW5kZXg6MDIYjoYTHmZE91tOHZxS3PEkMcb8vBvm21xQz107TS6WKHVjLlrZP9AMx7KFu8jZRZA3WtZxMUuaUynWLxQGsVrw1vTKIofUQ0dw2P/jVVvPMX/RxI7Bpjvo/pZp3Nmbj2wd1W146UhNNmge7eA+hdrNSHuPp7PmjAihyZEPujAi3Q==',
    mderrormessage: '', mdstatus: '0', mode: 'TEST', oid: '202409078CF3', orderid: '202409078CF3', paressyntaxok: '', paresverified: '', procreturncode: '', response: '',
    rnd: '6ga2Y3buKZ3ZcJSC7uE6', secure3dsecuritylevel: '3D', successurl: 'http://localhost:807/garanti/3d/response.php', terminalid: '30691298', terminalmerchantid: '7000679',
    terminalprovuserid: 'PROVAUT', terminaluserid: 'PROVAUT', transid: '202409078CF3', txnamount: '1001', txncurrencycode: '949', txninstallmentcount: '', txnstatus: '',
    txntype: 'sales', vendorcode: '', version: '', xid: '9df81889-86f6-42bf-9129-8189d30e6fef',
  };
  const authFailPayment: ThreeDsPayment = { ...payment, providerReference: '202409078CF3', amount: 1001n };

  it("verifies GVP's signed ACS refusal (mewebstudio/pos 3d_auth_fail_1) as failed 3D Secure, and no altered copy of it", () => {
    const failed = { status: 'verified', authenticated: false, failure: expect.objectContaining({ code: '3ds_failed', providerCode: 'mdStatus:0' }) };
    expect(judgeCallback(ctx, authFailPayment, authFail)).toEqual(failed);
    expect(judgeCallback({ ...ctx, model: '3d_pay' }, authFailPayment, authFail)).toEqual(failed);
    expect(judgeCallback({ ...ctx, model: '3d_pay' }, authFailPayment, { ...authFail, mdstatus: '1' })).toEqual({ status: 'rejected', cause: 'signature', reason: 'callback hash does not match the store key' });
  });

  describe('3D Pay model', () => {
    const payCtx: CallbackContext = { ...ctx, model: '3d_pay' };
    // The fields of GarantiPosResponseDataMapperTest's threeDPayPaymentDataProvider 'success1', re-signed with SHA-512 (its hash is the older SHA-1 one).
    const paid = signed({
      ...SIGNED_CALLBACK,
      oid: '20221101657A',
      orderid: '20221101657A',
      authcode: '304919',
      response: 'Approved',
      procreturncode: '00',
      hostrefnum: '230508300426',
      secure3dsecuritylevel: '3D_PAY',
    });
    const payPayment = { ...payment, providerReference: '20221101657A' };

    it('keeps the charge the bank made', () => {
      expect(judgeCallback(payCtx, payPayment, paid)).toEqual({
        status: 'verified',
        authenticated: true,
        data: { orderId: '20221101657A', procreturncode: '00', response: 'Approved', errmsg: '', hostrefnum: '230508300426', mdstatus: '1' },
      });
    });

    it('rejects a charge result the bank did not sign', () => {
      const unsignedOutcome = signed({ ...paid, hashparams: 'clientid:oid:mdstatus:cavv:eci:md:rnd:' });
      expect(judgeCallback(payCtx, payPayment, unsignedOutcome)).toEqual({ status: 'rejected', cause: 'incomplete', reason: 'callback does not sign its outcome' });
    });

    // The 3-D Pay rule (src/providers/three-d-pay.ts): an approved charge is the money's truth,
    // whatever the mdstatus; GVP's gate charges after 1-4 only.
    const GATE_CHARGES = ['1', '2', '3', '4'];
    describe.each(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'])('a signed 3D Pay answer with mdstatus %s', (mdstatus) => {
      const answer = (procreturncode: string, response: string) => signed({ ...paid, mdstatus, procreturncode, response, errmsg: procreturncode === '51' ? 'Limit yetersiz' : '' });

      it('and procreturncode 00 (the bank charged): verified as the charge', () => {
        expect(judgeCallback(payCtx, payPayment, answer('00', 'Approved'))).toMatchObject({ status: 'verified', authenticated: true, data: { procreturncode: '00', mdstatus } });
      });

      it('and procreturncode 51: the charge\u2019s refusal after 1-4, else failed 3-D Secure', () => {
        const check = judgeCallback(payCtx, payPayment, answer('51', 'Declined'));
        if (GATE_CHARGES.includes(mdstatus)) expect(check).toMatchObject({ status: 'verified', authenticated: true, data: { procreturncode: '51' } });
        else expect(check).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: `mdStatus:${mdstatus}` } });
      });

      it('and no procreturncode: rejected after 1-4 (the inquiry settles it), else failed 3-D Secure', () => {
        const check = judgeCallback(payCtx, payPayment, answer('', ''));
        if (GATE_CHARGES.includes(mdstatus)) expect(check).toMatchObject({ status: 'rejected', cause: 'incomplete' });
        else expect(check).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed' } });
      });
    });
  });
});
