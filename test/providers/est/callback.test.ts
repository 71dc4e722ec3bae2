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
      data: { model: '3d_pay', ProcReturnCode: '00', Response: 'Approved', ErrMsg: '', TransId: '22303RqiC11252', AuthCode: '216981', HostRefNum: '230317184784' },
    });
  });

  it('rejects a forged or altered answer', () => {
    expect(v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK, ProcReturnCode: '51' })).toMatchObject({ status: 'rejected' });
    expect(v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK, HASH: 'x'.repeat(88) })).toMatchObject({ status: 'rejected' });
    expect(v3.verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK, extra: 'added' })).toMatchObject({ status: 'rejected' });
    const { HASH: _dropped, ...unsigned } = VER3_3D_PAY_CALLBACK;
    expect(v3.verifyCallback(v3Payment, unsigned)).toMatchObject({ status: 'rejected' });
    // Signed with another merchant's store key.
    expect(connector('190200000', 'other-key', '3d_pay').verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK })).toMatchObject({ status: 'rejected' });
  });

  it("rejects the bank's genuine answer about another order, amount, currency or merchant", () => {
    expect(v3.verifyCallback({ ...v3Payment, providerReference: '202210308C0E' }, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', reason: 'The callback is for another order' });
    expect(v3.verifyCallback({ ...v3Payment, amount: 100n }, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', reason: 'The callback is for another amount' });
    expect(v3.verifyCallback({ ...v3Payment, currency: 'USD' }, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', reason: 'The callback is for another currency' });
    expect(connector('190100000', VER3_STORE_KEY, '3d_pay').verifyCallback(v3Payment, { ...VER3_3D_PAY_CALLBACK })).toEqual({ status: 'rejected', reason: 'The callback is for another merchant' });
  });

  it('fails the payment without a charge when 3D Secure failed (mdStatus other than 1)', () => {
    for (const mdStatus of ['0', '2', '4', '7']) {
      expect(v3.verifyCallback(v3Payment, resigned({ mdStatus, mdErrorMsg: 'Not authenticated' }))).toEqual({
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
    expect(ver1.verifyCallback(payment, weak)).toEqual({ status: 'rejected', reason: 'The callback does not sign its order and 3D result' });
    expect(ver1.verifyCallback(payment, { ...VER1_3D_CALLBACK, storetype: '3d_pay' })).toMatchObject({ status: 'rejected' });
    expect(ver1.verifyCallback({ ...payment, amount: 102n }, { ...VER1_3D_CALLBACK })).toMatchObject({ status: 'rejected' });
  });
});
