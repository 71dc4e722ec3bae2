// Authentication of REST calls (contract: Authentication), through a real gateway.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signBody, signTimestamped } from '../../src/domain/signatures.ts';
import { rotateCredentials, updateWorkspace } from '../../src/domain/workspaces.ts';
import type { CallResult } from '../helpers/client.ts';
import type { Merchant } from '../helpers/gateway.ts';
import { useGateway } from '../helpers/fixture.ts';
import { expectPlainError } from '../helpers/messages.ts';

const OK_BODY = { card: { bin: '41111111' }, transaction: { amount: '100.00' } };
const BAD_BIN_BODY = { card: { bin: '4111' }, transaction: { amount: '100.00' } };

const {
  t,
  merchant: m,
  merchants: { other },
  seed,
} = useGateway({ merchant: true, merchants: { other: {} } });

/** Unix seconds of the gateway's clock, which is what timestamps are compared with. */
const gatewayNow = () => Math.floor(t.clock.now().getTime() / 1000);
const pathOf = (merchant: Merchant, operation = 'retrieve-bin') => `/api/${merchant.team}/gateway/${operation}`;
/** What a signature refusal names: the path signed and the body's length (never its content). */
const signed = (merchant: Merchant = m, raw = JSON.stringify(OK_BODY)) => ({ path: pathOf(merchant), bytes: Buffer.byteLength(raw) });

/** A POST with exactly these headers and bytes, for cases the signing helper cannot express. */
async function post(path: string, headers: Record<string, string>, body: string | Buffer): Promise<CallResult> {
  const res = await fetch(t.gateway.baseUrl + path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : new Uint8Array(body) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed as Record<string, unknown>, headers: res.headers, text };
}

describe('the published signature vector', () => {
  it('is reproduced by the timestamp form', () => {
    expect(signTimestamped('secret_test', '1700000000', 'POST', '/api/1000000001/gateway/regular-payment', '{"a":1}')).toBe(
      '4d6225c9dd46837418b40dd8140d76a24cd7520d81ff3b280bf98da8da6a8771',
    );
  });
});

describe('accepted signatures', () => {
  it('accepts the body form: HMAC-SHA256 of the raw body', async () => {
    const res = await m.call('retrieve-bin', OK_BODY);

    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
  });

  it('accepts the timestamp form signed over "<ts>\\nPOST\\n<path>\\n<raw body>"', async () => {
    // Given a signature computed by hand, independent of the gateway's own signing module
    const raw = JSON.stringify(OK_BODY);
    const ts = String(gatewayNow());
    const signature = createHmac('sha256', m.apiSecret).update(`${ts}\nPOST\n${pathOf(m)}\n${raw}`).digest('hex');

    // When it is sent with X-Timestamp
    const res = await post(pathOf(m), { 'X-Api-Key': m.apiKey, 'X-Timestamp': ts, 'X-Signature': signature }, raw);

    // Then the call goes through
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({ successful: true, message: null });
  });

  it('accepts a timestamp just inside the 5-minute window on either side', async () => {
    const past = await m.call('retrieve-bin', OK_BODY, { form: 'timestamp', timestamp: gatewayNow() - 299 });
    const future = await m.call('retrieve-bin', OK_BODY, { form: 'timestamp', timestamp: gatewayNow() + 299 });

    expect(past.status).toBe(200);
    expect(future.status).toBe(200);
  });
});

