// Request shapes against mewebstudio/pos tests/Unit/DataMapper/RequestDataMapper/GarantiPosRequestDataMapperTest.php
// (its account: merchant 7000679, terminal 30691298, PROVAUT/PROVRFN "123qweASD/"; its HashData values are the real hashes).
import { describe, expect, it } from 'vitest';
import { gvpAmount, gvpInstallment, orderInquiryRequest, saleRequest, voidRequest, type XmlContext } from '../../../src/providers/garanti/requests.ts';
import { CREDENTIALS } from './fixtures.ts';

const ctx: XmlContext = { credentials: CREDENTIALS, mode: 'TEST' };
const terminal = (user: string, hash: string) => ({ ProvUserID: user, UserID: user, HashData: hash, ID: '30691298', MerchantID: '7000679' });

describe('GVP requests', () => {
  it("builds the non-3D sale (nonSecurePaymentRequestDataDataProvider 'basic')", () => {
    const request = saleRequest(
      {
        orderId: 'order222',
        amount: 10_025n,
        currency: 'TRY',
        installmentNumber: 1,
        card: { holderName: 'ahmet', number: '5555444433332222', securityCode: '123', expiryMonth: '01', expiryYear: '2022' },
        shopper: { ip: '127.0.0.1' },
      },
      ctx,
    );
    expect(request).toEqual({
      Mode: 'TEST',
      Version: '512',
      Terminal: terminal('PROVAUT', '2005F771B622399C0EC7B8BBBE9B5F7989B9587175239F0695C1E5D3BFAA0CF6D747A9CEE64D78B7081CB5193541AD9D129B929653E2B68BCAE6939E281D752E'),
      Customer: { IPAddress: '127.0.0.1' },
      Card: { Number: '5555444433332222', ExpireDate: '0122', CVV2: '123' },
      Order: { OrderID: 'order222' },
      Transaction: { Type: 'sales', InstallmentCnt: '', Amount: '10025', CurrencyCode: '949', CardholderPresentCode: '0', MotoInd: 'N' },
    });
  });

  it('builds the void (cancelRequestDataProvider)', () => {
    expect(voidRequest({ orderId: '2020110828BC', retrefNum: '831803579226' }, ctx)).toEqual({
      Mode: 'TEST',
      Version: '512',
      Terminal: terminal('PROVRFN', '35E8410A78E24949D78F5E025B5E05AF470B01385A2ECBFEE6C5B3CDACFF78011D387ECAFDCE4B8453D80D35C2F344F3DAA6F2EF9143079F64DE88401EC5E4F5'),
      Customer: { IPAddress: '127.0.0.1' },
      Order: { OrderID: '2020110828BC' },
      Transaction: { Type: 'void', InstallmentCnt: '', Amount: '100', CurrencyCode: '949', CardholderPresentCode: '0', MotoInd: 'N', OriginalRetrefNum: '831803579226' },
    });
  });

  it('builds the order inquiry (statusRequestDataDataProvider; the IP, unhashed, is our placeholder)', () => {
    expect(orderInquiryRequest({ orderId: '2020110828BC', currency: 'TRY' }, ctx)).toEqual({
      Mode: 'TEST',
      Version: '512',
      Terminal: terminal('PROVAUT', '35E8410A78E24949D78F5E025B5E05AF470B01385A2ECBFEE6C5B3CDACFF78011D387ECAFDCE4B8453D80D35C2F344F3DAA6F2EF9143079F64DE88401EC5E4F5'),
      Customer: { IPAddress: '127.0.0.1' },
      Order: { OrderID: '2020110828BC' },
      Transaction: { Type: 'orderinq', InstallmentCnt: '', Amount: '100', CurrencyCode: '949', CardholderPresentCode: '0', MotoInd: 'N' },
    });
  });

  it('writes amounts as minor units and a single payment without an instalment count (testFormatAmount, testMapInstallment)', () => {
    expect(gvpAmount(10_025n)).toBe('10025');
    expect(gvpAmount(1n)).toBe('1');
    expect(() => gvpAmount(0n)).toThrow(RangeError);
    expect(gvpInstallment(0)).toBe('');
    expect(gvpInstallment(1)).toBe('');
    expect(gvpInstallment(2)).toBe('2');
  });
});
