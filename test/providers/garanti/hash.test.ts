// GVP's hashes against the vectors of mewebstudio/pos tests/Unit/Crypt/GarantiPosCryptTest.php
// (account: terminal 30691298, PROVAUT and PROVRFN passwords "123qweASD/", store key 12345678).
import { describe, expect, it } from 'vitest';
import { checkResponseHash, requestHash, securityData, threeDFormHash } from '../../../src/providers/garanti/hash.ts';
import { CREDENTIALS, SIGNED_CALLBACK } from './fixtures.ts';


const base = { terminalId: '30691298', password: CREDENTIALS.provision_password };

describe('GVP hashes (mewebstudio/pos GarantiPosCryptTest)', () => {
  it('hashes the password with the terminal id padded to 9 digits', () => {
    expect(securityData('123qweASD/', '30691298')).toMatch(/^[0-9A-F]{40}$/);
    expect(securityData('123qweASD/', '30691298')).toBe(securityData('123qweASD/', '030691298'));
  });

  it('signs the 3D form (testCreate3DHash)', () => {
    expect(
      threeDFormHash({
        ...base,
        orderId: 'order222',
        amount: '10025',
        currencyCode: '949',
        successUrl: 'https://domain.com/success',
        errorUrl: 'https://domain.com/fail_url',
        type: 'sales',
        installment: '',
        storeKey: '12345678',
      }),
    ).toBe('372D6CB20B2B699D0A6667DFF46E3AA8CF3F9D8C2BB69A7C411895151FFCFAAB5277CCFE3B3A06035FEEFBFBFD40C79DBE51DBF867D0A24B37335A28F0CEFDE2');
  });

  it('signs XML requests (hashCreateDataProvider: sales, void, refund)', () => {
    expect(requestHash({ ...base, orderId: 'order222', amount: '10025', currencyCode: '949' })).toBe(
      '0CFE09F107274C6A07292DA061A4EECAB0F5F0CF87F831F2D3626A3346A941126C52D1D95A3B77ADF5AC348B3D25C76BA5D8D98A29557D087D3367BFFACCD25C',
    );
    expect(requestHash({ ...base, password: CREDENTIALS.refund_password, orderId: '4499996', amount: '100', currencyCode: '949' })).toBe(
      'C0C88761726D1844AF49FBE756DBE4586F7339169994CF700AE50AA8EAD0C8E81F5828C3392CE39CFC3F8C976FC3E24B576F4DB55DAF2E7D3A6F6B6E5E89B189',
    );
    expect(requestHash({ ...base, password: CREDENTIALS.refund_password, orderId: '4499996', amount: '202', currencyCode: '949' })).toBe(
      '0F97D922001221B9C90AA692CF5D4082FF6D3EB38BE863A47F9C08E63CD87312270D6F298E5FBBC320654861DA1C6EE826E0C83E904916351A9D3032FA426BAA',
    );
    // bininq: no currency code, amount "1".
    expect(requestHash({ ...base, orderId: 'SISTD5A61F1682E745B28871872383ABBEB1', amount: '1', currencyCode: '' })).toBe(
      'B129BF998FF8C97C42D3FC923AA4271656B112549665FA130ACF631EA3EB73D917AEB3D646481564CACE38D1687F7744F82E5A1DBB6966F1512E0AF29B4C067B',
    );
  });

  it('hashes the card number into a request that carries one', () => {
    const without = requestHash({ ...base, orderId: 'order222', amount: '10025', currencyCode: '949' });
    expect(requestHash({ ...base, orderId: 'order222', amount: '10025', currencyCode: '949', cardNumber: '5555444433332222' })).not.toBe(without);
  });

  it("checks the bank's callback hash (testCheck3DHash)", () => {
    expect(checkResponseHash('12345678', SIGNED_CALLBACK)).toBe(true);
    expect(checkResponseHash('12345678', { ...SIGNED_CALLBACK, mdstatus: '' })).toBe(false);
    expect(checkResponseHash('other-key', SIGNED_CALLBACK)).toBe(false);
    expect(checkResponseHash('12345678', { ...SIGNED_CALLBACK, hash: '' })).toBe(false);
    expect(checkResponseHash('12345678', { ...SIGNED_CALLBACK, hashparams: '' })).toBe(false);
  });
});
