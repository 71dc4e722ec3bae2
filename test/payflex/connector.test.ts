// A PayFlex account as the merchant enters it (defaults, each mistake at its field path, the
// addresses of each environment), and the connector's answers that are no answer: a page that is
// not PayFlex's XML, an MPI refusing the merchant, a payment it cannot take refused before anything
// is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { startPayflexEmulator, type PayflexEmulator } from '../../emulators/payflex/server.ts';
import { payflexProvider } from '../../src/providers/payflex/index.ts';
import { parsePayflexCredentials, parsePayflexSettings, payflexEndpoints } from '../../src/providers/payflex/settings.ts';
import { ProviderTimeoutError, type Connector } from '../../src/providers/types.ts';
import { payflexCredentials } from './helpers.ts';

function issuesOf(run: () => unknown): Array<[string, string]> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map(({ path, code }) => [path.join('.'), code]);
  }
  throw new Error('expected a ValidationError');
}

describe('PayFlex credentials and settings', () => {
  it('fills the defaults: test, the 3D model, 60 s, a plain merchant', () => {
    expect(parsePayflexSettings(undefined)).toEqual({ environment: 'test', model: '3d', timeout_ms: 60_000 });
    expect(parsePayflexCredentials({ merchant_id: '000000000111111', merchant_password: 'p', terminal_no: 'VP999999' })).toMatchObject({ merchant_type: '0' });
  });

  it('names each mistake at its field', () => {
    expect(issuesOf(() => parsePayflexCredentials({ merchant_id: 'A12', merchant_password: '', terminal_no: 'VP 1', extra: 1 }))).toEqual(
      expect.arrayContaining([
        ['merchant_id', 'digits_only'],
        ['merchant_password', 'required'],
        ['terminal_no', 'value_not_allowed'],
      ]),
    );
    expect(issuesOf(() => parsePayflexCredentials({ merchant_id: '1', merchant_password: 'p', terminal_no: 'VP1', merchant_type: '2' }))).toEqual([['sub_merchant_id', 'required']]);
    expect(issuesOf(() => parsePayflexSettings({ model: '3d_pay', api_url: 'ftp://x', timeout_ms: 500 }))).toEqual(
      expect.arrayContaining([
        ['model', 'value_not_allowed'],
        ['api_url', expect.any(String)],
        ['timeout_ms', 'timeout_range'],
      ]),
    );
  });

  it("uses VakıfBank's addresses of mewebstudio/pos config, or the ones given", () => {
    expect(payflexEndpoints(parsePayflexSettings({ environment: 'production' }))).toEqual({
      enrollment: 'https://3dsecure.vakifbank.com.tr:4443/MPIAPI/MPI_Enrollment.aspx',
      api: 'https://onlineodeme.vakifbank.com.tr:4443/VposService/v3/Vposreq.aspx',
      query: 'https://onlineodeme.vakifbank.com.tr:4443/UIService/Search.aspx',
    });
    expect(payflexEndpoints(parsePayflexSettings({ api_url: 'http://127.0.0.1:1/v' })).api).toBe('http://127.0.0.1:1/v');
  });
});

describe('the connector against the emulator', () => {
  let emu: PayflexEmulator;
  const logged: Array<Record<string, unknown>> = [];
  const connect = (credentials: Record<string, string>): Connector =>
    payflexProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32, 1), log: (_m, f) => logged.push(f) }).connect({
      id: 'acc',
      credentials,
      settings: { enrollment_url: emu.enrollmentUrl, api_url: emu.apiUrl, query_url: emu.queryUrl, timeout_ms: 1_000 },
    });
  beforeAll(async () => {
    emu = await startPayflexEmulator({ port: 0 });
  });
  afterAll(() => emu?.stop());

  const card = { holderName: 'A', number: '4506349116608409', securityCode: '000', expiryMonth: '12', expiryYear: '2030' };
  const payment = (key: string, amount = 1000n) => ({ idempotencyKey: `${crypto.randomUUID()}:${key}`, amount, currency: 'TRY' as const, installmentNumber: 1, card });

  it('a page that is not the bank\u2019s XML (its 500) is no answer: ProviderTimeoutError, the gateway asks the search later', async () => {
    emu.behaviour.set({ mode: 'fail', count: 1 });
    await expect(connect(payflexCredentials(emu)).charge(payment('charge'))).rejects.toBeInstanceOf(ProviderTimeoutError);
  });

  it("the MPI refusing the merchant (2005) is the bank's error, no redirect", async () => {
    const started = await connect({ ...payflexCredentials(emu), merchant_password: 'wrong' }).start3D({ ...payment('authorise'), callbackUrl: 'http://127.0.0.1/cb' });
    expect(started).toMatchObject({ status: 'error', code: 'provider_error', providerCode: '2005', providerMessage: 'Merchant cannot be found for this bank' });
  });

  it('a zero amount is refused before anything is sent; a reference of another provider is not ours', async () => {
    const before = logged.length;
    const c = connect(payflexCredentials(emu));
    expect(await c.charge(payment('charge', 0n))).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(await c.start3D({ ...payment('authorise', 0n), callbackUrl: 'http://127.0.0.1/cb' })).toMatchObject({ status: 'error' });
    expect(await c.refund({ idempotencyKey: 'refund:x', providerReference: 'pay_123', amount: 1n, currency: 'TRY' })).toMatchObject({ status: 'error', code: 'provider_error' });
    expect(logged.length).toBe(before);
  });
});
