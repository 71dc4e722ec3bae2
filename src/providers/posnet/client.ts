// PosNet's XML service as a BankClient (../bank-pos/client.ts): the <posnetRequest> in the form
// field `xmldata`, the <posnetResponse> back. The logged exchange keeps no card number beyond its
// last four digits, no expiry, CVC or holder name, and no mac (a function of the encryption key).
import { scrubCardData } from '../../domain/card-masking.ts';
import { BankClient, type BankClientOptions, type BankWire } from '../bank-pos/client.ts';
import { parsePosnetResponse, posnetBody, type XmlNode, type XmlTree } from './xml.ts';

export const POSNET_PROVIDER_ID = 'posnet';

const DROP = new Set(['expDate', 'cvc', 'cardHolderName', 'mac']);

export const scrub = (value: unknown): unknown => scrubCardData(value, { drop: DROP });

const WIRE: BankWire<XmlNode, XmlTree> = {
  providerId: POSNET_PROVIDER_ID,
  name: 'PosNet',
  serialise: (request) => ({ body: posnetBody(request), headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8', Accept: 'application/xml' } }),
  read: parsePosnetResponse,
  scrub,
};

export class PosnetClient extends BankClient<XmlNode, XmlTree> {
  constructor(options: BankClientOptions) {
    super(WIRE, options);
  }
}
