// Card numbers are masked, the banks' references are not: support reads EST's HostRefNum, GVP's
// RetrefNum and the 3D md token whole in the exchange records and the log lines, while a card
// number is masked wherever it sits, also typed with spaces or dashes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskCardField, maskCardNumbers } from '../../src/domain/card-masking.ts';
import { luhnValid } from '../../src/domain/cards.ts';
import { createLogger } from '../../src/logger.ts';
import { EstClient } from '../../src/providers/est/client.ts';
import type { Exchange } from '../../src/providers/exchange.ts';
import { GarantiClient } from '../../src/providers/garanti/client.ts';

// References as the banks send them. These two pass the Luhn check, as about one in ten do:
// only their field's name keeps them readable.
const HOST_REF_NUM = '603100082701';
const RETREF_NUM = '2600000000070011';
// A reference that fails the check, as it would read in free text (a note, an audit entry).
const FREE_TEXT_REF = '230300671782';
const MD = `454671:${'8F3A'.repeat(16)}:4321:##700655000200`;
const CARD = '4111111111111111';

let server: Server;
let url: string;
let answer = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/xml' }).end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The log line a connector's exchange becomes. */
function logged(exchange: Exchange): Record<string, unknown> {
  const lines: string[] = [];
  createLogger('info', (line) => lines.push(line)).info('bank exchange', { ...exchange });
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

describe('card masking', () => {
  it('the references quoted to support are long digit runs, two of them Luhn-valid', () => {
    expect([HOST_REF_NUM, RETREF_NUM].map(luhnValid)).toEqual([true, true]);
    expect(luhnValid(FREE_TEXT_REF)).toBe(false);
  });

  it('masks a card number in free text, together or typed with spaces or dashes, and leaves other numbers', () => {
    const text = `kart ${CARD}, 4111 1111 1111 1111 ve 4111-1111-1111-1111; amex 3782 822463 10005; ref ${FREE_TEXT_REF}; saat 1795560000710; 2026-11-27`;
    expect(maskCardNumbers(text)).toBe(
      `kart 411111******1111, 411111******1111 ve 411111******1111; amex 378282******0005; ref ${FREE_TEXT_REF}; saat 1795560000710; 2026-11-27`,
    );
    // A card beside another number, both typed with spaces.
    expect(maskCardNumbers('sipariş 12345 5555 5555 5555 4444')).toBe('sipariş 12345 555555******4444');
  });

  it("leaves identifiers whole: a UUID's digit groups are not a card, even when they pass the Luhn check", () => {
    // 58097298-9493-497 is 15 digits that pass the Luhn check; the UUID around them is an account's id.
    expect(luhnValid('580972989493497')).toBe(true);
    const id = '58097298-9493-497d-8d19-b9c61c81a838';
    expect(maskCardNumbers(`payment account ${id}`)).toBe(`payment account ${id}`);
    expect(maskCardNumbers('12345678-1234-1234-1234-123456789012')).toBe('12345678-1234-1234-1234-123456789012');
    expect(maskCardNumbers(`hesap ${id}, kart 4111-1111-1111-1111`)).toBe(`hesap ${id}, kart 411111******1111`);
  });

  it("masks a card field's number whatever its check digit, and keeps what is not one", () => {
    expect(maskCardField('9792030000000004')).toBe('************0004');
    expect(maskCardField('4111 1111 1111 1111')).toBe('************1111');
    expect(maskCardField('')).toBe('');
    expect(maskCardField('428220******2016')).toBe('428220******2016');
    expect(maskCardField(MD)).toBe(MD);
    expect(maskCardField(`kart ${CARD}`)).toBe('kart 411111******1111');
  });

  it("keeps EST's HostRefNum and md whole in the exchange record and its log line, the card masked", async () => {
    answer = `<CC5Response><OrderId>abc</OrderId><Response>Approved</Response><AuthCode>P90325</AuthCode><HostRefNum>${HOST_REF_NUM}</HostRefNum><ProcReturnCode>00</ProcReturnCode><TransId>22303Md4C19254</TransId><ErrMsg>Kart ${CARD} onaylandi</ErrMsg></CC5Response>`;
    const exchanges: Exchange[] = [];
    const client = new EstClient({ apiUrl: url, timeoutMs: 2000, onExchange: (e) => exchanges.push(e) });
    await client.call('charge3D', { Name: 'API', Password: 'secret', OrderId: 'abc', Number: MD, PayerSecurityLevel: '05' });
    await client.call('charge', { Name: 'API', Password: 'secret', OrderId: 'abc', Number: CARD, Cvv2Val: '000' });

    const [threeD, direct] = exchanges;
    expect(threeD).toMatchObject({ request: { Number: MD, Password: '[redacted]' }, response: { fields: { HostRefNum: HOST_REF_NUM, AuthCode: 'P90325', ErrMsg: 'Kart 411111******1111 onaylandi' } } });
    expect(direct).toMatchObject({ request: { Number: '************1111', Cvv2Val: '[redacted]' } });
    expect(logged(threeD!)).toMatchObject({ request: { Number: MD }, response: { fields: { HostRefNum: HOST_REF_NUM, ErrMsg: 'Kart 411111******1111 onaylandi' } } });
    expect(JSON.stringify(logged(direct!))).not.toContain(CARD);
  });

  it("keeps GVP's RetrefNum whole and an empty CardNumberMasked empty in the refund's record and log line", async () => {
    answer = `<GVPSResponse><Order><OrderID>abc</OrderID></Order><Transaction><Response><Code>00</Code><Message>Approved</Message></Response><RetrefNum>${RETREF_NUM}</RetrefNum><AuthCode>304919</AuthCode><CardNumberMasked></CardNumberMasked><HashData>F7FB18</HashData></Transaction></GVPSResponse>`;
    const exchanges: Exchange[] = [];
    const client = new GarantiClient({ apiUrl: url, timeoutMs: 2000, onExchange: (e) => exchanges.push(e) });
    await client.call('refund', { Mode: 'PROD', Transaction: { Type: 'refund', OriginalRetrefNum: RETREF_NUM, CardNumberMasked: '' } });

    const expected = { request: { Transaction: { OriginalRetrefNum: RETREF_NUM } }, response: { Transaction: { RetrefNum: RETREF_NUM, CardNumberMasked: '', HashData: '[redacted]' } } };
    expect(exchanges[0]).toMatchObject(expected);
    expect(logged(exchanges[0]!)).toMatchObject(expected);
  });

  it('masks a card number typed into a log message, keeping a reference in the same line', () => {
    const lines: string[] = [];
    createLogger('info', (line) => lines.push(line)).info('kart 4111 1111 1111 1111 ile ödeme', { note: '4111-1111-1111-1111', ref: FREE_TEXT_REF, RetrefNum: RETREF_NUM });
    expect(lines[0]).not.toMatch(/4111[ -]1111[ -]1111[ -]1111/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'kart 411111******1111 ile ödeme', note: '411111******1111', ref: FREE_TEXT_REF, RetrefNum: RETREF_NUM });
  });
});
