import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors.ts';
import { garantiEndpoints, garantiMode, parseGarantiCredentials, parseGarantiSettings } from '../../../src/providers/garanti/settings.ts';
import { CREDENTIALS } from './fixtures.ts';

describe('Garanti settings and credentials', () => {
  it("goes to GVP's test system by default, its production system when asked (mewebstudio/pos config/pos_test.php, pos_production.php)", () => {
    const test = parseGarantiSettings({});
    expect(garantiEndpoints(test)).toEqual({
      gate: 'https://sanalposprovtest.garantibbva.com.tr/servlet/gt3dengine',
      api: 'https://sanalposprovtest.garantibbva.com.tr/VPServlet',
    });
    expect(garantiMode(test)).toBe('TEST');
    const prod = parseGarantiSettings({ environment: 'production' });
    expect(garantiEndpoints(prod)).toEqual({ gate: 'https://sanalposprov.garanti.com.tr/servlet/gt3dengine', api: 'https://sanalposprov.garanti.com.tr/VPServlet' });
    expect(garantiMode(prod)).toBe('PROD');
    expect(garantiEndpoints(parseGarantiSettings({ gate_url: 'http://127.0.0.1:4000/gate', api_url: 'http://127.0.0.1:4000/api' }))).toEqual({
      gate: 'http://127.0.0.1:4000/gate',
      api: 'http://127.0.0.1:4000/api',
    });
  });

  it('names the field of each mistake', () => {
    const issues = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (error instanceof ValidationError) return error.issues.map((i) => i.path.join('.'));
        throw error;
      }
      return [];
    };
    expect(issues(() => parseGarantiSettings({ model: '3d_host', timeout_ms: 999_999, api_url: 'javascript:alert(1)' })).sort()).toEqual(['api_url', 'model', 'timeout_ms']);
    expect(issues(() => parseGarantiCredentials({ ...CREDENTIALS, merchant_id: 'abc', refund_password: '' })).sort()).toEqual(['merchant_id', 'refund_password']);
    expect(parseGarantiCredentials(CREDENTIALS)).toEqual(CREDENTIALS);
    try {
      parseGarantiCredentials({ ...CREDENTIALS, terminal_id: '3069129A' });
    } catch (error) {
      expect((error as ValidationError).issues).toEqual([{ path: ['terminal_id'], code: 'digits_only' }]);
    }
    expect.assertions(4);
  });
});
