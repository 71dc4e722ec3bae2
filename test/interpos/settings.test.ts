// An InterPOS account's credentials and settings as the merchant enters them: defaults, each
// mistake at its field path, and the addresses each environment and 3D model uses.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { interPosEndpoints, parseInterPosCredentials, parseInterPosSettings } from '../../src/providers/interpos/settings.ts';

function issuesOf(run: () => unknown): Array<[string, string]> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map(({ path, code }) => [path.join('.'), code]);
  }
  throw new Error('expected a ValidationError');
}

describe('InterPOS credentials and settings', () => {
  it('fills the defaults: test, 3D model, Turkish, 60 s', () => {
    expect(parseInterPosSettings(undefined)).toEqual({ environment: 'test', model: '3d', timeout_ms: 60_000, lang: 'tr' });
  });

  it('names each mistake at its field', () => {
    expect(issuesOf(() => parseInterPosCredentials({ shop_code: 'A12', user_code: '', user_password: 'x', store_key: 'k', extra: 1 }))).toEqual(
      expect.arrayContaining([
        ['shop_code', 'digits_only'],
        ['user_code', 'required'],
      ]),
    );
    expect(issuesOf(() => parseInterPosSettings({ model: '3d_full', gate_url: 'ftp://x', timeout_ms: 500 }))).toEqual(
      expect.arrayContaining([
        ['model', 'value_not_allowed'],
        ['gate_url', expect.any(String)],
        ['timeout_ms', 'timeout_range'],
      ]),
    );
  });

  it('uses the bank addresses of mewebstudio/pos config (Default.aspx; 3DHost.aspx for 3D Host), or the ones given', () => {
    expect(interPosEndpoints(parseInterPosSettings({ environment: 'production' }))).toEqual({ gate: 'https://inter-vpos.com.tr/mpi/Default.aspx', api: 'https://inter-vpos.com.tr/mpi/Default.aspx' });
    expect(interPosEndpoints(parseInterPosSettings({ model: '3d_host' }))).toEqual({ gate: 'https://test.inter-vpos.com.tr/mpi/3DHost.aspx', api: 'https://test.inter-vpos.com.tr/mpi/Default.aspx' });
    expect(interPosEndpoints(parseInterPosSettings({ model: '3d_host', host_url: 'http://127.0.0.1:1/h', api_url: 'http://127.0.0.1:1/a' }))).toEqual({ gate: 'http://127.0.0.1:1/h', api: 'http://127.0.0.1:1/a' });
  });
});
