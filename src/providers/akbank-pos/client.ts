// Akbank's JSON API as a BankClient: one JSON object per call, posted as application/json with
// its HMAC-SHA512 in the `auth-hash` header (hash.ts, json.ts), as mewebstudio/pos sends it. What
// the logger sees is scrubbed: the card number keeps its last four digits and the order ids stay
// whole (domain/card-masking.ts); the expiry, CVV2, the random and every hash go.
import { scrubCardData } from '../../domain/card-masking.ts';
import { BankClient, type BankClientOptions, type BankWire } from '../bank-pos/client.ts';
import { hmacBase64 } from './hash.ts';
import { akbankJson, parseAkbankAnswer, type AkbankAnswer, type AkbankRequest } from './json.ts';

export const AKBANK_POS_PROVIDER_ID = 'akbank-pos';

const DROP = new Set(['expireDate', 'cvv2', 'cardHolderName', 'randomNumber', 'hash', 'secureData', 'secureMd', 'secureId']);

function wire(secretKey: string): BankWire<AkbankRequest, AkbankAnswer> {
  return {
    providerId: AKBANK_POS_PROVIDER_ID,
    name: 'Akbank POS',
    serialise: (request) => {
      const body = akbankJson(request);
      return { body, headers: { 'Content-Type': 'application/json', 'auth-hash': hmacBase64(body, secretKey) } };
    },
    read: parseAkbankAnswer,
    scrub: (value) => scrubCardData(value, { drop: DROP, show: { cardNumber: (pan) => `****${pan.slice(-4)}` } }),
  };
}

export class AkbankPosClient extends BankClient<AkbankRequest, AkbankAnswer> {
  constructor(secretKey: string, options: BankClientOptions) {
    super(wire(secretKey), options);
  }
}