describe('rejected signatures', () => {
  it('rejects a body signed with the wrong secret with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { secret: 'not-the-secret' });

    expectPlainError(res, 401, 'auth_invalid_signature', 'tr', signed());
  });

  it('rejects a body with one byte changed after signing with 401', async () => {
    // Given the signature covers amount 100.00 but 100.01 is sent
    const signed = JSON.stringify(OK_BODY);
    const sent = signed.replace('100.00', '100.01');
    expect(Buffer.byteLength(sent)).toBe(Buffer.byteLength(signed));

    const res = await m.call('retrieve-bin', null, { raw: sent, signRaw: signed });

    expectPlainError(res, 401, 'auth_invalid_signature', 'tr', { path: pathOf(m), bytes: Buffer.byteLength(sent) });
  });

  it('rejects the same JSON re-serialized with other spacing with 401 (the signature covers bytes, not values)', async () => {
    const compact = JSON.stringify(OK_BODY);
    const spaced = JSON.stringify(OK_BODY, null, 2);

    const res = await m.call('retrieve-bin', null, { raw: spaced, signRaw: compact });

    expectPlainError(res, 401, 'auth_invalid_signature', 'tr', signed(m, spaced));
  });

  it('rejects a timestamp-form signature whose path is not the request path with 401', async () => {
    const raw = JSON.stringify(OK_BODY);
    const ts = String(gatewayNow());
    const signature = signTimestamped(m.apiSecret, ts, 'POST', pathOf(m, 'regular-payment'), raw);

    const res = await post(pathOf(m), { 'X-Api-Key': m.apiKey, 'X-Timestamp': ts, 'X-Signature': signature }, raw);

    // The refusal names the string the gateway signed: this timestamp, POST and the request's path.
    expectPlainError(res, 401, 'auth_invalid_signature_timestamp', 'tr', { ...signed(m, raw), timestamp: ts });
  });

  it('rejects a body-form signature when X-Timestamp is also sent (the timestamp form then applies)', async () => {
    const raw = JSON.stringify(OK_BODY);

    const ts = String(gatewayNow());
    const res = await post(pathOf(m), { 'X-Api-Key': m.apiKey, 'X-Timestamp': ts, 'X-Signature': signBody(m.apiSecret, raw) }, raw);

    expectPlainError(res, 401, 'auth_invalid_signature_timestamp', 'tr', { ...signed(m, raw), timestamp: ts });
  });

  it('rejects a correctly signed timestamp 6 minutes old with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { form: 'timestamp', timestamp: gatewayNow() - 360 });

    expectPlainError(res, 401, 'auth_stale_timestamp', 'tr', signed());
  });

  it('rejects a correctly signed timestamp 6 minutes in the future with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { form: 'timestamp', timestamp: gatewayNow() + 360 });

    expectPlainError(res, 401, 'auth_stale_timestamp', 'tr', signed());
  });

  it('judges timestamps by the gateway clock: a fresh signature goes stale when the clock moves 6 minutes', async () => {
    // Given a request signed now
    const ts = gatewayNow();
    expect((await m.call('retrieve-bin', OK_BODY, { form: 'timestamp', timestamp: ts })).status).toBe(200);

    // When the gateway's clock moves on 6 minutes and the same request is replayed
    t.clock.advance(6 * 60 * 1000);
    const replay = await m.call('retrieve-bin', OK_BODY, { form: 'timestamp', timestamp: ts });

    // Then it is refused
    expectPlainError(replay, 401, 'auth_stale_timestamp', 'tr', signed());
  });

  it.each([
    ['not digits', 'yesterday'],
    ['a fraction', `${Math.floor(Date.now() / 1000)}.5`],
    ['empty', ' '],
    ['absurdly large', '9'.repeat(40)],
  ])('rejects an X-Timestamp that is %s with 401', async (_label, ts) => {
    const raw = JSON.stringify(OK_BODY);
    const res = await post(pathOf(m), { 'X-Api-Key': m.apiKey, 'X-Timestamp': ts, 'X-Signature': signTimestamped(m.apiSecret, ts, 'POST', pathOf(m), raw) }, raw);

    expectPlainError(res, 401, 'auth_stale_timestamp', 'tr', signed());
  });
});

describe('rejected keys', () => {
  it('rejects a call without X-Api-Key with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { headers: { 'X-Api-Key': '' } });

    expectPlainError(res, 401, 'auth_missing_key');
  });

  it('rejects a call without X-Signature with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { headers: { 'X-Signature': '' } });

    expectPlainError(res, 401, 'auth_missing_signature', 'tr', signed());
  });

  it('rejects a signature that is not hex with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { headers: { 'X-Signature': 'zz'.repeat(32) } });

    expectPlainError(res, 401, 'auth_invalid_signature', 'tr', signed());
  });

  it('rejects an unknown key with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { apiKey: 'key_does_not_exist' });

    expectPlainError(res, 401, 'auth_invalid_key');
  });

  it("rejects another workspace's valid key and signature on this workspace's path with 401", async () => {
    // Given the other merchant signs correctly with its own secret
    const res = await m.call('retrieve-bin', OK_BODY, { apiKey: other.apiKey, secret: other.apiSecret, team: m.team });

    // Then the key is as unknown on this {team} as a made-up one
    expectPlainError(res, 401, 'auth_invalid_key');
    // And the same key still works on its own path
    expect((await other.call('retrieve-bin', OK_BODY)).status).toBe(200);
  });

  it('rejects a call to a workspace that does not exist with 401', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { team: 'no-such-team' });

    expectPlainError(res, 401, 'auth_invalid_key');
  });

  it('rejects a malformed percent-encoded {team} with 401, not 500', async () => {
    const raw = JSON.stringify(OK_BODY);

    const res = await post('/api/%E0%A4%A/gateway/retrieve-bin', { 'X-Api-Key': m.apiKey, 'X-Signature': signBody(m.apiSecret, raw) }, raw);

    expectPlainError(res, 401, 'auth_invalid_key');
  });
});

