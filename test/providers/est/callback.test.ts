import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EstConnector } from '../../../src/providers/est/connector.ts';
import { ver3Hash } from '../../../src/providers/est/hash.ts';
import { parseEstSettings, type EstCredentials } from '../../../src/providers/est/settings.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';
import type { ThreeDsPayment } from '../../../src/providers/types.ts';
import { VER1_3D_CALLBACK, VER1_STORE_KEY, VER3_3D_PAY_CALLBACK, VER3_STORE_KEY } from './fixtures.ts';

const deps: ConnectorDeps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} };

function connector(clientId: string, storeKey: string, model: '3d' | '3d_pay' = '3d'): EstConnector {
  const credentials: EstCredentials = { client_id: clientId, store_key: storeKey, api_user: 'API', api_password: 'secret' };
  return new EstConnector(credentials, parseEstSettings({ bank: 'akbank', model }), deps);
}

/** The payment mewebstudio's ver3 sample is about: order 202210308C0F, 1.01 TRY. */
const v3Payment: ThreeDsPayment = { startKey: 'p:authorise', providerReference: '202210308C0F', amount: 101n, currency: 'TRY' };
const v3 = connector('190200000', VER3_STORE_KEY, '3d_pay');

/** A callback as the bank would sign it after changing `changes` (the test plays the bank with its key). */
function resigned(changes: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = { ...VER3_3D_PAY_CALLBACK, ...changes };
  delete fields.HASH;
  return { ...fields, HASH: ver3Hash(fields, VER3_STORE_KEY) };
}

