// PayFlex's three addresses as BankClients (../bank-pos/client.ts): the MPI's enrollment (form
// fields), the VPOS (a <VposRequest> in the form field `prmstr`) and the search (a <SearchRequest>
// the same way), as mewebstudio/pos PayFlexV4Pos::send posts them. Every answer is read by xml.ts.
// What the logger sees is scrubbed: the card number keeps its last four digits, order and
// transaction ids stay whole (domain/card-masking.ts); the expiry, CVV, holder's name, the
// merchant's password, the authentication's CAVV, our seal and the ACS form's PaReq and MD go.
import { scrubCardData } from '../../domain/card-masking.ts';
import { BankClient, type BankClientOptions, type BankWire } from '../bank-pos/client.ts';
import type { PayflexAnswer } from './answers.ts';
import { parsePayflexXml, prmstrBody, searchRequestXml, vposRequestXml, type PayflexFields } from './xml.ts';

export const PAYFLEX_PROVIDER_ID = 'payflex';

const DROP = new Set(['Expiry', 'ExpiryDate', 'Cvv', 'CardHoldersName', 'Password', 'MerchantPassword', 'CAVV', 'Cavv', 'SessionInfo', 'PaReq', 'MD']);
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' };

const wire = <R>(serialise: (request: R) => string): BankWire<R, PayflexAnswer> => ({
  providerId: PAYFLEX_PROVIDER_ID,
  name: 'PayFlex',
  serialise: (request) => ({ body: serialise(request), headers: FORM }),
  read: parsePayflexXml,
  scrub: (value) => scrubCardData(value, { drop: DROP, show: { Pan: (pan) => `****${pan.slice(-4)}` } }),
});

export const ENROLLMENT_WIRE = wire<Record<string, string>>((fields) => new URLSearchParams(fields).toString());
export const VPOS_WIRE = wire<PayflexFields>((request) => prmstrBody(vposRequestXml(request)));
export const SEARCH_WIRE = wire<PayflexFields>((request) => prmstrBody(searchRequestXml(request)));

export interface PayflexClients {
  enrollment: BankClient<Record<string, string>, PayflexAnswer>;
  vpos: BankClient<PayflexFields, PayflexAnswer>;
  search: BankClient<PayflexFields, PayflexAnswer>;
}

export function payflexClients(urls: { enrollment: string; api: string; query: string }, options: Omit<BankClientOptions, 'apiUrl'>): PayflexClients {
  return {
    enrollment: new BankClient(ENROLLMENT_WIRE, { ...options, apiUrl: urls.enrollment }),
    vpos: new BankClient(VPOS_WIRE, { ...options, apiUrl: urls.api }),
    search: new BankClient(SEARCH_WIRE, { ...options, apiUrl: urls.query }),
  };
}