describe('workspace state and key rotation', () => {
  it('answers 403 for a suspended workspace, and 200 again once it is reactivated', async () => {
    // Given a workspace that cannot operate
    const suspended = await seed();
    await updateWorkspace(t.gateway.services.db, suspended.team, { active: false });
    await t.gateway.admission.synced();

    // When it sends a correctly signed call
    const res = await suspended.call('retrieve-bin', OK_BODY);

    // Then it is refused with 403
    expectPlainError(res, 403, 'workspace_inactive');

    await updateWorkspace(t.gateway.services.db, suspended.team, { active: true });
    await t.gateway.admission.synced();
    expect((await suspended.call('retrieve-bin', OK_BODY)).status).toBe(200);
  });

  it('checks the signature before telling anyone the workspace is suspended', async () => {
    const suspended = await seed();
    await updateWorkspace(t.gateway.services.db, suspended.team, { active: false });
    await t.gateway.admission.synced();

    const res = await suspended.call('retrieve-bin', OK_BODY, { secret: 'guessed' });

    expectPlainError(res, 401, 'auth_invalid_signature', 'tr', signed(suspended));
  });

  it('rejects the old key at once after rotation, and accepts the new one', async () => {
    // Given a merchant whose key works
    const rotating = await seed();
    expect((await rotating.call('retrieve-bin', OK_BODY)).status).toBe(200);

    // When the credentials are rotated
    const fresh = await rotateCredentials(t.gateway.services.db, t.gateway.masterKey, rotating.team);
    await t.gateway.admission.synced();

    // Then the old key is refused
    expectPlainError(await rotating.call('retrieve-bin', OK_BODY), 401, 'auth_invalid_key');
    // And the new key and secret work
    const res = await rotating.call('retrieve-bin', OK_BODY, { apiKey: fresh.apiKey, secret: fresh.apiSecret });
    expect(res.status).toBe(200);
    // And the old secret does not go with the new key
    expectPlainError(await rotating.call('retrieve-bin', OK_BODY, { apiKey: fresh.apiKey }), 401, 'auth_invalid_signature', 'tr', signed(rotating));
  });
});

describe('signed responses', () => {
  function expectSignedResponse(res: CallResult, merchant: Merchant, path: string) {
    const ts = res.headers.get('x-timestamp');
    const signature = res.headers.get('x-signature');
    expect(ts).toMatch(/^\d+$/);
    expect(Number(ts)).toBe(gatewayNow());
    expect(signature).toBe(signTimestamped(merchant.apiSecret, ts!, 'POST', path, res.text));
  }

  it('signs a 200 over the exact response body text and the request path', async () => {
    const res = await m.call('retrieve-bin', OK_BODY);

    expect(res.status).toBe(200);
    expectSignedResponse(res, m, pathOf(m));
  });

  it('signs a 422 the same way', async () => {
    const res = await m.call('retrieve-bin', BAD_BIN_BODY);

    expect(res.status).toBe(422);
    expectSignedResponse(res, m, pathOf(m));
  });

  it('signs a 401 for a known key whose signature is wrong, with the key owner\'s secret', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { secret: 'wrong' });

    expect(res.status).toBe(401);
    expectSignedResponse(res, m, pathOf(m));
  });

  it('does not sign answers to an unknown key (there is no secret to sign with)', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { apiKey: 'key_does_not_exist' });

    expect(res.status).toBe(401);
    expect(res.headers.get('x-signature')).toBeNull();
  });
});

describe('bad input never answers 500', () => {
  const signedRaw = (raw: string | Buffer, headers: Record<string, string> = {}) =>
    post(pathOf(m), { 'X-Api-Key': m.apiKey, 'X-Signature': signBody(m.apiSecret, raw), ...headers }, raw);

  it.each<[string, string | Buffer]>([
    ['an empty body', ''],
    ['invalid UTF-8 bytes', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['a lone surrogate escape', '{"card":{"bin":"\\ud800"},"transaction":{"amount":"1"}}'],
    ['JSON null', 'null'],
    ['a deeply nested object', '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000)],
    ['a megabyte of nested arrays', '{"a":' + '['.repeat(500_000) + ']'.repeat(500_000) + '}'],
    ['a deeply nested array under a known key', '{"card":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}'],
    ['a zero amount', JSON.stringify({ card: { bin: '411111' }, transaction: { amount: '0' } })],
    ['a zero amount with decimals', JSON.stringify({ card: { bin: '411111' }, transaction: { amount: '0.00' } })],
    ['a huge amount', JSON.stringify({ card: { bin: '411111' }, transaction: { amount: '9'.repeat(400) } })],
    ['a huge JSON number amount', '{"card":{"bin":"411111"},"transaction":{"amount":1e400}}'],
    ['objects where strings belong', JSON.stringify({ card: { bin: { a: 1 } }, transaction: { amount: [1], currency: {}, payment_provider_token: 7 } })],
    ['a __proto__ key', '{"__proto__":{"card":{"bin":"411111"}},"card":{"bin":"411111"},"transaction":{"amount":"1"}}'],
  ])('answers %s with a 4xx or 200', async (_label, raw) => {
    const res = await signedRaw(raw);

    expect(res.status).toBeLessThan(500);
    expect(res.body).toHaveProperty('result.successful');
  });

  it('answers a very long or Latin-1 API key with 401', async () => {
    const raw = JSON.stringify(OK_BODY);

    const long = await post(pathOf(m), { 'X-Api-Key': 'k'.repeat(8000), 'X-Signature': signBody(m.apiSecret, raw) }, raw);
    const latin1 = await post(pathOf(m), { 'X-Api-Key': 'cl\u00e9', 'X-Signature': signBody(m.apiSecret, raw) }, raw);

    expectPlainError(long, 401, 'auth_invalid_key');
    expectPlainError(latin1, 401, 'auth_invalid_key');
  });
});