describe('EST callback check', () => {
  it("verifies the bank's signed 3D Pay answer and keeps the charge's outcome", () => {
    const check = v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK });
    expect(check).toEqual({
      status: 'verified',
      authenticated: true,
      data: { model: '3d_pay', mdStatus: '1', ProcReturnCode: '00', Response: 'Approved', ErrMsg: '', TransId: '22303RqiC11252', AuthCode: '216981', HostRefNum: '230317184784' },
    });
  });

  it('rejects a forged or altered answer', () => {
    expect(v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK, ProcReturnCode: '51' })).toMatchObject({ status: 'rejected' });
    expect(v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK, HASH: 'x'.repeat(88) })).toMatchObject({ status: 'rejected' });
    expect(v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK, extra: 'added' })).toMatchObject({ status: 'rejected' });
    const { HASH: _dropped, ...unsigned } = VER3_3D_PAY_CALLBACK;
    expect(v3.verifyCallback(v3Payment, unsigned)).toMatchObject({ status: 'rejected' });
    expect(v3.verifyCallback(v3Payment, unsigned)).toMatchObject({ cause: 'unsigned' });
    // Signed with another merchant's store key (or checked with a mistyped one).
    expect(connector('190200000', 'other-key', '3d_pay').verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK })).toEqual({
      status: 'rejected',
      cause: 'signature',
      reason: 'The callback signature does not match the store key',
    });
  });

  it("rejects the bank's genuine answer about another order, amount, currency or merchant", () => {
    expect(v3.verifyCallback({ ...v3Payment, providerReference: '202210308C0E' }, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', cause: 'order', reason: 'The callback is for another order' });
    expect(v3.verifyCallback({ ...v3Payment, amount: 100n }, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', cause: 'amount', reason: 'The callback is for another amount' });
    expect(v3.verifyCallback({ ...v3Payment, currency: 'USD' }, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', cause: 'currency', reason: 'The callback is for another currency' });
    expect(connector('190100000', VER3_STORE_KEY, '3d_pay').verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', cause: 'merchant', reason: 'The callback is for another merchant' });
  });

  // The 3-D Pay rule (src/providers/three-d-pay.ts): an approved charge is the money's truth, whatever
  // the mdStatus; the gate charges after 1-4 only, so without an approval those are the charge's
  // refusal (or, with no code at all, an answer the order inquiry must settle) and the rest failed 3-D Secure.
  const GATE_CHARGES = ['1', '2', '3', '4'];
  const ALL_MD_STATUS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
  describe.each(ALL_MD_STATUS)('a signed 3D Pay answer with mdStatus %s', (mdStatus) => {
    const answer = (changes: Record<string, string | undefined>) => {
      const fields = resigned({ mdStatus, mdErrorMsg: 'Not authenticated' });
      for (const [name, value] of Object.entries(changes)) if (value === undefined) delete fields[name]; else fields[name] = value;
      delete fields.HASH;
      return { ...fields, HASH: ver3Hash(fields, VER3_STORE_KEY) };
    };
    const complete = async (fields: Record<string, string>) => {
      const check = v3.verifyCallback(v3Payment, fields);
      if (check.status !== 'verified' || !check.authenticated) return check;
      return v3.complete3D({ idempotencyKey: 'p:complete', payment: v3Payment, data: check.data });
    };

    it('and ProcReturnCode 00 (the bank charged): the payment succeeds', async () => {
      expect(await complete(answer({ ProcReturnCode: '00', Response: 'Approved' }))).toEqual({ status: 'succeeded', providerReference: '202210308C0F' });
    });

    it('and ProcReturnCode 51: the charge\u2019s refusal after 1-4, else failed 3-D Secure', async () => {
      const result = await complete(answer({ ProcReturnCode: '51', Response: 'Declined', ErrMsg: 'Yetersiz bakiye.' }));
      if (GATE_CHARGES.includes(mdStatus)) expect(result).toMatchObject({ status: 'declined', code: 'insufficient_funds', providerCode: '51' });
      else expect(result).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: `mdStatus:${mdStatus}` } });
    });

    it('and no ProcReturnCode: rejected after 1-4 (the inquiry settles it), else failed 3-D Secure', async () => {
      const result = await complete(answer({ ProcReturnCode: undefined, Response: undefined, AuthCode: undefined, TransId: undefined, HostRefNum: undefined }));
      if (GATE_CHARGES.includes(mdStatus)) expect(result).toMatchObject({ status: 'rejected', cause: 'incomplete' });
      else expect(result).toMatchObject({ status: 'verified', authenticated: false, failure: { code: '3ds_failed', providerCode: `mdStatus:${mdStatus}` } });
    });
  });

  it('the 3D model authorises on mdStatus 1 only: every other one fails without a charge', () => {
    for (const mdStatus of ALL_MD_STATUS.filter((m) => m !== '1')) {
      expect(v3.verifyCallback(v3Payment, resigned({ storetype: '3d', mdStatus, mdErrorMsg: 'Not authenticated' }))).toEqual({
        status: 'verified',
        authenticated: false,
        failure: { status: 'declined', code: '3ds_failed', message: 'Not authenticated', providerCode: `mdStatus:${mdStatus}`, providerMessage: 'Not authenticated' },
      });
    }
  });

  it('keeps what the XML authorisation needs from a signed 3D answer', () => {
    const check = v3.verifyCallback(v3Payment, resigned({ storetype: '3d', taksit: '3' }));
    expect(check).toEqual({
      status: 'verified',
      authenticated: true,
      data: {
        model: '3d',
        md: VER3_3D_PAY_CALLBACK.md,
        xid: VER3_3D_PAY_CALLBACK.xid,
        eci: '05',
        cavv: VER3_3D_PAY_CALLBACK.cavv,
        taksit: '3',
      },
    });
    expect(v3.verifyCallback(v3Payment, resigned({ storetype: '3d_host' }))).toMatchObject({ status: 'rejected' });
  });

  it('takes an older answer signed with HASHPARAMS (ver1) in the 3D model only', () => {
    const ver1 = connector('700655000200', VER1_STORE_KEY);
    const payment: ThreeDsPayment = { startKey: 'p:authorise', providerReference: '202204171C44', amount: 101n, currency: 'TRY' };
    expect(ver1.verifyCallback(payment, { ...VER1_3D_CALLBACK })).toEqual({
      status: 'verified',
      authenticated: false,
      failure: { status: 'declined', code: '3ds_failed', message: 'Not authenticated', providerCode: 'mdStatus:0', providerMessage: 'Not authenticated' },
    });
    expect(ver1.verifyCallback(payment, { ...VER1_3D_CALLBACK, mdStatus: '1' })).toMatchObject({ status: 'rejected' });
    // HASHPARAMS that leave the 3D result unsigned are not trusted, even with a matching hash.
    const weak: Record<string, string> = { ...VER1_3D_CALLBACK, HASHPARAMS: 'clientid:oid:', mdStatus: '1' };
    weak.HASH = createHash('sha1').update(`${weak.clientid!}${weak.oid!}${VER1_STORE_KEY}`).digest('base64');
    expect(ver1.verifyCallback(payment, weak)).toEqual({ status: 'rejected', cause: 'incomplete', reason: 'The callback does not sign its order and 3D result' });
    expect(ver1.verifyCallback(payment, { ...VER1_3D_CALLBACK, storetype: '3d_pay' })).toMatchObject({ status: 'rejected' });
    expect(ver1.verifyCallback({ ...payment, amount: 102n }, { ...VER1_3D_CALLBACK })).toMatchObject({ status: 'rejected' });
  });
});
