// PosNet's crypt and serialiser, the connector's and the emulator's each, against vectors nobody
// here wrote: mewebstudio/pos (MIT) tests/Unit/Crypt/PosNetCryptTest.php (createHash and
// check3DHash, account mid 6706598320, tid 67005551, posnet id 27426, ENCKEY
// "10,10,10,10,10,10,10,10"), tests/Unit/Serializer/PosNetSerializerTest.php (encode, decode) and
// tests/Unit/DataMapper/ResponseDataMapper/PosNetResponseDataMapperTest.php (a signed 3-D resolution).
import { describe, expect, it } from 'vitest';
import { merchantMac, resolutionMac as emulatorResolutionMac } from '../../emulators/posnet/hash.ts';
import { requestMac, resolutionMac } from '../../src/providers/posnet/hash.ts';
import { fromStatusAmount } from '../../src/providers/posnet/answers.ts';
import { parsePosnetResponse, posnetRequestXml, textAt } from '../../src/providers/posnet/xml.ts';
import { orderRef, posnetInstallment, saleRequest, xidOf } from '../../src/providers/posnet/requests.ts';
import { judgeResolution } from '../../src/providers/posnet/callback.ts';

const key = { merchantId: '6706598320', terminalId: '67005551', encKey: '10,10,10,10,10,10,10,10' };
const emulatorMerchant = { ...key, posnetId: '27426' };

describe("PosNet's MAC (PosNetCryptTest)", () => {
  // hashCreateDataProvider: order TST_190620093100_024, amount 175, currency TL.
  const CREATE = 'nyeFSQ4J9NZVeCcEGCDomM8e2YIvoeIa/IDh2D3qaL4=';
  // threeDHashCheckDataProvider: xid 00000000000000000895, amount 100, TL, mdStatus 9.
  const CHECK = '7I9ojRm7yzvZZTFNOYWocGIGSTv2Vmq23STR6X6X+c0=';

  it('the connector: the request mac and the resolution mac', () => {
    expect(requestMac(key, { xid: 'TST_190620093100_024', amount: '175', currency: 'TL' })).toBe(CREATE);
    expect(resolutionMac(key, { mdStatus: '9', xid: '00000000000000000895', amount: '100', currency: 'TL' })).toBe(CHECK);
    // check3DHash fails once the amount is emptied.
    expect(resolutionMac(key, { mdStatus: '9', xid: '00000000000000000895', amount: '', currency: 'TL' })).not.toBe(CHECK);
  });

  it('the emulator: the same, written apart', () => {
    expect(merchantMac(emulatorMerchant, 'TST_190620093100_024', '175', 'TL')).toBe(CREATE);
    expect(emulatorResolutionMac(emulatorMerchant, '9', '00000000000000000895', '100', 'TL')).toBe(CHECK);
  });
});

describe("PosNet's serialiser (PosNetSerializerTest)", () => {
  it('encodes a sale byte for byte', () => {
    const xml = posnetRequestXml({ mid: '6706598320', tid: '67005551', tranDateRequired: '1', sale: { orderID: '0000190620093100_024', installment: '00', amount: '175', currencyCode: 'TL', ccno: '5555444433332222', expDate: '2112', cvc: '122' } });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="ISO-8859-9"?>\n<posnetRequest><mid>6706598320</mid><tid>67005551</tid><tranDateRequired>1</tranDateRequired><sale><orderID>0000190620093100_024</orderID><installment>00</installment><amount>175</amount><currencyCode>TL</currencyCode><ccno>5555444433332222</ccno><expDate>2112</expDate><cvc>122</cvc></sale></posnetRequest>\n',
    );
  });

  it('the request mapper writes the sale as that vector does (expiry YYMM, instalments on two digits)', () => {
    const request = saleRequest({ merchant_id: '6706598320', terminal_id: '67005551', posnet_id: '27426', enc_key: 'k' }, { xid: '0000190620093100_024', amount: 175n, currency: 'TRY', installmentNumber: 1 }, { holderName: 'x', number: '5555444433332222', expiryMonth: '12', expiryYear: '2021', securityCode: '122' });
    expect(posnetRequestXml(request)).toContain('<sale><orderID>0000190620093100_024</orderID><installment>00</installment><amount>175</amount><currencyCode>TL</currencyCode><ccno>5555444433332222</ccno><expDate>2112</expDate><cvc>122</cvc></sale>');
    expect(posnetInstallment(3)).toBe('03');
  });

  it('decodes a refusal, codes kept as text', () => {
    const answer = parsePosnetResponse("<?xml version='1.0' encoding='iso-8859-9'?><posnetResponse><approved>0</approved><respCode>0148</respCode><respText>INVALID MID TID IP. Hatal IP:88.152.9.140</respText></posnetResponse>")!;
    expect([textAt(answer, 'approved'), textAt(answer, 'respCode'), textAt(answer, 'respText')]).toEqual(['0', '0148', 'INVALID MID TID IP. Hatal IP:88.152.9.140']);
    expect(parsePosnetResponse('<html>proxy error</html>')).toBeNull();
  });
});

