import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors.ts';
import { IYZICO_LIVE_URL, IYZICO_SANDBOX_URL, isLive, parseIyzicoCredentials, parseIyzicoSettings } from '../../../src/providers/iyzico/settings.ts';

function issuesOf(run: () => unknown): Array<{ path: Array<string | number>; code: string }> {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map(({ path, code }) => ({ path, code }));
  }
  throw new Error('expected a ValidationError');
}

describe('iyzico account settings', () => {
  it('accepts an API key pair, trimmed', () => {
    expect(parseIyzicoCredentials({ api_key: ' sandbox-abc ', secret_key: 'sandbox-def' })).toEqual({ api_key: 'sandbox-abc', secret_key: 'sandbox-def' });
  });

  it('names each missing, empty, mistyped or unknown credential field', () => {
    expect(issuesOf(() => parseIyzicoCredentials({}))).toEqual([
      { path: ['api_key'], code: 'required' },
      { path: ['secret_key'], code: 'required' },
    ]);
    expect(issuesOf(() => parseIyzicoCredentials({ api_key: '  ', secret_key: 42 }))).toEqual([
      { path: ['api_key'], code: 'required' },
      { path: ['secret_key'], code: 'invalid_type' },
    ]);
    expect(issuesOf(() => parseIyzicoCredentials({ api_key: 'a', secret_key: 'b', apiKey: 'c' }))).toEqual([{ path: ['apiKey'], code: 'unknown_field' }]);
    expect(issuesOf(() => parseIyzicoCredentials({ api_key: 'a'.repeat(256), secret_key: 'b' }))).toEqual([{ path: ['api_key'], code: 'too_long' }]);
  });

  it('sends calls to the sandbox unless told otherwise', () => {
    expect(parseIyzicoSettings(undefined)).toEqual({ base_url: IYZICO_SANDBOX_URL, timeout_ms: 60_000 });
    expect(parseIyzicoSettings({})).toEqual({ base_url: 'https://sandbox-api.iyzipay.com', timeout_ms: 60_000 });
    expect(isLive(parseIyzicoSettings({}))).toBe(false);
  });

  it('takes the live API or any http(s) URL, such as an emulator, without a trailing slash', () => {
    const live = parseIyzicoSettings({ base_url: 'https://api.iyzipay.com/' });
    expect(live).toEqual({ base_url: IYZICO_LIVE_URL, timeout_ms: 60_000 });
    expect(isLive(live)).toBe(true);
    expect(parseIyzicoSettings({ base_url: 'http://127.0.0.1:4010/iyzico' })).toEqual({ base_url: 'http://127.0.0.1:4010/iyzico', timeout_ms: 60_000 });
  });

  it('names a base_url that is not one', () => {
    for (const bad of ['ftp://api.iyzipay.com', 'api.iyzipay.com', 'https://api.iyzipay.com/?x=1', 'https://api.iyzipay.com/#x', 12]) {
      expect(issuesOf(() => parseIyzicoSettings({ base_url: bad }))[0]!.path).toEqual(['base_url']);
    }
    expect(issuesOf(() => parseIyzicoSettings({ base_url: 'ftp://x' }))).toEqual([{ path: ['base_url'], code: 'invalid_url' }]);
    expect(issuesOf(() => parseIyzicoSettings({ base: 'https://x' }))).toEqual([{ path: ['base'], code: 'unknown_field' }]);
  });

  it('waits 60 s for an answer unless told otherwise, from 1 s to 2 minutes (the connector contract)', () => {
    expect(parseIyzicoSettings({ timeout_ms: '5000' }).timeout_ms).toBe(5000);
    for (const bad of ['999', '120001', '1.5', 'soon']) {
      expect(issuesOf(() => parseIyzicoSettings({ timeout_ms: bad }))).toEqual([{ path: ['timeout_ms'], code: 'timeout_range' }]);
    }
  });
});
