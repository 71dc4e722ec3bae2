import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorizationHeader, newRandomKey } from '../../../src/providers/iyzico/auth.ts';
import { iyzipayAuthorization } from './iyzipay-reference.ts';

const jsonBody = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 });

describe('IYZWSv2 authorization', () => {
  it('equals what iyzipay computes for the same random key, for any input', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
        fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.webPath(),
        jsonBody,
        (apiKey, secretKey, randomKey, uriPath, body) => {
          const ours = authorizationHeader({ apiKey, secretKey, randomKey, uriPath, body: JSON.stringify(body) });
          expect(ours).toBe(iyzipayAuthorization(apiKey, secretKey, uriPath, body, randomKey));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('matches the value iyzipay pins in its own unit test', () => {
    // iyzipay's UtilsTest signs the JSON of the string "body".
    expect(authorizationHeader({ apiKey: 'api_key', secretKey: 'secret_key', randomKey: 'random_string', uriPath: 'uri', body: JSON.stringify('body') })).toBe(
      'IYZWSv2 YXBpS2V5OmFwaV9rZXkmcmFuZG9tS2V5OnJhbmRvbV9zdHJpbmcmc2lnbmF0dXJlOjAxNzUwODkyMWEyOWVlNTYwMWJjZDFmYmU4M2VmZDJlMmJlNDNhZjAyZWNlZmYzMGNmMmU5MWE1MzlhYWIzNTU=',
    );
  });

  it('draws a different random key every call', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => newRandomKey(() => 1_700_000_000_000)));
    expect(keys.size).toBe(1000);
  });
});
