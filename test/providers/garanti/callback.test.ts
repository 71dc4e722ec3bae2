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
    expect(judgeCallback(ctx, payment, signed(SIGNED_CALLBACK, 'guessed-key'))).toEqual({ status: 'rejected', reason: 'callback hash missing or invalid' });
    const { hash: _hash, ...unsigned } = SIGNED_CALLBACK;
    expect(judgeCallback(ctx, payment, unsigned).status).toBe('rejected');
  });

  it('rejects a form that signs neither the order nor mdstatus', () => {
    const check = judgeCallback(ctx, payment, signed({ ...SIGNED_CALLBACK, hashparams: 'clientid:rnd:' }));
    expect(check).toEqual({ status: 'rejected', reason: 'callback does not sign the order id' });
    expect(judgeCallback(ctx, payment, signed({ ...SIGNED_CALLBACK, hashparams: 'clientid:oid:rnd:' }))).toEqual({ status: 'rejected', reason: 'callback does not sign its outcome' });
  });

  it("rejects another order's callback", () => {
    expect(judgeCallback(ctx, { ...payment, providerReference: 'ANOTHERORDER1' }, SIGNED_CALLBACK)).toEqual({ status: 'rejected', reason: 'callback is for another order' });
    // Signed for another order, but posted to this payment's address.
    const other = signed({ ...SIGNED_CALLBACK, oid: 'ANOTHERORDER1', orderid: 'ANOTHERORDER1' });
    expect(judgeCallback(ctx, payment, other).status).toBe('rejected');
  });

  it('rejects another terminal, amount or currency', () => {
    expect(judgeCallback({ ...ctx, terminalId: '10000001' }, payment, SIGNED_CALLBACK)).toEqual({ status: 'rejected', reason: 'callback is for another terminal' });
    expect(judgeCallback(ctx, { ...payment, amount: 102n }, SIGNED_CALLBACK)).toEqual({ status: 'rejected', reason: 'callback amount is not the payment amount' });
    expect(judgeCallback(ctx, { ...payment, currency: 'USD' }, SIGNED_CALLBACK)).toEqual({ status: 'rejected', reason: 'callback currency is not the payment currency' });
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

  it("takes GVP's unsigned error form for its order as failed 3D Secure (3D model: nothing was charged)", () => {
    expect(judgeCallback(ctx, errored, systemError)).toEqual({
      status: 'verified',
      authenticated: false,
      failure: { status: 'declined', code: '3ds_failed', message: '3D Secure not completed (mdStatus:7)', providerCode: 'mdStatus:7', providerMessage: 'Sistem Hatasi' },
    });
    expect(judgeCallback(ctx, payment, systemError)).toEqual({ status: 'rejected', reason: 'callback is for another order' });
    // An unsigned success is never believed.
    expect(judgeCallback(ctx, errored, { ...systemError, mdstatus: '1' }).status).toBe('rejected');
  });

  describe('3D Pay model', () => {
    it('believes no unsigned form: the bank may have charged', () => {
      expect(judgeCallback({ ...ctx, model: '3d_pay' }, errored, systemError)).toEqual({ status: 'rejected', reason: 'callback hash missing or invalid' });
    });

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
        data: { orderId: '20221101657A', procreturncode: '00', response: 'Approved', errmsg: '', hostrefnum: '230508300426' },
      });
    });

    it('rejects a charge result the bank did not sign', () => {
      const unsignedOutcome = signed({ ...paid, hashparams: 'clientid:oid:mdstatus:cavv:eci:md:rnd:' });
      expect(judgeCallback(payCtx, payPayment, unsignedOutcome)).toEqual({ status: 'rejected', reason: 'callback does not sign its outcome' });
    });
  });
});
