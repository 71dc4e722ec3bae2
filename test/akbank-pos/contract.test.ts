// Akbank's virtual POS connector and emulator pass the bank POS contract
// (test/helpers/bank-contract.ts), in the account shape the catalog builds, in the 3D and 3D Pay
// models (the 3D Host model's card page is walked in three-ds.test.ts).
import { startAkbankEmulator, type AkbankEmulator } from '../../emulators/akbank-pos/server.ts';
import { akbankPosProvider } from '../../src/providers/akbank-pos/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

for (const model of ['3d', '3d_pay'] as const) {
  bankContract<AkbankEmulator>({
    name: `Akbank POS (${model})`,
    start: () => startAkbankEmulator({ port: 0 }),
    connect: (emulator, log) =>
      akbankPosProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect({
        id: 'acc',
        credentials: { merchant_safe_id: emulator.merchantSafeId, terminal_safe_id: emulator.terminalSafeId, secret_key: emulator.secretKey },
        settings: { environment: 'test', model, api_url: emulator.apiUrl, gate_url: emulator.gateUrl },
      }),
    cards: { approved: card('4355093000315232'), declined: card('4000000000000507'), notAuthenticated: card('4000000000990004') },
  });
}
