import { describe, expect, it } from 'vitest';
import { buildCC5Request, parseCC5Response } from '../../../src/providers/est/xml.ts';

// Fixtures of mewebstudio/pos tests/Unit/Serializer/EstPosSerializerTest.php.
describe('CC5Request / CC5Response', () => {
  it('writes a request exactly as mewebstudio/pos encodes it (encodeDataProvider test1)', () => {
    const xml = buildCC5Request({
      Name: 'ISBANKAPI',
      Password: 'ISBANK07',
      ClientId: '700655000200',
      Type: 'Auth',
      IPAddress: '',
      Email: 'test@test.com',
      OrderId: 'order222',
      UserId: '',
      Total: '100.25',
      Currency: '949',
      Taksit: '',
      Number: '5555444433332222',
      Expires: '12/21',
      Cvv2Val: '122',
      Mode: 'P',
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="ISO-8859-9"?>\n<CC5Request><Name>ISBANKAPI</Name><Password>ISBANK07</Password><ClientId>700655000200</ClientId><Type>Auth</Type><IPAddress></IPAddress><Email>test@test.com</Email><OrderId>order222</OrderId><UserId></UserId><Total>100.25</Total><Currency>949</Currency><Taksit></Taksit><Number>5555444433332222</Number><Expires>12/21</Expires><Cvv2Val>122</Cvv2Val><Mode>P</Mode></CC5Request>\n',
    );
  });

  it('escapes markup in values and nests Extra', () => {
    const xml = buildCC5Request({ Name: 'a<b&c', Extra: { ORDERSTATUS: 'QUERY' }, OrderId: 'o1' });
    expect(xml).toContain('<Name>a&lt;b&amp;c</Name><Extra><ORDERSTATUS>QUERY</ORDERSTATUS></Extra><OrderId>o1</OrderId>');
  });

  it('reads an answer with every value a string (decodeDataProvider 3d_payment_success_response)', () => {
    const answer = parseCC5Response(`<?xml version="1.0" encoding="ISO-8859-9"?>
<CC5Response>
  <OrderId>20230910AF6A</OrderId>
  <GroupId>20230910AF6A</GroupId>
  <Response>Approved</Response>
  <AuthCode>P18552</AuthCode>
  <HostRefNum>325300733333</HostRefNum>
  <ProcReturnCode>00</ProcReturnCode>
  <TransId>23253WkfD10806</TransId>
  <ErrMsg></ErrMsg>
  <Extra>
    <SETTLEID>2589</SETTLEID>
    <TRXDATE>20230910 22:36:30</TRXDATE>
    <ERRORCODE></ERRORCODE>
    <CARDISSUER>Z&#x130;RAAT BANKASI</CARDISSUER>
    <NUMCODE>00</NUMCODE>
  </Extra>
</CC5Response>`);
    expect(answer).toEqual({
      fields: { OrderId: '20230910AF6A', GroupId: '20230910AF6A', Response: 'Approved', AuthCode: 'P18552', HostRefNum: '325300733333', ProcReturnCode: '00', TransId: '23253WkfD10806', ErrMsg: '' },
      extra: { SETTLEID: '2589', TRXDATE: '20230910 22:36:30', ERRORCODE: '', CARDISSUER: 'ZİRAAT BANKASI', NUMCODE: '00' },
    });
  });

  it('reads anything that is not a CC5Response as nothing', () => {
    expect(parseCC5Response('<html><body>502 Bad Gateway</body></html>')).toBeNull();
    expect(parseCC5Response('<CC5Response><ProcReturnCode>00</Proc')).toBeNull();
    expect(parseCC5Response('<CC5Response><OrderId>x</OrderId></CC5Response>')).toBeNull();
    expect(parseCC5Response('')).toBeNull();
  });
});
