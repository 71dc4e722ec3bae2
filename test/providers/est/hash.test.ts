import { describe, expect, it } from 'vitest';
import { naturalCaseCompare, ver1Hash, ver3Hash } from '../../../src/providers/est/hash.ts';
import { VER1_3D_CALLBACK, VER1_STORE_KEY, VER3_3D_PAY_CALLBACK, VER3_STORE_KEY } from './fixtures.ts';

// Vectors from mewebstudio/pos tests/Unit/Crypt/EstV3PosCryptTest.php (account store key "123456").
describe('EST ver3 hash', () => {
  it('signs a 3D Pay form as EstV3PosCrypt does (testCreate3DHashFor3DPay)', () => {
    const form = {
      clientid: '190100000',
      storetype: '3d_pay',
      amount: '100.25',
      oid: 'order222',
      okUrl: 'https://domain.com/success',
      failUrl: 'https://domain.com/fail_url',
      rnd: 'rand',
      lang: 'tr',
      currency: '949',
      taksit: '',
      islemtipi: 'Auth',
      firmaadi: 'siparis veren',
      Email: 'test@test.com',
      hashAlgorithm: 'ver3',
    };
    expect(ver3Hash(form, '123456')).toBe('/uPxhEKWCEGi3NsDOOQ4u8Hu5g71v5GWspOid70WehTWEz97PqxG3IN1Jv5jsbOXOw3Z3Rr/0UtywzEgbqFfdA==');
  });

  it('signs a 3D form whatever the order of its fields (testCreate3DHashFor3DSecure)', () => {
    const form = {
      clientid: '190100000',
      storetype: '3d',
      amount: '100.25',
      oid: 'order222',
      okUrl: 'https://domain.com/success',
      failUrl: 'https://domain.com/fail_url',
      rnd: '12345',
      hashAlgorithm: 'ver3',
      lang: 'tr',
      currency: '949',
      islemtipi: 'Auth',
      taksit: '',
    };
    expect(ver3Hash(form, '123456')).toBe('4aUsG5hqlIFLc9s8PKc5rWb2OLhmxDDewNgKa2XrwoYCIxlyVq8Fjl4IVaZzoqL983CfTseicmnTA0PjZr74xg==');
  });

  it("checks the bank's callback over every field but HASH and encoding (threeDHashCheckDataProvider)", () => {
    expect(ver3Hash(VER3_3D_PAY_CALLBACK, VER3_STORE_KEY)).toBe(VER3_3D_PAY_CALLBACK.HASH);
    expect(ver3Hash({ ...VER3_3D_PAY_CALLBACK, mdStatus: '' }, VER3_STORE_KEY)).not.toBe(VER3_3D_PAY_CALLBACK.HASH);
    expect(ver3Hash({ ...VER3_3D_PAY_CALLBACK, encoding: 'UTF-8', nationalidno: '1' }, VER3_STORE_KEY)).toBe(VER3_3D_PAY_CALLBACK.HASH);
  });

  it('escapes "|" and "\\" in values so fields cannot be shifted into each other', () => {
    expect(ver3Hash({ a: 'x|', b: 'y' }, 'k')).not.toBe(ver3Hash({ a: 'x', b: '|y' }, 'k'));
    expect(ver3Hash({ a: 'x\\', b: 'y' }, 'k')).not.toBe(ver3Hash({ a: 'x', b: '\\y' }, 'k'));
  });

  it("sorts names as PHP's ksort(SORT_NATURAL | SORT_FLAG_CASE)", () => {
    const names = ['rnd', 'Email', 'amount', 'field10', 'field9', 'EXTRA_X', 'EXTRAS', 'ACQBIN'];
    expect([...names].sort(naturalCaseCompare)).toEqual(['ACQBIN', 'amount', 'Email', 'EXTRAS', 'EXTRA_X', 'field9', 'field10', 'rnd']);
  });
});

// Vector from mewebstudio/pos tests/Unit/Crypt/EstPosCryptTest.php (store key "TRPS0200").
describe('EST ver1 hash (HASHPARAMS)', () => {
  it('signs the values HASHPARAMS names, then the store key, with SHA-1', () => {
    expect(ver1Hash(VER1_3D_CALLBACK, VER1_STORE_KEY)).toBe('e5KcIY797JNvjrkWjZSfHOa+690=');
    expect(ver1Hash({ ...VER1_3D_CALLBACK, mdStatus: '' }, VER1_STORE_KEY)).not.toBe('e5KcIY797JNvjrkWjZSfHOa+690=');
    expect(ver1Hash({ ...VER1_3D_CALLBACK, HASHPARAMS: '' }, VER1_STORE_KEY)).toBeNull();
  });
});
