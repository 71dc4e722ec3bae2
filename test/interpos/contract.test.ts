// Denizbank InterPOS's connector and emulator pass the bank POS contract
// (test/helpers/bank-contract.ts), in the account shape the catalog builds.
import { startInterPosEmulator, type InterPosEmulator } from '../../emulators/interpos/server.ts';
import { interPosProvider } from '../../src/providers/interpos/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';
import { INTERPOS_CARDS, interPosCredentials, interPosSettings } from './fixtures.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '592', expiryMonth: '12', expiryYear: '2030' });

bankContract<InterPosEmulator>({
  name: 'Denizbank InterPOS',
  start: () => startInterPosEmulator({ port: 0 }),
  connect: (emulator, log) =>
    interPosProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect({
      id: 'acc',
      credentials: interPosCredentials(emulator),
      settings: interPosSettings(emulator),
    }),
  cards: { approved: card(INTERPOS_CARDS.approved), declined: card(INTERPOS_CARDS.doNotHonour), notAuthenticated: card(INTERPOS_CARDS.mdStatus0) },
});
