import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseThreeDSCallback } from '../../../src/providers/iyzico/callback.ts';
import { parseAnswer } from '../../../src/providers/iyzico/client.ts';
import { checkCallbackSignature, checkPaymentSignature, checkThreeDSInitializeSignature, signaturePrice } from '../../../src/providers/iyzico/signature.ts';
import type { PaymentAnswer, ThreeDSInitializeAnswer } from '../../../src/providers/iyzico/wire.ts';
import { iyzipaySignature } from './iyzipay-reference.ts';

const secretKey = 'sandbox-signature-secret';
const minor = fc.bigInt({ min: 1n, max: 9_999_999_999_999n });
/** An amount as iyzico may write it in JSON: 12.3, 12.30, 12.300, 12 ... */
const written = (m: bigint, zeros: number) => `${m / 100n}.${(m % 100n).toString().padStart(2, '0')}${'0'.repeat(zeros)}`;

/** An iyzico payment answer's text, signed the way iyzipay's samples check it (parsed numbers joined). */
function signedPaymentAnswer(price: string, paidPrice: string, key = secretKey): string {
  const fields = `"paymentId":"25149157","currency":"TRY","basketId":"pay-1","conversationId":"pay-1","paidPrice":${paidPrice},"price":${price}`;
  const parsed = JSON.parse(`{${fields}}`) as Record<string, unknown>;
  const signature = iyzipaySignature([parsed.paymentId, parsed.currency, parsed.basketId, parsed.conversationId, parsed.paidPrice, parsed.price], key);
  return `{"status":"success",${fields},"signature":"${signature}"}`;
}

describe('iyzico answer signatures', () => {
  it('accepts what iyzipay would accept, for any amount however it is written', () => {
    fc.assert(
      fc.property(minor, minor, fc.nat({ max: 6 }), fc.nat({ max: 6 }), (price, paid, z1, z2) => {
        const answer = parseAnswer(signedPaymentAnswer(written(price, z1), written(paid, z2))) as PaymentAnswer;
        expect(checkPaymentSignature(secretKey, answer)).toBe('valid');
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an altered amount or id, a wrong key, and says when there is none', () => {
    const answer = parseAnswer(signedPaymentAnswer('1.0', '1.20')) as PaymentAnswer;
    expect(checkPaymentSignature(secretKey, answer)).toBe('valid');
    expect(checkPaymentSignature(secretKey, { ...answer, paidPrice: '1.21' })).toBe('invalid');
    expect(checkPaymentSignature(secretKey, { ...answer, paymentId: '25149158' })).toBe('invalid');
    expect(checkPaymentSignature(secretKey, { ...answer, price: 'x' })).toBe('invalid');
    expect(checkPaymentSignature('another-secret', answer)).toBe('invalid');
    expect(checkPaymentSignature(secretKey, { ...answer, signature: undefined })).toBe('absent');
    expect(checkPaymentSignature(secretKey, parseAnswer(signedPaymentAnswer('1.0', '1.20', 'other')) as PaymentAnswer)).toBe('invalid');
  });

  it('writes signed prices without trailing zeros', () => {
    expect(['1.0', '1.20', '10', 10, '0.05', '100.50'].map((p) => signaturePrice(p))).toEqual(['1', '1.2', '10', '10', '0.05', '100.5']);
    expect(signaturePrice('1.005')).toBeNull();
  });

  it('checks a 3D start by paymentId and conversationId', () => {
    const answer: ThreeDSInitializeAnswer = { status: 'success', paymentId: '1', conversationId: 'pay-1', signature: iyzipaySignature(['1', 'pay-1'], secretKey) };
    expect(checkThreeDSInitializeSignature(secretKey, answer)).toBe('valid');
    expect(checkThreeDSInitializeSignature(secretKey, { ...answer, paymentId: '2' })).toBe('invalid');
  });
});

describe('iyzico 3D callback', () => {
  const sign = (f: Record<string, string>) => iyzipaySignature([f.conversationData ?? '', f.conversationId, f.mdStatus, f.paymentId, f.status], secretKey);

  it('is authenticated only with status success and mdStatus 1, and its signature checks', () => {
    const fields = { status: 'success', paymentId: '25149157', conversationId: 'pay-1', conversationData: 'cd', mdStatus: '1' };
    const callback = parseThreeDSCallback(new URLSearchParams({ ...fields, signature: sign(fields) }).toString())!;
    expect(callback).toMatchObject({ ...fields, authenticated: true });
    expect(checkCallbackSignature(secretKey, callback)).toBe('valid');
    expect(checkCallbackSignature(secretKey, { ...callback, mdStatus: '0' })).toBe('invalid');
    for (const mdStatus of ['0', '2', '3', '4', '5', '6', '7', '8']) {
      expect(parseThreeDSCallback({ ...fields, mdStatus })!.authenticated).toBe(false);
    }
    expect(parseThreeDSCallback({ ...fields, status: 'failure' })!.authenticated).toBe(false);
    expect(parseThreeDSCallback({ status: 'success', paymentId: '1' })!.authenticated).toBe(false);
  });

  it('is refused when it is not an iyzico callback', () => {
    expect(parseThreeDSCallback('')).toBeNull();
    expect(parseThreeDSCallback({ status: 'success', paymentId: 'abc', mdStatus: '1' })).toBeNull();
    expect(parseThreeDSCallback({ status: 'success', paymentId: '1', mdStatus: 'one' })).toBeNull();
  });
});
