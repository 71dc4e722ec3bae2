// The REST shim's plumbing: routing, methods, body limits,
// JSON parsing, the error body, languages and unknown keys, through a real gateway.
import { describe, expect, it } from 'vitest';
import { signBody } from '../../src/domain/signatures.ts';
import { MAX_BODY_BYTES } from '../../src/rest/handler.ts';
import { routes } from '../../src/rest/routes.ts';
import { setUnknownKeys } from '../../src/domain/workspaces.ts';
import { useGateway } from '../helpers/fixture.ts';
import { msg, type Language, type MessageCode } from '../helpers/messages.ts';

const OK_BODY = { card: { bin: '41111111' }, transaction: { amount: '100.00' } };

const { t, merchant: m, seed } = useGateway({ merchant: true });

/** An operation of the contract not built yet, if any. */
const PENDING = routes.get('save-card')?.document === null ? 'save-card' : [...routes.values()].find((r) => r.document === null)?.operation;

const url = (operation: string) => `${t.gateway.baseUrl}/api/${m.team}/gateway/${operation}`;

/** The error body (docs/decisions.md, "Error body") for an error that concerns no single field. */
const plainError = (code: MessageCode, lang: Language = 'tr') => ({
  result: { successful: false, message: msg(code, {}, lang) },
  errors: {},
});

describe('routing', () => {
  it('answers an unknown operation with 404 and a JSON error body', async () => {
    const res = await m.call('make-coffee', OK_BODY);

    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(plainError('unknown_operation'));
  });

  it('answers an extra path segment after an operation with 404', async () => {
    const res = await m.call('retrieve-bin/extra', OK_BODY);

    expect(res.status).toBe(404);
    expect(res.body).toEqual(plainError('unknown_operation'));
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const res = await fetch(url('retrieve-bin'), { method: 'GET', headers: { 'X-Api-Key': m.apiKey } });

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual(plainError('method_not_allowed'));
  });

  it.runIf(PENDING)('answers a known operation not built yet with 501 JSON', async () => {
    // Signed in the form the operation requires (the payment-link operations need the timestamp form).
    const res = await m.call(PENDING!, { customer: { channel_reference: 'c1' } }, { form: routes.get(PENDING!)!.signing });

    expect(res.status).toBe(501);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(plainError('not_implemented'));
  });

  it.runIf(PENDING)('authenticates before revealing that an operation is not available yet', async () => {
    const res = await m.call(PENDING!, {}, { secret: 'wrong' });

    expect(res.status).toBe(401);
  });
});

describe('request bodies', () => {
  it(`answers a body over 1 MB with 413`, async () => {
    // Given a body one byte over the limit
    const raw = JSON.stringify({ ...OK_BODY, pad: '' });
    const padded = raw.replace('"pad":""', `"pad":"${'x'.repeat(MAX_BODY_BYTES - raw.length + 1)}"`);
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES + 1);

    const res = await m.call('retrieve-bin', null, { raw: padded });

    expect(res.status).toBe(413);
    expect(res.body).toEqual(plainError('body_too_large'));
  });

  it('accepts a body of exactly 1 MB', async () => {
    // Padded with JSON whitespace: a single string that long breaks the per-string limit (limits.ts).
    const raw = JSON.stringify(OK_BODY);
    const padded = raw.replace(/^\{/, `{${' '.repeat(MAX_BODY_BYTES - raw.length)}`);
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES);

    const res = await m.call('retrieve-bin', null, { raw: padded });

    expect(res.status).toBe(200);
  });

  it.each([
    ['text that is not JSON', 'card=411111'],
    ['truncated JSON', '{"card":{"bin":"411111"}'],
    ['an empty body', ''],
    ['a JSON array', JSON.stringify([OK_BODY])],
    ['a JSON string', JSON.stringify('retrieve-bin')],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
  ])('answers %s with 400 and the error body', async (_label, raw) => {
    const res = await m.call('retrieve-bin', null, { raw });

    expect(res.status).toBe(400);
    expect(res.body).toEqual(plainError('body_not_object'));
  });

  it('answers a body nested deeper than any operation needs with 400', async () => {
    const deep = { ...OK_BODY, extra: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as unknown };

    const res = await m.call('retrieve-bin', deep);

    expect(res.status).toBe(400);
    expect(res.body).toEqual(plainError('body_too_deep'));
  });

  it('parses the body only after the signature is checked', async () => {
    const res = await m.call('retrieve-bin', null, { raw: 'not json', secret: 'wrong' });

    expect(res.status).toBe(401);
  });
});

