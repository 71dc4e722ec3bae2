import { describe, expect, it } from 'vitest';
import { gvpsRequestXml, listAt, parseGvpsResponse, textAt } from '../../../src/providers/garanti/xml.ts';

describe('GVP XML', () => {
  it('writes a request as mewebstudio/pos does (tests/Unit/Serializer/GarantiPosSerializerTest.php, encodeDataProvider test1)', () => {
    const xml = gvpsRequestXml({
      Mode: 'TEST',
      Version: 'v0.01',
      Terminal: { ProvUserID: 'PROVAUT', UserID: 'PROVAUT', HashData: '3732634F78053D42304B0966E263629FE44E258B', ID: '30691298', MerchantID: '7000679' },
      Customer: { IPAddress: '', EmailAddress: 'test@test.com' },
      Card: { Number: '5555444433332222', ExpireDate: '1221', CVV2: '122' },
      Order: { OrderID: 'order222' },
      Transaction: { Type: 'sales', InstallmentCnt: '', Amount: '10025', CurrencyCode: '949', CardholderPresentCode: '0', MotoInd: 'N' },
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<GVPSRequest><Mode>TEST</Mode><Version>v0.01</Version><Terminal><ProvUserID>PROVAUT</ProvUserID><UserID>PROVAUT</UserID><HashData>3732634F78053D42304B0966E263629FE44E258B</HashData><ID>30691298</ID><MerchantID>7000679</MerchantID></Terminal><Customer><IPAddress></IPAddress><EmailAddress>test@test.com</EmailAddress></Customer><Card><Number>5555444433332222</Number><ExpireDate>1221</ExpireDate><CVV2>122</CVV2></Card><Order><OrderID>order222</OrderID></Order><Transaction><Type>sales</Type><InstallmentCnt></InstallmentCnt><Amount>10025</Amount><CurrencyCode>949</CurrencyCode><CardholderPresentCode>0</CardholderPresentCode><MotoInd>N</MotoInd></Transaction></GVPSRequest>\n',
    );
  });

  it('escapes text', () => {
    expect(gvpsRequestXml({ Customer: { EmailAddress: 'a<b>&c' } })).toContain('<EmailAddress>a&lt;b&gt;&amp;c</EmailAddress>');
  });

  it('reads answers as text: codes keep their zeros, amounts never become numbers', () => {
    const answer = parseGvpsResponse('<GVPSResponse><Transaction><Response><Code>05</Code></Response><Amount>100.10</Amount></Transaction><L><I>1</I><I>2</I></L></GVPSResponse>')!;
    expect(textAt(answer, 'Transaction', 'Response', 'Code')).toBe('05');
    expect(textAt(answer, 'Transaction', 'Amount')).toBe('100.10');
    expect(textAt(answer, 'Transaction', 'Missing')).toBeUndefined();
    expect(listAt(answer, 'L')).toHaveLength(1);
  });

  it('answers null for what is not a GVPSResponse', () => {
    expect(parseGvpsResponse('<html><body>Bad gateway</body></html>')).toBeNull();
    expect(parseGvpsResponse('not xml at all <')).toBeNull();
    expect(parseGvpsResponse('')).toBeNull();
  });
});
