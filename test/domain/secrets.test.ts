import { describe, it, expect } from 'vitest';
import {
  decryptSecret,
  encryptSecret,
  generateAccessToken,
  generateApiKey,
  generateApiSecret,
  generateMasterKey,
  hashToken,
  parseMasterKey,
} from '../../src/domain/secrets.ts';

const HEX_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

describe('parseMasterKey', () => {
  it('accepts 64 hex characters', () => {
    const key = parseMasterKey(HEX_KEY);
    expect(key.length).toBe(32);
    expect(key.toString('hex')).toBe(HEX_KEY);
    expect(parseMasterKey(HEX_KEY.toUpperCase()).equals(key)).toBe(true);
  });

  it('accepts base64 of 32 bytes', () => {
    const b64 = Buffer.from(HEX_KEY, 'hex').toString('base64');
    expect(parseMasterKey(b64).toString('hex')).toBe(HEX_KEY);
  });

  it('accepts a value with surrounding whitespace, as read from an env file', () => {
    expect(parseMasterKey(`${HEX_KEY}\n`).toString('hex')).toBe(HEX_KEY);
  });

  it.each([
    '',
    HEX_KEY.slice(0, 62),
    `${HEX_KEY}00`,
    `${HEX_KEY.slice(0, 63)}g`,
    Buffer.alloc(31).toString('base64'),
    Buffer.alloc(33).toString('base64'),
    'not a key',
  ])('rejects %j with a clear error that does not echo the value', (value) => {
    expect(() => parseMasterKey(value)).toThrow(/Master key must be 32 bytes/);
    try {
      parseMasterKey(value);
    } catch (error) {
      if (value) expect((error as Error).message).not.toContain(value);
    }
  });

  it('parses generated keys', () => {
    const generated = generateMasterKey();
    expect(generated).toMatch(/^[0-9a-f]{64}$/);
    expect(parseMasterKey(generated).length).toBe(32);
    expect(generateMasterKey()).not.toBe(generated);
  });
});

describe('encryptSecret / decryptSecret', () => {
  const key = parseMasterKey(HEX_KEY);
  const secret = 'sk_0123456789abcdef';

  it('round-trips, including empty and non-ASCII text', () => {
    for (const text of [secret, '', 'şifre-ĞÜ-€']) expect(decryptSecret(key, encryptSecret(key, text))).toBe(text);
  });

  it('uses the v1 format with a fresh 12-byte IV each time', () => {
    const a = encryptSecret(key, secret);
    const b = encryptSecret(key, secret);
    expect(a).not.toBe(b);
    const [version, iv, tag] = a.split(':');
    expect(version).toBe('v1');
    expect(Buffer.from(iv, 'base64').length).toBe(12);
    expect(Buffer.from(tag, 'base64').length).toBe(16);
    expect(a).not.toContain(secret);
  });

  it('fails with a wrong master key', () => {
    const stored = encryptSecret(key, secret);
    const otherKey = parseMasterKey(generateMasterKey());
    expect(() => decryptSecret(otherKey, stored)).toThrow(/failed authentication/);
  });

  it('detects a tampered ciphertext, tag or IV', () => {
    const stored = encryptSecret(key, secret);
    const parts = stored.split(':');
    for (const index of [1, 2, 3]) {
      const bytes = Buffer.from(parts[index], 'base64');
      bytes[0] ^= 0x01;
      const tampered = [...parts];
      tampered[index] = bytes.toString('base64');
      expect(() => decryptSecret(key, tampered.join(':'))).toThrow();
    }
  });

  it('rejects characters the base64 decoder would silently skip', () => {
    const [version, iv, tag, data] = encryptSecret(key, secret).split(':');
    expect(() => decryptSecret(key, [version, iv, tag, `${data}!`].join(':'))).toThrow(/malformed/);
  });

  it.each(['', 'v1', 'v2:a:b:c', 'v1:a:b', 'v1:::', 'plain-secret'])('rejects malformed stored value %j', (stored) => {
    expect(() => decryptSecret(key, stored)).toThrow(/malformed/);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => encryptSecret(Buffer.alloc(16), secret)).toThrow(/32 bytes/);
    expect(() => decryptSecret(Buffer.alloc(16), encryptSecret(key, secret))).toThrow(/32 bytes/);
  });
});

describe('generated credentials', () => {
  it('makes API keys and secrets with their prefixes', () => {
    expect(generateApiKey()).toMatch(/^pk_[0-9a-f]{32}$/);
    expect(generateApiSecret()).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(generateApiKey()).not.toBe(generateApiKey());
    expect(generateApiSecret()).not.toBe(generateApiSecret());
  });

  it('makes access tokens with the requested prefix', () => {
    expect(generateAccessToken('dash')).toMatch(/^dash_[0-9a-f]{64}$/);
    expect(generateAccessToken('support')).toMatch(/^support_[0-9a-f]{64}$/);
  });

  it('hashes tokens with sha256 hex', () => {
    // sha256("abc") from FIPS 180-2.
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = generateAccessToken('dash');
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).not.toBe(token);
  });
});
