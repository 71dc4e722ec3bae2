// A refused call says what to do, in the caller's language: a bad signature names both accepted
// forms and the exact string the gateway signed (the timestamp, POST, the path, and the body by its
// length), never the secret nor the body's content (it may hold a card); a payment-link call
// without X-Timestamp is told to use the timestamp form; unknown addresses answer in the caller's
// language too.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';

const { t, merchant: m } = useGateway({ merchant: true });
const path = (operation: string) => `/api/${m.team}/gateway/${operation}`;

describe('refusals that explain themselves', () => {
  it('a body-form signature made over other bytes: the forms, the path and the byte count, no secret, no card', async () => {
    const body = paymentBody(m, { card: { number: CARDS.approved, security_code: '739' } });
    const raw = JSON.stringify(body);
    const res = await m.call('regular-payment', null, { raw, signRaw: JSON.stringify(body, null, 2), headers: { 'Accept-Language': 'en-GB,en;q=0.9' } });
    expect(res.status).toBe(401);
    const text = res.body.result.message as string;
    expect(text).toBe(
      `The signature is invalid. In the body form (no X-Timestamp) the signed string is the raw body exactly as sent (${Buffer.byteLength(raw)} bytes), hex HMAC-SHA256 keyed with the API secret. The timestamp form, with X-Timestamp, signs "<X-Timestamp>\\nPOST\\n${path('regular-payment')}\\n<raw body>".`,
    );
    expect(res.body.errors).toEqual({});
    for (const hidden of [m.apiSecret, CARDS.approved, '739']) expect(res.text).not.toContain(hidden);
  });

  it('a timestamp-form signature: the exact prefix signed, with this timestamp; in Turkish by default', async () => {
    const raw = JSON.stringify({ card: { bin: '41111111' }, transaction: { amount: '100.00' } });
    const ts = String(Math.floor(t.clock.now().getTime() / 1000));
    const res = await m.call('retrieve-bin', null, { raw, form: 'timestamp', timestamp: Number(ts), secret: 'not-the-secret' });
    expect(res.status).toBe(401);
    expect(res.body.result.message).toBe(
      `İmza geçersiz. Zaman damgası biçiminde imzalanan metin "${ts}\\nPOST\\n${path('retrieve-bin')}\\n" ve ardından gönderildiği gibi ham gövdedir (${Buffer.byteLength(raw)} bayt); API gizli anahtarıyla onaltılık HMAC-SHA256. X-Timestamp olmadan gövde biçimi yalnızca ham gövdeyi imzalar.`,
    );
  });

  it('a payment-link call without X-Timestamp is told the form it needs', async () => {
    const res = await m.call('retrieve-payment-links', {}, { headers: { 'Accept-Language': 'en' } });
    expect(res.status).toBe(401);
    expect(res.body.result.message).toBe(`This operation needs the timestamp form: send X-Timestamp (unix seconds) and sign "<X-Timestamp>\\nPOST\\n${path('retrieve-payment-links')}\\n<raw body>".`);
  });

  it('an unknown address and an unknown export answer in the caller\'s language', async () => {
    for (const address of ['/no-such-page', '/dashboard/export/nothing.csv']) {
      const en = await fetch(`${t.gateway.baseUrl}${address}`, { headers: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8' } });
      expect(en.status).toBe(404);
      expect(await en.json()).toEqual({ result: { successful: false, message: 'Not found.' }, errors: {} });
      const tr = await fetch(`${t.gateway.baseUrl}${address}`);
      expect(await tr.json()).toEqual({ result: { successful: false, message: 'Bulunamadı.' }, errors: {} });
    }
  });
});
