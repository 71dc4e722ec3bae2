// KuveytPOS's wire as BankClients (one per address: the 3-D gate, the payment API's two gates and
// the SOAP service): a payment message posted as text/xml, a SOAP call with its SOAPAction header,
// as mewebstudio/pos sends them; the answer read by xml.ts. What the logger sees is scrubbed: the
// card number keeps its last four digits and the order ids stay whole (domain/card-masking.ts);
// the expiry, CVV2, holder's name, the MD, every hash and the echoed hashed password go.
import { scrubCardData } from '../../domain/card-masking.ts';
import { BankClient, type BankClientOptions, type BankWire } from '../bank-pos/client.ts';
import { kuveytRequestXml, parseKuveytAnswer, soapAction, type KuveytAnswer, type KuveytRequest } from './xml.ts';

export const KUVEYTPOS_PROVIDER_ID = 'kuveytpos';

const DROP = new Set(['CardExpireDateYear', 'CardExpireDateMonth', 'CardCVV2', 'CardHolderName', 'HashData', 'HashPassword', 'MD', 'Data', 'AuthenticationPacket']);

const WIRE: BankWire<KuveytRequest, KuveytAnswer> = {
  providerId: KUVEYTPOS_PROVIDER_ID,
  name: 'KuveytPOS',
  serialise: (request) => ({
    body: kuveytRequestXml(request),
    headers: { 'Content-Type': 'text/xml; charset=UTF-8', ...(request.kind === 'soap' ? { SOAPAction: soapAction(request.action) } : {}) },
  }),
  read: parseKuveytAnswer,
  scrub: (value) => scrubCardData(value, { drop: DROP, show: { CardNumber: (pan) => `****${pan.slice(-4)}` } }),
};

export class KuveytClient extends BankClient<KuveytRequest, KuveytAnswer> {
  constructor(options: BankClientOptions) {
    super(WIRE, options);
  }
}
