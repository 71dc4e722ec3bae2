// Garanti BBVA's connector and emulator pass the bank POS contract (test/helpers/bank-contract.ts),
// in the account shape the catalog builds.
import { startGarantiEmulator, type GarantiEmulator } from '../../emulators/garanti/server.ts';
import { garantiProvider } from '../../src/providers/garanti/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';
import { GARANTI_CARDS, garantiCredentials } from '../helpers/garanti.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

bankContract<GarantiEmulator>({
  name: 'Garanti BBVA',
  start: () => startGarantiEmulator({ port: 0 }),
  connect: (emulator, log) =>
    garantiProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect({
      id: 'acc',
      credentials: garantiCredentials(emulator),
      settings: { environment: 'test', model: '3d', gate_url: emulator.gateUrl, api_url: emulator.apiUrl },
    }),
  cards: { approved: card(GARANTI_CARDS.approved), declined: card(GARANTI_CARDS.doNotHonour), notAuthenticated: card(GARANTI_CARDS.mdStatus0) },
});
