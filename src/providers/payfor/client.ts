// PayFor's XML API (XMLGate.aspx) as a BankClient: one <PayforRequest> per call, posted as
// text/xml as mewebstudio/pos sends it; the answer is read by xml.ts. What the logger sees is
// scrubbed: the card number keeps its last four digits and the order ids stay whole
// (domain/card-masking.ts); the expiry, CVV2, holder's name, the API password and every hash go.
import { scrubCardData } from '../../domain/card-masking.ts';
import { BankClient, type BankClientOptions, type BankWire } from '../bank-pos/client.ts';
import { parsePayforAnswer, payforRequestXml, type PayforAnswer, type PayforRequest } from './xml.ts';

export const PAYFOR_PROVIDER_ID = 'payfor';

const DROP = new Set(['Expiry', 'Cvv2', 'CardHolderName', 'UserPass', 'MerchantPass', 'Hash', 'ResponseHash']);

const WIRE: BankWire<PayforRequest, PayforAnswer> = {
  providerId: PAYFOR_PROVIDER_ID,
  name: 'PayFor',
  serialise: (request) => ({ body: payforRequestXml(request), headers: { 'Content-Type': 'text/xml; charset=UTF-8' } }),
  read: parsePayforAnswer,
  scrub: (value) => scrubCardData(value, { drop: DROP, show: { Pan: (pan) => `****${pan.slice(-4)}` } }),
};

export class PayforClient extends BankClient<PayforRequest, PayforAnswer> {
  constructor(options: BankClientOptions) {
    super(WIRE, options);
  }
}
