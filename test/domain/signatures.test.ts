import { describe, it, expect } from 'vitest';
import { createHmac } from 'node:crypto';
import {
  TIMESTAMP_TOLERANCE_SECONDS,
  isTimestampFresh,
  safeEqualHex,
  signBody,
  signTimestamped,
  verifyBodySignature,
  verifyWebhook,
  webhookPath,
} from '../../src/domain/signatures.ts';

// Published vector: the timestamp form joins timestamp, method, path and body with newlines.
const VECTOR = {
  secret: 'secret_test',
  timestamp: '1700000000',
  path: '/api/1000000001/gateway/regular-payment',
  body: '{"a":1}',
  signature: '4d6225c9dd46837418b40dd8140d76a24cd7520d81ff3b280bf98da8da6a8771',
};
const VECTOR_NOW = new Date(1_700_000_000 * 1000);

describe('signTimestamped', () => {
  it('matches the published vector', () => {
    const { secret, timestamp, path, body, signature } = VECTOR;
    expect(signTimestamped(secret, timestamp, 'POST', path, body)).toBe(signature);
  });

  it('gives the same signature for a string body and its bytes', () => {
    const { secret, timestamp, path, body, signature } = VECTOR;
    expect(signTimestamped(secret, timestamp, 'POST', path, Buffer.from(body))).toBe(signature);
  });

  it('signs non-UTF-8 bytes as received, without decoding them', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const expected = createHmac('sha256', 's')
      .update(Buffer.concat([Buffer.from('1\nPOST\n/p\n'), raw]))
      .digest('hex');
    expect(signTimestamped('s', '1', 'POST', '/p', raw)).toBe(expected);
  });
});

describe('signBody / verifyBodySignature', () => {
  it('is the hex HMAC-SHA256 of the raw body', () => {
    const expected = createHmac('sha256', 'k').update('{"a":1}').digest('hex');
    expect(signBody('k', '{"a":1}')).toBe(expected);
    expect(signBody('k', Buffer.from('{"a":1}'))).toBe(expected);
  });

  it('verifies the same bytes and rejects a one-byte change', () => {
    const sig = signBody('k', '{"amount":"100.00"}');
    expect(verifyBodySignature('k', '{"amount":"100.00"}', sig)).toBe(true);
    expect(verifyBodySignature('k', '{"amount":"100.01"}', sig)).toBe(false);
    expect(verifyBodySignature('other', '{"amount":"100.00"}', sig)).toBe(false);
  });

  it('rejects the same JSON re-serialized with other spacing', () => {
    const sig = signBody('k', '{"a":1,"b":2}');
    expect(verifyBodySignature('k', '{"a": 1, "b": 2}', sig)).toBe(false);
  });
});

describe('safeEqualHex', () => {
  const sig = VECTOR.signature;

  it('accepts equal digests, case-insensitively', () => {
    expect(safeEqualHex(sig, sig)).toBe(true);
    expect(safeEqualHex(sig, sig.toUpperCase())).toBe(true);
  });

  it('rejects different lengths without throwing', () => {
    expect(safeEqualHex(sig, sig.slice(0, -2))).toBe(false);
    expect(safeEqualHex(sig, `${sig}00`)).toBe(false);
    expect(safeEqualHex(sig, '')).toBe(false);
  });

  it('rejects non-hex and empty input', () => {
    expect(safeEqualHex(sig, `${sig.slice(0, -1)}g`)).toBe(false);
    expect(safeEqualHex('zz', 'zz')).toBe(false);
    expect(safeEqualHex('abc', 'abc')).toBe(false); // odd length is not a byte string
    expect(safeEqualHex('', '')).toBe(false);
  });

  it('rejects a digest differing in the last byte', () => {
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    expect(safeEqualHex(sig, flipped)).toBe(false);
  });
});

