// The wire layer's pieces together, as the connector will use them: build, sign and send a call,
// read the answer, keep the reference, and use it for the next call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelResult, paymentResult, refundResult, threeDSStartResult } from '../../../src/providers/iyzico/answers.ts';
import { IyzicoClient } from '../../../src/providers/iyzico/client.ts';
import { parsePaymentRef } from '../../../src/providers/iyzico/references.ts';
import { cancelRequest, paymentRequest, refundRequest, threeDSAuthRequest, threeDSInitializeRequest } from '../../../src/providers/iyzico/requests.ts';
import { IYZICO_PATHS, type CancelAnswer, type PaymentAnswer, type RefundAnswer, type ThreeDSInitializeAnswer } from '../../../src/providers/iyzico/wire.ts';
import type { CardData } from '../../../src/providers/types.ts';
import { answer, startFakeIyzico, type FakeIyzico } from './fake-iyzico.ts';
import { iyzipaySignature } from './iyzipay-reference.ts';

const apiKey = 'sandbox-flow-api';
const secretKey = 'sandbox-flow-secret';
const card: CardData = { holderName: 'Ali Veli', number: '5528790000000008', securityCode: '123', expiryMonth: '12', expiryYear: '2030' };
const ctx = { locale: 'tr' as const };
let iyzico: FakeIyzico;

beforeAll(async () => {
  iyzico = await startFakeIyzico(apiKey, secretKey);
  // Answers in iyzico's shapes, derived from the request as iyzico would.
  iyzico.handle((req, res) => {
    const b = req.body as Record<string, string>;
    if (req.path === IYZICO_PATHS.payment || req.path === IYZICO_PATHS.threeDSAuth) {
      const price = req.path === IYZICO_PATHS.payment ? b.price : '250.0';
      const paidPrice = req.path === IYZICO_PATHS.payment ? b.paidPrice : '250.0';
      const basketId = req.path === IYZICO_PATHS.payment ? b.basketId : 'pay-3d';
      const signature = iyzipaySignature(['700001', 'TRY', basketId, b.conversationId, Number(paidPrice), Number(price)], secretKey);
      answer(res, `{"status":"success","paymentId":"700001","currency":"TRY","basketId":"${basketId}","conversationId":"${b.conversationId}",
        "price":${price},"paidPrice":${paidPrice},"fraudStatus":1,"itemTransactions":[{"itemId":"payment","paymentTransactionId":"800001",
        "price":${price},"paidPrice":${paidPrice}}],"signature":"${signature}"}`);
    } else if (req.path === IYZICO_PATHS.threeDSInitialize) {
      const html = Buffer.from('<html>ACS</html>').toString('base64');
      answer(res, JSON.stringify({ status: 'success', paymentId: '700002', conversationId: b.conversationId, threeDSHtmlContent: html, signature: iyzipaySignature(['700002', b.conversationId], secretKey) }));
    } else if (req.path === IYZICO_PATHS.refund) {
      const signature = iyzipaySignature([b.paymentId, Number(b.price), 'TRY', b.conversationId], secretKey);
      answer(res, `{"status":"success","conversationId":"${b.conversationId}","paymentId":"${b.paymentId}","price":${b.price},"currency":"TRY","signature":"${signature}"}`);
    } else if (req.path === IYZICO_PATHS.cancel) {
      answer(res, `{"status":"success","paymentId":"${b.paymentId}","price":250.0,"currency":"TRY"}`);
    } else {
      answer(res, '{"status":"failure","errorCode":"11","errorMessage":"Geçersiz istek"}');
    }
  });
});
afterAll(() => iyzico.close());

describe('iyzico wire layer, end to end against a signature-checking server', () => {
  const client = () => new IyzicoClient({ baseUrl: iyzico.url, apiKey, secretKey, timeoutMs: 2_000 });

  it('charges, then refunds and cancels the payment by its paymentId', async () => {
    const charged = paymentResult(await client().call<PaymentAnswer>('charge', 'POST', IYZICO_PATHS.payment, paymentRequest({ idempotencyKey: 'pay-1', amount: 25_000n, currency: 'TRY', installmentNumber: 1, card }, ctx)), secretKey);
    expect(charged).toEqual({ status: 'succeeded', providerReference: '700001' });
    const payment = parsePaymentRef((charged as { providerReference: string }).providerReference)!;

    const refundAnswer = await client().call<RefundAnswer>('refund', 'POST', IYZICO_PATHS.refund, refundRequest({ idempotencyKey: 'refund:r1', payment, amount: 1_050n, currency: 'TRY' }, ctx));
    const refunded = refundResult(refundAnswer, secretKey, { paymentId: '700001', amount: 1_050n, currency: 'TRY' });
    expect(refunded).toEqual({ status: 'succeeded', providerReference: '700001' });
    const cancelled = cancelResult(await client().call<CancelAnswer>('cancel', 'POST', IYZICO_PATHS.cancel, cancelRequest({ idempotencyKey: 'cancel:c1', payment }, ctx)));
    expect(cancelled).toEqual({ status: 'succeeded', providerReference: '700001' });

    const sent = iyzico.seen.filter((r) => r.body.conversationId === 'refund:r1' || r.body.conversationId === 'cancel:c1');
    expect(sent.map((r) => [r.path, r.signatureValid])).toEqual([['/v2/payment/refund', true], ['/payment/cancel', true]]);
    expect(sent[0]!.body).toMatchObject({ paymentId: '700001', price: '10.5', currency: 'TRY' });
  });

  it('starts a 3D payment and completes it with the paymentId from the start', async () => {
    const started = threeDSStartResult(
      await client().call<ThreeDSInitializeAnswer>('authorise3D', 'POST', IYZICO_PATHS.threeDSInitialize, threeDSInitializeRequest({ idempotencyKey: 'pay-3d', amount: 25_000n, currency: 'TRY', installmentNumber: 1, card }, 'https://gw.example/cb', ctx)),
      secretKey,
    );
    expect(started).toEqual({ status: 'pending', providerReference: '700002', html: '<html>ACS</html>' });
    const { paymentId } = parsePaymentRef((started as { providerReference: string }).providerReference)!;
    const completed = paymentResult(await client().call<PaymentAnswer>('complete3D', 'POST', IYZICO_PATHS.threeDSAuth, threeDSAuthRequest({ idempotencyKey: 'pay-3d', paymentId }, ctx)), secretKey);
    expect(completed).toEqual({ status: 'succeeded', providerReference: '700001' });
    expect(iyzico.seen.filter((r) => r.body.conversationId === 'pay-3d').every((r) => r.signatureValid)).toBe(true);
  });
});