describe("PosNet's order ids and amounts (PosNetRequestDataMapper, PosNetResponseDataMapper)", () => {
  it('a 3-D order is TDSC + the XID, a sale the XID left-padded to 24', () => {
    expect(orderRef('000000002020110828BC', true)).toBe('TDSC000000002020110828BC');
    expect(orderRef('abcdefghijklmnopabcd', false)).toBe('0000abcdefghijklmnopabcd');
    expect(xidOf('TDSC000000002020110828BC')).toBe('000000002020110828BC');
    expect(xidOf('not a reference')).toBeNull();
  });

  it('the agreement inquiry writes amounts "1,16" and "1.000,16" (formatStatusAmount)', () => {
    expect(fromStatusAmount('1,16')).toBe(116n);
    expect(fromStatusAmount('1.000,16')).toBe(100016n);
    expect(fromStatusAmount('1.16')).toBeNull();
  });
});

describe("the 3-D resolution of mewebstudio's PosNetResponseDataMapperTest (threeDPaymentDataProvider success1)", () => {
  const sample = { xid: 'YKB_0000080603153823', amount: '5696', currency: 'TL', installment: '00', point: '0', pointAmount: '0', txStatus: 'Y', mdStatus: '1', mdErrorMessage: '' };
  // The sample's mac, made with the test account's ENCKEY: a third vector for the resolution mac.
  const SAMPLE_MAC = 'y0fU6rRA0OvqJ5GN6uMdHVu6Xra7QR1qeT9rN7R1L+o=';
  const xml = (over: Record<string, string> = {}) =>
    parsePosnetResponse(`<posnetResponse><approved>1</approved><respCode></respCode><respText></respText><oosResolveMerchantDataResponse>${Object.entries({ ...sample, mac: SAMPLE_MAC, ...over }).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</oosResolveMerchantDataResponse></posnetResponse>`)!;
  const payment = { startKey: 'p:authorise', providerReference: 'TDSCYKB_0000080603153823', amount: 5696n, currency: 'TRY' as const };
  const packets = { bankData: 'B', merchantData: 'M', sign: 'S' };

  it('its mac is ours, from the connector and from the emulator', () => {
    expect(resolutionMac(key, sample)).toBe(SAMPLE_MAC);
    expect(emulatorResolutionMac(emulatorMerchant, '1', sample.xid, sample.amount, sample.currency)).toBe(SAMPLE_MAC);
  });

  it('is verified and authenticated; changed in amount or mdStatus, or about another amount, it is refused', () => {
    expect(judgeResolution(key, payment, sample.xid, packets, xml())).toMatchObject({ status: 'verified', authenticated: true, data: { mdStatus: '1' } });
    expect(judgeResolution(key, payment, sample.xid, packets, xml({ amount: '5697' }))).toMatchObject({ status: 'rejected', cause: 'signature' });
    expect(judgeResolution(key, payment, sample.xid, packets, xml({ mdStatus: '9' }))).toMatchObject({ status: 'rejected', cause: 'signature' });
    expect(judgeResolution(key, { ...payment, amount: 5000n }, sample.xid, packets, xml())).toMatchObject({ status: 'rejected', cause: 'amount' });
    expect(judgeResolution(key, payment, 'YKB_0000080603153824', packets, xml())).toMatchObject({ status: 'rejected', cause: 'order' });
  });
});
