// Kuveyt Türk KuveytPOS's connector and emulator pass the bank POS contract
// (test/helpers/bank-contract.ts), in the account shape the catalog builds.
import { startKuveytEmulator, type KuveytEmulator } from '../../emulators/kuveytpos/server.ts';
import { kuveytPosProvider } from '../../src/providers/kuveytpos/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';
import { KUVEYT_CARDS, kuveytAccount } from './helpers.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

bankContract<KuveytEmulator>({
  name: 'Kuveyt Türk KuveytPOS',
  start: () => startKuveytEmulator({ port: 0 }),
  connect: (emulator, log) => kuveytPosProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect(kuveytAccount(emulator)),
  cards: { approved: card(KUVEYT_CARDS.approved), declined: card(KUVEYT_CARDS.doNotHonour), notAuthenticated: card(KUVEYT_CARDS.notAuthenticated) },
});
