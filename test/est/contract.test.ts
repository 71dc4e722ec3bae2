// EST's connector and emulator pass the bank POS contract (test/helpers/bank-contract.ts), in the
// account shape the catalog builds.
import { startEstEmulator, type EstEmulator } from '../../emulators/est/server.ts';
import { estProvider } from '../../src/providers/est/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';
import { EST_CARDS, estSettings } from '../helpers/est.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '000', expiryMonth: '12', expiryYear: '2030' });

bankContract<EstEmulator>({
  name: 'EST',
  start: () => startEstEmulator({ port: 0 }),
  connect: (emulator, log) =>
    estProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect({
      id: 'acc',
      credentials: { client_id: emulator.clientId, store_key: emulator.storeKey, api_user: emulator.apiUser, api_password: emulator.apiPassword },
      settings: estSettings(emulator),
    }),
  cards: { approved: card(EST_CARDS.approved), declined: card(EST_CARDS.doNotHonour), notAuthenticated: card(EST_CARDS.mdStatus0) },
});
