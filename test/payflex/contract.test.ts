// VakıfBank PayFlex's connector and emulator pass the bank POS contract
// (test/helpers/bank-contract.ts), in the account shape the catalog builds.
import { startPayflexEmulator, type PayflexEmulator } from '../../emulators/payflex/server.ts';
import { payflexProvider } from '../../src/providers/payflex/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

bankContract<PayflexEmulator>({
  name: 'VakıfBank PayFlex (3d)',
  start: () => startPayflexEmulator({ port: 0 }),
  connect: (emulator, log) =>
    payflexProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32, 7), log: (_msg, fields) => log(fields) }).connect({
      id: 'acc',
      credentials: { merchant_id: emulator.merchantId, merchant_password: emulator.password, terminal_no: emulator.terminalNo },
      settings: { environment: 'test', model: '3d', enrollment_url: emulator.enrollmentUrl, api_url: emulator.apiUrl, query_url: emulator.queryUrl },
    }),
  cards: { approved: card('4506349116608409'), declined: card('4000000000000507'), notAuthenticated: card('4000000000990004') },
});