describe('isTimestampFresh', () => {
  const now = 1_700_000_000;

  it('accepts timestamps within 300 s either way, inclusive', () => {
    expect(TIMESTAMP_TOLERANCE_SECONDS).toBe(300);
    expect(isTimestampFresh(String(now), now)).toBe(true);
    expect(isTimestampFresh(String(now - 300), now)).toBe(true);
    expect(isTimestampFresh(String(now + 300), now)).toBe(true);
  });

  it('rejects timestamps beyond 300 s either way', () => {
    expect(isTimestampFresh(String(now - 301), now)).toBe(false);
    expect(isTimestampFresh(String(now - 360), now)).toBe(false);
    expect(isTimestampFresh(String(now + 301), now)).toBe(false);
  });

  it.each(['', ' 1700000000', '1700000000 ', '-1700000000', '+1700000000', '1700000000.5', '1.7e9', 'abc', '1'.repeat(16)])(
    'rejects malformed %j',
    (ts) => {
      expect(isTimestampFresh(ts, now)).toBe(false);
    },
  );
});

describe('webhookPath', () => {
  it.each([
    ['https://merchant.example/hooks/gateway', '/hooks/gateway'],
    ['https://merchant.example/hooks/gateway?x=1&y=2', '/hooks/gateway'],
    ['https://merchant.example/hooks/gateway#frag', '/hooks/gateway'],
    ['https://merchant.example', '/'],
    ['https://merchant.example?x=1', '/'],
    ['https://merchant.example:8443/a/b/', '/a/b/'],
  ])('%s -> %s', (url, expected) => {
    expect(webhookPath(url)).toBe(expected);
  });
});

describe('verifyWebhook', () => {
  const base = {
    secret: VECTOR.secret,
    timestamp: VECTOR.timestamp,
    signature: VECTOR.signature,
    path: VECTOR.path,
    rawBody: VECTOR.body,
    now: VECTOR_NOW,
  };

  it('accepts the published vector at its own time', () => {
    expect(verifyWebhook(base)).toBe(true);
    expect(verifyWebhook({ ...base, rawBody: Buffer.from(VECTOR.body) })).toBe(true);
  });

  it('accepts a 4-minute-old notification', () => {
    expect(verifyWebhook({ ...base, now: new Date(VECTOR_NOW.getTime() + 4 * 60_000) })).toBe(true);
  });

  it('rejects a 6-minute-old notification even with a valid signature', () => {
    expect(verifyWebhook({ ...base, now: new Date(VECTOR_NOW.getTime() + 6 * 60_000) })).toBe(false);
  });

  it('rejects a timestamp more than 5 minutes in the future', () => {
    expect(verifyWebhook({ ...base, now: new Date(VECTOR_NOW.getTime() - 6 * 60_000) })).toBe(false);
  });

  it('uses the current time by default', () => {
    // The vector is from 2023, so without `now` it is stale.
    const { now: _now, ...withoutNow } = base;
    expect(verifyWebhook(withoutNow)).toBe(false);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = signTimestamped(VECTOR.secret, timestamp, 'POST', VECTOR.path, VECTOR.body);
    expect(verifyWebhook({ ...withoutNow, timestamp, signature })).toBe(true);
  });

  it('rejects a body changed by one byte', () => {
    expect(verifyWebhook({ ...base, rawBody: '{"a":2}' })).toBe(false);
  });

  it('rejects the same JSON re-serialized with other spacing', () => {
    expect(verifyWebhook({ ...base, rawBody: JSON.stringify(JSON.parse(VECTOR.body), null, 1) })).toBe(false);
    expect(verifyWebhook({ ...base, rawBody: '{"a": 1}' })).toBe(false);
  });

  it('rejects another path, secret or timestamp', () => {
    expect(verifyWebhook({ ...base, path: `${VECTOR.path}?x=1` })).toBe(false);
    expect(verifyWebhook({ ...base, secret: 'secret_other' })).toBe(false);
    expect(verifyWebhook({ ...base, timestamp: '1700000001' })).toBe(false);
  });

  it('rejects missing or malformed headers', () => {
    expect(verifyWebhook({ ...base, signature: undefined })).toBe(false);
    expect(verifyWebhook({ ...base, timestamp: null })).toBe(false);
    expect(verifyWebhook({ ...base, signature: VECTOR.signature.slice(0, 10) })).toBe(false);
    expect(verifyWebhook({ ...base, signature: `sha256=${VECTOR.signature}` })).toBe(false);
  });
});
