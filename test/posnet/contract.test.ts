// Yapı Kredi PosNet's connector and emulator pass the bank POS contract (test/helpers/bank-contract.ts),
// in the account shape the catalog builds.
import { startPosnetEmulator, type PosnetEmulator } from '../../emulators/posnet/server.ts';
import { posnetProvider } from '../../src/providers/posnet/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';
import { POSNET_CARDS, posnetCredentials, posnetSettings } from './fixtures.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

bankContract<PosnetEmulator>({
  name: 'Yapı Kredi PosNet',
  start: () => startPosnetEmulator({ port: 0 }),
  connect: (emulator, log) =>
    posnetProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect({
      id: 'acc',
      credentials: posnetCredentials(emulator),
      settings: posnetSettings(emulator),
    }),
  cards: { approved: card(POSNET_CARDS.approved), declined: card(POSNET_CARDS.doNotHonour), notAuthenticated: card(POSNET_CARDS.mdStatus0) },
});
