// RFC 6238 appendix B's test vectors (8 digits; SHA-1, SHA-256 and SHA-512 with their seeds), the
// RFC 4226 appendix D HOTP values, and base32 round trips: the TOTP code the gateway checks is the
// one authenticator apps compute.
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingStep, otpauthUri, totp } from '../../src/domain/people/totp.ts';

const SEED1 = Buffer.from('12345678901234567890', 'ascii');
const SEED256 = Buffer.from('12345678901234567890123456789012', 'ascii');
const SEED512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii');

const VECTORS: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('RFC 6238', () => {
  it.each(VECTORS)('T = %i s', (seconds, sha1, sha256, sha512) => {
    expect(totp(SEED1, seconds * 1000, { digits: 8, algorithm: 'sha1' })).toBe(sha1);
    expect(totp(SEED256, seconds * 1000, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(totp(SEED512, seconds * 1000, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
  });

  it('RFC 4226 HOTP values for counters 0..9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, i) => hotp(SEED1, i))).toEqual(expected);
  });

  it('accepts the step before and after (a phone clock off by up to 30 s), nothing further, and only six digits', () => {
    const at = 1_111_111_111_000;
    const code = totp(SEED1, at);
    expect(matchingStep(SEED1, code, at)).toBe(Math.floor(at / 30_000));
    expect(matchingStep(SEED1, code, at + 30_000)).not.toBeNull();
    expect(matchingStep(SEED1, code, at - 30_000)).not.toBeNull();
    expect(matchingStep(SEED1, code, at + 90_000)).toBeNull();
    expect(matchingStep(SEED1, `${code}0`, at)).toBeNull();
    expect(matchingStep(SEED1, 'abcdef', at)).toBeNull();
  });
});

describe('base32 and the otpauth address', () => {
  it('round-trips and matches RFC 4648 examples', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Encode(SEED1)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    for (let n = 0; n < 40; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 73 + n) & 0xff));
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
  });

  it('names the issuer, the account and the secret', () => {
    expect(otpauthUri(SEED1, 'Payment gateway', 'a@b.example')).toBe('otpauth://totp/Payment%20gateway:a%40b.example?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Payment%20gateway&algorithm=SHA1&digits=6&period=30');
  });
});
