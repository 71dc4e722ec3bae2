// The connector's requests and serialiser against mewebstudio/pos's vectors:
// tests/Unit/DataMapper/RequestDataMapper/InterPosRequestDataMapperTest.php (its test account:
// ShopCode 3123, UserCode InterTestApi, UserPass 3) and tests/Unit/Serializer/InterPosSerializerTest.php.
// A PHP null field is one http_build_query leaves out: here it is absent.
import { describe, expect, it } from 'vitest';
import { fromInterPosAmount, toInterPosAmount } from '../../src/providers/interpos/amount.ts';
import { formHash } from '../../src/providers/interpos/hash.ts';
import { refundRequest, saleRequest, statusRequest, threeDFormFields, threeDSaleRequest, voidRequest } from '../../src/providers/interpos/requests.ts';
import { encodeRequest } from '../../src/providers/interpos/wire.ts';

const credentials = { shop_code: '3123', user_code: 'InterTestApi', user_password: '3', store_key: 'gDg1N' };
const tr = { credentials, lang: 'tr' };
const account = { UserCode: 'InterTestApi', UserPass: '3', ShopCode: '3123' };
// CreditCardFactory::create('5555444433332222', '21', '12', '122', 'ahmet', VISA)
const card = { holderName: 'ahmet', number: '5555444433332222', expiryMonth: '12', expiryYear: '21', securityCode: '122' };

describe('InterPOS requests against mewebstudio/pos vectors', () => {
  it('builds the 3D form as create3DFormData (without card, with card, 3D Host)', () => {
    const input = { orderId: 'order222', amount: 10025n, currency: 'TRY' as const, installmentNumber: 1, callbackUrl: 'https://domain.com/success', rnd: 'rand-12' };
    const base = { ShopCode: '3123', TxnType: 'Auth', SecureType: '3DModel', PurchAmount: '100.25', OrderId: 'order222', OkUrl: 'https://domain.com/success', Rnd: 'rand-12', Lang: 'tr', Currency: '949', InstallmentCount: '' };
    // The vectors' FailUrl is another page; the gateway sends its one callback address as both.
    const withoutCard = threeDFormFields({ ...input, model: '3d' }, tr);
    expect(withoutCard).toEqual({ ...base, FailUrl: input.callbackUrl, Hash: formHash({ ...base, FailUrl: input.callbackUrl }, 'gDg1N') });
    const withCard = threeDFormFields({ ...input, model: '3d', card }, tr);
    // mewebstudio's caller declares the card a Visa (CardType 0); here the type is read from the number, and 5555... is a Mastercard (1).
    expect(withCard).toMatchObject({ ...base, Pan: '5555444433332222', Expiry: '1221', Cvv2: '122', CardType: '1' });
    expect(threeDFormFields({ ...input, model: '3d_host' }, tr)).toMatchObject({ ...base, SecureType: '3DHost' });
    expect(threeDFormFields({ ...input, model: '3d_pay' }, tr).SecureType).toBe('3DPay');
  });

  it('signs the form with the vector hash when the vector FailUrl and Rnd are sent', () => {
    const fields = threeDFormFields({ orderId: 'order222', amount: 10025n, currency: 'TRY', installmentNumber: 1, callbackUrl: 'https://domain.com/success', rnd: 'rand', model: '3d' }, tr);
    expect(formHash({ ...fields, FailUrl: 'https://domain.com/fail_url' } as Parameters<typeof formHash>[0], 'gDg1N')).toBe('vEbwP8wnsGrBR9oCjfxP9wlho1g=');
  });

  it('builds the sale without 3D as createNonSecurePaymentRequestData', () => {
    const visa = { ...card, number: '4090700090840057' };
    expect(saleRequest({ orderId: 'order222', amount: 10025n, currency: 'TRY', installmentNumber: 1, card: visa }, tr)).toEqual({
      ...account,
      TxnType: 'Auth',
      SecureType: 'NonSecure',
      OrderId: 'order222',
      PurchAmount: '100.25',
      Currency: '949',
      InstallmentCount: '',
      MOTO: '0',
      Lang: 'tr',
      CardType: '0',
      Pan: '4090700090840057',
      Expiry: '1221',
      Cvv2: '122',
    });
  });

  it("builds the 3D model's sale as create3DPaymentRequestData", () => {
    const request = threeDSaleRequest({ orderId: 'order222', amount: 10025n, currency: 'TRY', installmentNumber: 1, md: '1', payerTxnId: '2', eci: '3', payerAuthenticationCode: '4' }, tr);
    expect(request).toEqual({ ...account, TxnType: 'Auth', SecureType: 'NonSecure', OrderId: 'order222', PurchAmount: '100.25', Currency: '949', InstallmentCount: '', MD: '1', PayerTxnId: '2', Eci: '3', PayerAuthenticationCode: '4', MOTO: '0', Lang: 'tr' });
  });

  it('builds refund, void and status as createRefundRequestData, createCancelRequestData, createStatusRequestData', () => {
    expect(refundRequest({ orderId: '2020110828BC', amount: 12310n }, tr)).toEqual({ ...account, orgOrderId: '2020110828BC', PurchAmount: '123.1', TxnType: 'Refund', SecureType: 'NonSecure', Lang: 'tr', MOTO: '0' });
    expect(voidRequest({ orderId: '2020110828BC' }, { credentials, lang: 'en' })).toEqual({ ...account, orgOrderId: '2020110828BC', TxnType: 'Void', SecureType: 'NonSecure', Lang: 'en' });
    expect(statusRequest({ orderId: 'order222' }, tr)).toEqual({ ...account, orgOrderId: 'order222', TxnType: 'StatusHistory', SecureType: 'NonSecure', Lang: 'tr' });
  });

  it('maps instalments and amounts as mapInstallment and PHP write them', () => {
    const withInstallments = (n: number) => saleRequest({ orderId: 'o', amount: 1000n, currency: 'EUR', installmentNumber: n, card }, tr);
    expect(withInstallments(1).InstallmentCount).toBe('');
    expect(withInstallments(2).InstallmentCount).toBe('2');
    expect(withInstallments(2).Currency).toBe('978');
    expect(withInstallments(2).PurchAmount).toBe('10');
    expect([10025n, 12310n, 1000n, 1n].map(toInterPosAmount)).toEqual(['100.25', '123.1', '10', '0.01']);
    expect(() => toInterPosAmount(0n)).toThrow(RangeError);
    expect(['1,01', '1,00', '320', '1.056,20', '100.25', '0'].map(fromInterPosAmount)).toEqual([101n, 100n, 32000n, 105620n, 10025n, 0n]);
    expect(['', '1,001', 'abc', '1.05.3'].map(fromInterPosAmount)).toEqual([null, null, null, null]);
  });

  it('serialises as InterPosSerializer::encode (http_build_query), leaving out fields without a value', () => {
    expect(encodeRequest({ abc: '1', sa: 'aa' })).toBe('abc=1&sa=aa');
    expect(encodeRequest({ OrderId: undefined, orgOrderId: 'x y', Hash: 'a+b=' })).toBe('orgOrderId=x+y&Hash=a%2Bb%3D');
  });
});
