import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromIyzicoPrice } from '../../../src/providers/iyzico/amount.ts';
import { formatCardRef, formatPaymentRef, parseCardRef, parsePaymentRef } from '../../../src/providers/iyzico/references.ts';
import {
  binCheckRequest,
  cancelRequest,
  deleteCardRequest,
  installmentRequest,
  paymentDetailRequest,
  paymentRequest,
  PLACEHOLDER,
  refundRequest,
  storeCardRequest,
  threeDSAuthRequest,
  threeDSInitializeRequest,
  type PaymentBuildInput,
} from '../../../src/providers/iyzico/requests.ts';
import type { PaymentRequest } from '../../../src/providers/iyzico/wire.ts';
import type { CardData } from '../../../src/providers/types.ts';
import { iyzipayBody } from './iyzipay-reference.ts';

const card: CardData = { holderName: 'Ayşe Nur Yılmaz', number: '5528790000000008', securityCode: '123', expiryMonth: '12', expiryYear: '2030' };
const ctx = { locale: 'tr' as const };
const charge: PaymentBuildInput = { idempotencyKey: 'pay-0001', amount: 12_345n, currency: 'TRY', installmentNumber: 1, card };

/** Same field names and nesting as the body iyzipay builds from it (iyzipay drops fields it does not know). */
function expectIyzipayShape(model: string, ours: object): void {
  expect(JSON.parse(JSON.stringify(ours))).toEqual(iyzipayBody(model, ours));
}

// iyzico's required fields for payment/auth and payment/3dsecure/initialize (API reference).
const REQUIRED_PAYMENT = ['price', 'paidPrice', 'currency', 'installment', 'paymentCard', 'buyer', 'billingAddress', 'basketItems'];
const REQUIRED_BUYER = ['id', 'name', 'surname', 'identityNumber', 'email', 'registrationAddress', 'city', 'country', 'ip'];
const REQUIRED_ADDRESS = ['contactName', 'city', 'country', 'address'];
const REQUIRED_ITEM = ['id', 'name', 'category1', 'itemType', 'price'];
const REQUIRED_RAW_CARD = ['cardHolderName', 'cardNumber', 'expireYear', 'expireMonth'];

function expectRequiredFields(body: PaymentRequest): void {
  const filled = (obj: object, keys: string[]) => {
    for (const key of keys) expect(String((obj as Record<string, unknown>)[key] ?? '').trim(), key).not.toBe('');
  };
  filled(body, REQUIRED_PAYMENT);
  filled(body.buyer, REQUIRED_BUYER);
  filled(body.billingAddress, REQUIRED_ADDRESS);
  expect(body.basketItems.length).toBeGreaterThan(0);
  for (const item of body.basketItems) filled(item, REQUIRED_ITEM);
  if ('cardNumber' in body.paymentCard) filled(body.paymentCard, REQUIRED_RAW_CARD);
  else filled(body.paymentCard, ['cardUserKey', 'cardToken']);
  // No PHYSICAL item, so iyzico needs no shipping address.
  expect(body.basketItems.every((i) => i.itemType === 'VIRTUAL')).toBe(true);
  expect(/^\d{11}$/.test(body.buyer.identityNumber)).toBe(true);
  expect(body.buyer.email).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
  // The basket adds up to the price, as iyzico checks.
  expect(body.basketItems.reduce((sum, i) => sum + fromIyzicoPrice(i.price)!, 0n)).toBe(fromIyzicoPrice(body.price));
}

