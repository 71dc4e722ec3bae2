import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors.ts';
import { estProvider } from '../../../src/providers/est/index.ts';
import { EST_BANKS, endpointsOf, parseEstCredentials, parseEstSettings } from '../../../src/providers/est/settings.ts';
import type { ConnectorDeps } from '../../../src/providers/registry.ts';

function issuesOf(run: () => unknown): Array<{ path: Array<string | number>; code: string }> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map(({ path, code }) => ({ path, code }));
  }
  throw new Error('expected a ValidationError');
}

const deps: ConnectorDeps = { now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: () => {} };

describe('EST credentials and settings', () => {
  it('takes the four credentials, each required', () => {
    expect(parseEstCredentials({ client_id: ' 700655000200 ', store_key: 'k', api_user: 'u', api_password: 'p' })).toEqual({ client_id: '700655000200', store_key: 'k', api_user: 'u', api_password: 'p' });
    expect(issuesOf(() => parseEstCredentials({ client_id: '1', store_key: '', api_user: 'u' }))).toEqual([
      { path: ['store_key'], code: 'required' },
      { path: ['api_password'], code: 'required' },
    ]);
  });

  it("fills the defaults and uses the bank's test addresses", () => {
    const settings = parseEstSettings({ bank: 'halkbank' });
    expect(settings).toEqual({ bank: 'halkbank', environment: 'test', model: '3d', timeout_ms: 60_000, lang: 'tr' });
    expect(endpointsOf(settings)).toEqual({ gate3d: 'https://entegrasyon.asseco-see.com.tr/fim/est3Dgate', api: 'https://entegrasyon.asseco-see.com.tr/fim/api' });
    expect(endpointsOf(parseEstSettings({ bank: 'halkbank', environment: 'production' }))).toEqual({
      gate3d: 'https://sanalpos.halkbank.com.tr/fim/est3dgate',
      api: 'https://sanalpos.halkbank.com.tr/fim/api',
    });
    expect(endpointsOf(parseEstSettings({ bank: 'akbank', gate_url: 'http://127.0.0.1:9/gate', api_url: 'http://127.0.0.1:9/api' }))).toEqual({ gate3d: 'http://127.0.0.1:9/gate', api: 'http://127.0.0.1:9/api' });
    expect(Object.keys(EST_BANKS)).toEqual(['akbank', 'isbank', 'halkbank', 'ziraat', 'teb', 'sekerbank', 'finansbank']);
  });

  it('refuses a mistake at its field', () => {
    expect(issuesOf(() => parseEstSettings({}))).toEqual([{ path: ['bank'], code: 'value_not_allowed' }]);
    expect(issuesOf(() => parseEstSettings({ bank: 'garanti' }))[0]).toEqual({ path: ['bank'], code: 'value_not_allowed' });
    expect(issuesOf(() => parseEstSettings({ bank: 'akbank', model: '3d_host' }))[0]!.path).toEqual(['model']);
    expect(issuesOf(() => parseEstSettings({ bank: 'akbank', environment: 'live' }))[0]!.path).toEqual(['environment']);
    expect(issuesOf(() => parseEstSettings({ bank: 'akbank', api_url: 'ftp://x' }))[0]!.path).toEqual(['api_url']);
    expect(issuesOf(() => parseEstSettings({ bank: 'akbank', timeout_ms: 500 }))).toEqual([{ path: ['timeout_ms'], code: 'timeout_range' }]);
    expect(issuesOf(() => parseEstSettings({ bank: 'akbank', lang: 'de' }))[0]!.path).toEqual(['lang']);
    expect(issuesOf(() => parseEstSettings({ bank: 'akbank', base_url: 'http://x' }))[0]).toEqual({ path: ['base_url'], code: 'unknown_field' });
  });

  it('is a catalog definition that connects an account', () => {
    const def = estProvider(deps);
    expect(def).toMatchObject({ id: 'est', label: 'EST virtual POS (Payten)' });
    expect([...def.capabilities].sort()).toEqual(['cancel', 'conversion', 'hosted_page', 'non_secure', 'refund', 'secure']);
    const connector = def.connect({ id: 'a1', credentials: { client_id: '1', store_key: 'k', api_user: 'u', api_password: 'p' }, settings: { bank: 'teb' } });
    expect(connector.provider).toBe('est');
  });
});
