// InterPOS's crypt, in the connector (src/providers/interpos/hash.ts) and in the emulator
// (emulators/interpos/hash.ts), each checked against vectors nobody here wrote: mewebstudio/pos
// tests/Unit/Crypt/InterPosCryptTest.php (create3DHash, check3DHash) and the signed 3D Pay
// callback of tests/Unit/DataMapper/ResponseDataMapper/InterPosResponseDataMapperTest.php, with its
// test account (ShopCode 3123, store key gDg1N).
import { describe, expect, it } from 'vitest';
import { gateHash, signCallback } from '../../emulators/interpos/hash.ts';
import { callbackHash, checkCallbackHash, formHash } from '../../src/providers/interpos/hash.ts';

const STORE_KEY = 'gDg1N';
const HASH_PARAMS = 'Version:PurchAmount:Exponent:Currency:OkUrl:FailUrl:MD:OrderId:ProcReturnCode:Response:mdStatus:';

// InterPosCryptTest::threeDHashCreateDataProvider
const FORM = { ShopCode: '3123', OrderId: 'order222', PurchAmount: '100.25', TxnType: 'Auth', InstallmentCount: '', OkUrl: 'https://domain.com/success', FailUrl: 'https://domain.com/fail_url', Rnd: 'rand' };
const FORM_HASH = 'vEbwP8wnsGrBR9oCjfxP9wlho1g=';

// InterPosCryptTest::threeDHashCheckDataProvider (PHP's 320 and nulls written as the strings they hash as).
const CALLBACKS: Array<Record<string, string>> = [
  {
    Version: '',
    PurchAmount: '320',
    Exponent: '',
    Currency: '949',
    OkUrl: 'https://localhost/pos/examples/interpos/3d/success.php',
    FailUrl: 'https://localhost/pos/examples/interpos/3d/fail.php',
    MD: '',
    OrderId: '20220327140D',
    ProcReturnCode: '81',
    Response: '',
    mdStatus: '0',
    HASH: '9DZVckklZFjuoA7sl4MN0l7VDMo=',
    HASHPARAMS: HASH_PARAMS,
    HASHPARAMSVAL: '320949https://localhost/pos/examples/interpos/3d/success.phphttps://localhost/pos/examples/interpos/3d/fail.php20220327140D810',
  },
  {
    Version: '',
    ShopCode: '3123',
    MD: '',
    OrderId: '20221225E1DF',
    PurchAmount: '1,01',
    Exponent: '',
    Currency: '949',
    OkUrl: 'http:\\/\\/localhost\\/interpos\\/3d\\/response.php',
    FailUrl: 'http:\\/\\/localhost\\/interpos\\/3d\\/response.php',
    '3DStatus': '0',
    mdStatus: '0',
    ProcReturnCode: '81',
    Response: '',
    HASH: '423AWRAXl0VlEbQjpmAfntT5e3E=',
    HASHPARAMS: HASH_PARAMS,
    HASHPARAMSVAL: '1,01949http:\\/\\/localhost\\/interpos\\/3d\\/response.phphttp:\\/\\/localhost\\/interpos\\/3d\\/response.php20221225E1DF810',
  },
  // InterPosResponseDataMapperTest::threeDPayPaymentDataProvider 'authFail1' (the fields it signs).
  {
    Version: '',
    PurchAmount: '1,01',
    Exponent: '',
    Currency: '949',
    OkUrl: 'http:\\/\\/localhost\\/interpos\\/3d-pay\\/response.php',
    FailUrl: 'http:\\/\\/localhost\\/interpos\\/3d-pay\\/response.php',
    MD: '',
    OrderId: '20221225B83B',
    ProcReturnCode: '81',
    Response: '',
    mdStatus: '0',
    HASH: 'PvDXe6Puf9W2oZnBZuHVp8oWpyY=',
    HASHPARAMS: HASH_PARAMS,
    HASHPARAMSVAL: '1,01949http:\\/\\/localhost\\/interpos\\/3d-pay\\/response.phphttp:\\/\\/localhost\\/interpos\\/3d-pay\\/response.php20221225B83B810',
  },
];

describe('InterPOS crypt against mewebstudio/pos vectors', () => {
  it("signs the 3D form as InterPosCrypt::create3DHash (the connector's and the emulator's)", () => {
    expect(formHash(FORM, STORE_KEY)).toBe(FORM_HASH);
    expect(gateHash((name) => FORM[name as keyof typeof FORM] ?? '', STORE_KEY)).toBe(FORM_HASH);
  });

  it.each(CALLBACKS.map((fields) => [fields.OrderId, fields] as const))('checks the callback %s as InterPosCrypt::check3DHash, and refuses it altered', (_id, fields) => {
    expect(checkCallbackHash(fields, STORE_KEY)).toBe(true);
    expect(callbackHash(fields, STORE_KEY)).toBe(fields.HASH);
    expect(signCallback(fields, STORE_KEY)).toEqual({ HASH: fields.HASH, HASHPARAMSVAL: fields.HASHPARAMSVAL });
    // The vectors' own negative case: PurchAmount emptied.
    expect(checkCallbackHash({ ...fields, PurchAmount: '' }, STORE_KEY)).toBe(false);
    expect(checkCallbackHash(fields, 'another-key')).toBe(false);
  });
});