describe('iyzico request builders', () => {
  it('builds a non-3D payment iyzico accepts, with placeholders for what the gateway does not know', () => {
    const body = paymentRequest(charge, ctx);
    expectRequiredFields(body);
    expectIyzipayShape('CreatePaymentRequest', body);
    expect(body).toMatchObject({
      conversationId: 'pay-0001',
      basketId: 'pay-0001',
      price: '123.45',
      paidPrice: '123.45',
      currency: 'TRY',
      installment: 1,
      paymentCard: { cardHolderName: 'Ayşe Nur Yılmaz', cardNumber: '5528790000000008', expireMonth: '12', expireYear: '2030', cvc: '123' },
      buyer: { name: 'Ayşe Nur', surname: 'Yılmaz', identityNumber: PLACEHOLDER.identityNumber, email: PLACEHOLDER.email, ip: PLACEHOLDER.ip },
      billingAddress: { contactName: 'Ayşe Nur Yılmaz', city: 'Istanbul', country: 'Turkey' },
    });
    expect(body.basketItems).toEqual([{ id: 'payment', name: 'Payment', category1: 'General', itemType: 'VIRTUAL', price: '123.45' }]);
    expect(body).not.toHaveProperty('shippingAddress');
  });

  it('uses what the gateway knows about the shopper', () => {
    const body = paymentRequest(charge, { locale: 'en', shopper: { email: 'a@b.com.tr', ip: '85.34.78.112', id: 'cus_1', phone: '+905350000000', zipCode: '34732' } });
    expectIyzipayShape('CreatePaymentRequest', body);
    expect(body.locale).toBe('en');
    expect(body.buyer).toMatchObject({ id: 'cus_1', email: 'a@b.com.tr', ip: '85.34.78.112', gsmNumber: '+905350000000', zipCode: '34732' });
  });

  it('fills the buyer from the payment\u2019s shopper, blank fields left to the placeholders', () => {
    const body = paymentRequest({ ...charge, shopper: { id: 'cus_9', name: 'Ali', surname: 'Veli', email: 'ali@example.com.tr', phone: '+905350000001', ip: '' } }, ctx);
    expect(body.buyer).toMatchObject({ id: 'cus_9', name: 'Ali', surname: 'Veli', email: 'ali@example.com.tr', gsmNumber: '+905350000001', ip: PLACEHOLDER.ip });
    expect(body.billingAddress.contactName).toBe('Ali Veli');
  });

  it('sends the basket as VIRTUAL items, or one placeholder item when the basket cannot be sent as it is', () => {
    const basket = [
      { id: 'sku-1', name: 'Book', price: 10_000n },
      { id: 'sku-2', name: 'E-book', price: 2_345n },
    ];
    const body = paymentRequest({ ...charge, basket }, ctx);
    expectIyzipayShape('CreatePaymentRequest', body);
    expect(body.basketItems).toEqual([
      { id: 'sku-1', name: 'Book', category1: 'General', itemType: 'VIRTUAL', price: '100.0' },
      { id: 'sku-2', name: 'E-book', category1: 'General', itemType: 'VIRTUAL', price: '23.45' },
    ]);
    const placeholder = [{ id: 'payment', name: 'Payment', category1: 'General', itemType: 'VIRTUAL', price: '123.45' }];
    expect(paymentRequest({ ...charge, basket: [{ id: 'sku-1', name: 'Book', price: 10_000n }] }, ctx).basketItems).toEqual(placeholder);
    expect(paymentRequest({ ...charge, basket: [...basket, { id: 'free', name: 'Gift', price: 0n }] }, ctx).basketItems).toEqual(placeholder);
    expect(paymentRequest({ ...charge, basket: [] }, ctx).basketItems).toEqual(placeholder);
  });

  it('pays with a saved card by its two iyzico keys and no card data', () => {
    const body = paymentRequest({ idempotencyKey: 'pay-2', amount: 100n, currency: 'USD', installmentNumber: 1, savedCard: { cardReference: formatCardRef({ cardUserKey: 'Y6VL+x=', cardToken: 'd9EM/U=' }) } }, ctx);
    expectRequiredFields(body);
    expectIyzipayShape('CreatePaymentRequest', body);
    expect(body.paymentCard).toEqual({ cardUserKey: 'Y6VL+x=', cardToken: 'd9EM/U=' });
    expect(body.buyer).toMatchObject({ name: 'Guest', surname: 'Shopper' });
    expect(() => paymentRequest({ idempotencyKey: 'x', amount: 1n, currency: 'TRY', installmentNumber: 1, savedCard: { cardReference: 'not-ours' } }, ctx)).toThrow(RangeError);
  });

  it('builds valid payments for any amount, instalment and currency', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 9_999_999_999_999n }),
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('TRY', 'USD', 'EUR', 'GBP' as const),
        (amount, surcharge, installmentNumber, currency) => {
          const body = paymentRequest({ ...charge, amount, paidAmount: amount + surcharge, installmentNumber, currency }, ctx);
          expectRequiredFields(body);
          expectIyzipayShape('CreatePaymentRequest', body);
          expect(fromIyzicoPrice(body.price)).toBe(amount);
          expect(fromIyzicoPrice(body.paidPrice)).toBe(amount + surcharge);
          expect(body.installment).toBe(installmentNumber);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts a 3D payment with the callback URL and completes it with the paymentId', () => {
    const init = threeDSInitializeRequest(charge, 'https://gateway.example/3ds/callback', ctx);
    expectRequiredFields(init);
    expectIyzipayShape('CreatePaymentRequest', init);
    expect(init.callbackUrl).toBe('https://gateway.example/3ds/callback');
    const auth = threeDSAuthRequest({ idempotencyKey: 'pay-0001', paymentId: '25149157', conversationData: 'cd' }, ctx);
    expectIyzipayShape('CreateThreedsPaymentRequest', auth);
    expect(auth).toEqual({ locale: 'tr', conversationId: 'pay-0001', paymentId: '25149157', conversationData: 'cd' });
    expect(threeDSAuthRequest({ idempotencyKey: 'k', paymentId: '1' }, ctx)).not.toHaveProperty('conversationData');
  });

  it('asks for a payment by paymentId, or by the idempotency key when no answer ever came', () => {
    const byId = paymentDetailRequest({ idempotencyKey: 'pay-1', paymentId: '25149157' }, ctx);
    const byKey = paymentDetailRequest({ idempotencyKey: 'pay-1', paymentId: null }, ctx);
    expectIyzipayShape('RetrievePaymentRequest', byId);
    expectIyzipayShape('RetrievePaymentRequest', byKey);
    expect(byId).toEqual({ locale: 'tr', conversationId: 'pay-1', paymentId: '25149157' });
    expect(byKey).toEqual({ locale: 'tr', conversationId: 'pay-1', paymentConversationId: 'pay-1' });
  });

  it('refunds the paid transaction and cancels the payment', () => {
    const payment = parsePaymentRef('25149157:67890')!;
    const refund = refundRequest({ idempotencyKey: 'refund:r1', payment, amount: 50n, currency: 'TRY' }, ctx);
    expectIyzipayShape('CreateRefundRequest', refund);
    expect(refund).toEqual({ locale: 'tr', conversationId: 'refund:r1', paymentTransactionId: '67890', price: '0.5', currency: 'TRY', ip: PLACEHOLDER.ip });
    expect(() => refundRequest({ idempotencyKey: 'r', payment: parsePaymentRef('25149157')!, amount: 1n, currency: 'TRY' }, ctx)).toThrow(RangeError);
    const cancel = cancelRequest({ idempotencyKey: 'cancel:c1', payment }, ctx);
    expectIyzipayShape('CreateCancelRequest', cancel);
    expect(cancel).toEqual({ locale: 'tr', conversationId: 'cancel:c1', paymentId: '25149157', ip: PLACEHOLDER.ip });
  });

  it('looks up a BIN and instalments', () => {
    const bin = binCheckRequest('55287900', { ...ctx, conversationId: 'bin-1' });
    expectIyzipayShape('RetrieveBinNumberRequest', bin);
    const inst = installmentRequest({ bin: '552879', amount: 10_000n, currency: 'TRY' }, { ...ctx, conversationId: 'inst-1' });
    expectIyzipayShape('RetrieveInstallmentInfoRequest', inst);
    expect(inst).toEqual({ locale: 'tr', conversationId: 'inst-1', binNumber: '552879', price: '100.0', currency: 'TRY' });
  });

  it('stores a card for a new or an existing card user, and deletes it by reference', () => {
    const fresh = storeCardRequest({ idempotencyKey: 'store-1', card }, ctx);
    expectIyzipayShape('CreateCardRequest', fresh);
    expect(fresh).toMatchObject({ email: PLACEHOLDER.email, externalId: 'store-1', card: { cardAlias: 'card 0008', cardNumber: card.number, cardHolderName: card.holderName } });
    expect(fresh).not.toHaveProperty('cardUserKey');
    expect(fresh.card).not.toHaveProperty('cvc'); // card storage never takes the CVC
    const more = storeCardRequest({ idempotencyKey: 'store-2', card }, { ...ctx, cardUserKey: 'Y6VL' });
    expectIyzipayShape('CreateCardRequest', more);
    expect(more).toMatchObject({ cardUserKey: 'Y6VL' });
    expect(more).not.toHaveProperty('email');
    const del = deleteCardRequest(formatCardRef({ cardUserKey: 'Y6VL', cardToken: 'd9EM' }), { ...ctx, conversationId: 'del-1' });
    expectIyzipayShape('DeleteCardRequest', del);
    expect(del).toEqual({ locale: 'tr', conversationId: 'del-1', cardUserKey: 'Y6VL', cardToken: 'd9EM' });
    expect(() => deleteCardRequest('a:b:c', { ...ctx, conversationId: 'x' })).toThrow(RangeError);
  });
});

describe('iyzico references', () => {
  const part = fc.stringMatching(/^[A-Za-z0-9+/=]{1,40}$/);
  it('round-trip payment and card references', () => {
    fc.assert(fc.property(part, fc.option(part), (paymentId, paymentTransactionId) => {
      expect(parsePaymentRef(formatPaymentRef({ paymentId, paymentTransactionId }))).toEqual({ paymentId, paymentTransactionId });
    }));
    fc.assert(fc.property(part, part, (cardUserKey, cardToken) => {
      expect(parseCardRef(formatCardRef({ cardUserKey, cardToken }))).toEqual({ cardUserKey, cardToken });
    }));
  });

  it('refuse what they did not write', () => {
    for (const bad of ['', ':', 'a:', ':b', 'a:b:c', 'a b']) expect(parsePaymentRef(bad)).toBeNull();
    for (const bad of ['', 'a', 'a:', 'a:b:c']) expect(parseCardRef(bad)).toBeNull();
    expect(() => formatPaymentRef({ paymentId: 'a:b', paymentTransactionId: null })).toThrow(RangeError);
    expect(() => formatCardRef({ cardUserKey: '', cardToken: 'x' })).toThrow(RangeError);
  });
});