describe('languages', () => {
  const tooShort = { card: { bin: '4111' }, transaction: { amount: '100.00' } };

  it('answers in Turkish by default', async () => {
    const res = await m.call('retrieve-bin', tooShort);

    expect(res.body.result.message).toBe(msg('bin_too_short', {}, 'tr'));
    expect(res.body.errors['card.bin']).toEqual([msg('bin_too_short', {}, 'tr')]);
  });

  it('answers in English with Accept-Language: en', async () => {
    const res = await m.call('retrieve-bin', tooShort, { headers: { 'Accept-Language': 'en' } });

    expect(res.body.result.message).toBe(msg('bin_too_short', {}, 'en'));
    expect(res.body.errors['card.bin']).toEqual([msg('bin_too_short', {}, 'en')]);
  });

  it.each([
    ['en-US,en;q=0.9', 'en'],
    ['EN-gb', 'en'],
    ['tr-TR,en;q=0.5', 'tr'],
    ['de', 'tr'],
  ] as const)('picks %s -> %s', async (header, lang) => {
    const res = await m.call('retrieve-bin', tooShort, { headers: { 'Accept-Language': header } });

    expect(res.body.result.message).toBe(msg('bin_too_short', {}, lang));
  });

  it('answers plumbing errors in English too', async () => {
    const res = await m.call('make-coffee', OK_BODY, { headers: { 'Accept-Language': 'en' } });

    expect(res.body).toEqual(plainError('unknown_operation', 'en'));
  });

  it('answers authentication errors in English too', async () => {
    const res = await m.call('retrieve-bin', OK_BODY, { secret: 'wrong', headers: { 'Accept-Language': 'en' } });

    expect(res.body.result.message).toBe(msg('auth_invalid_signature', { path: `/api/${m.team}/gateway/retrieve-bin`, bytes: Buffer.byteLength(JSON.stringify(OK_BODY)) }, 'en'));
    expect(res.body.result.message).toMatch(/^The signature is invalid\. In the body form/);
  });
});

describe('the validation error body', () => {
  it('is exactly {result:{successful:false,message:<first>},errors:{<path>:[...]}}', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '4111' }, transaction: { amount: '100.00' } });

    expect(res.status).toBe(422);
    expect(res.text).toBe(
      JSON.stringify({ result: { successful: false, message: msg('bin_too_short') }, errors: { 'card.bin': [msg('bin_too_short')] } }),
    );
  });

  it('reports every bad field at once, the first one as the result message', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '4111' }, transaction: { amount: '1,00', currency: 'XYZ' } });

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'card.bin': [msg('bin_too_short')],
      'transaction.amount': [msg('amount_format')],
      'transaction.currency': [msg('currency_invalid')],
    });
    expect(res.body.result).toEqual({ successful: false, message: msg('bin_too_short') });
  });
});

describe('a value outside a fixed list', () => {
  it('is refused naming the values it takes, in Turkish and English', async () => {
    const body = { card: { bin: '41111111' }, transaction: { amount: '100.00', currency: 'JPY' } };
    const tr = await m.call('retrieve-bin', body);
    expect(tr.status).toBe(422);
    expect(tr.body.errors).toEqual({ 'transaction.currency': ['Para birimi TRY, USD, EUR veya GBP olmalıdır.'] });
    const en = await m.call('retrieve-bin', body, { headers: { 'Accept-Language': 'en' } });
    expect(en.body.errors).toEqual({ 'transaction.currency': ['The currency must be TRY, USD, EUR or GBP.'] });

    const product = { channel_token: m.channelToken, channel_reference: 'ENUM-1', name: 'Kupa', type: 'bundle', amount: '25.00', tax_rate: '20' };
    const refused = await m.call('save-product', { product }, { headers: { 'Accept-Language': 'en' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ 'product.type': ['The product type must be simple or recurring.'] });
    const period = await m.call('save-product', { product: { ...product, type: 'recurring', period: 'weekly' } });
    expect(period.body.errors).toEqual({ 'product.period': ['Periyot monthly veya yearly olmalıdır.'] });
  });
});

describe('keys and types', () => {
  it('refuses unknown keys at any level, each on its path with a message naming it', async () => {
    const res = await m.call('retrieve-bin', {
      card: { bin: '41111111', holder_name: 'Ada' },
      transaction: { amount: '100.00', note: { nested: [1, 2] } },
      merchant_extra: true,
    });

    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'card.holder_name': [msg('unknown_key', { key: 'holder_name' })],
      'transaction.note': [msg('unknown_key', { key: 'note' })],
      merchant_extra: [msg('unknown_key', { key: 'merchant_extra' })],
    });
  });

  it('ignores unknown keys at any level for a workspace that chose to', async () => {
    const lenient = await seed();
    await setUnknownKeys(t.gateway.services.db, lenient.team, 'ignore');
    const res = await lenient.call('retrieve-bin', {
      card: { bin: '41111111', holder_name: 'Ada' },
      transaction: { amount: '100.00', note: { nested: [1, 2] } },
      merchant_extra: true,
    }, { unlistedKeys: true });

    expect(res.status).toBe(200);
    expect(res.body.card.bin).toBe('41111111');
  });

  it('answers a number where card.bin must be a string with 422 at card.bin', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: 41111111 }, transaction: { amount: '100.00' } });

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      result: { successful: false, message: msg('invalid_type') },
      errors: { 'card.bin': [msg('invalid_type')] },
    });
  });

  it('answers a string where an object belongs with 422 at that object', async () => {
    const res = await m.call('retrieve-bin', { card: '41111111', transaction: { amount: '100.00' } });

    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['card']);
  });

  it('reports snake_case field paths for camelCase inputs', async () => {
    const res = await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00', payment_provider_token: 12 } });

    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['transaction.payment_provider_token']);
  });

  it('answers with snake_case keys', async () => {
    const res = await m.call('retrieve-bin', OK_BODY);

    expect(Object.keys(res.body.card)).toEqual(['bin', 'issuer_name', 'issuer_code', 'scheme', 'type', 'program', 'is_commercial']);
  });

  it('signs the 400 of a body that is not JSON', async () => {
    const raw = '[1,2,3]';
    const res = await fetch(url('retrieve-bin'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': m.apiKey, 'X-Signature': signBody(m.apiSecret, raw) },
      body: raw,
    });

    expect(res.status).toBe(400);
    expect(res.headers.get('x-signature')).toMatch(/^[0-9a-f]{64}$/);
  });
});
