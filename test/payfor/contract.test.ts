// QNB Finansbank PayFor's connector and emulator pass the bank POS contract
// (test/helpers/bank-contract.ts), in the account shape the catalog builds, in both 3D models.
import { startPayforEmulator, type PayforEmulator } from '../../emulators/payfor/server.ts';
import { payforProvider } from '../../src/providers/payfor/index.ts';
import { bankContract } from '../helpers/bank-contract.ts';

const card = (number: string) => ({ holderName: 'Ayşe Kaya', number, securityCode: '123', expiryMonth: '12', expiryYear: '2030' });

for (const model of ['3d', '3d_pay'] as const) {
  bankContract<PayforEmulator>({
    name: `QNB Finansbank PayFor (${model})`,
    start: () => startPayforEmulator({ port: 0 }),
    connect: (emulator, log) =>
      payforProvider({ now: () => new Date(), baseUrl: () => 'http://127.0.0.1', key: () => Buffer.alloc(32), log: (_msg, fields) => log(fields) }).connect({
        id: 'acc',
        credentials: { merchant_id: emulator.merchantId, user_code: emulator.userCode, user_password: emulator.userPassword, store_key: emulator.storeKey },
        settings: { environment: 'test', model, gate_url: emulator.gateUrl, api_url: emulator.apiUrl },
      }),
    cards: { approved: card('4155650100416111'), declined: card('4000000000000507'), notAuthenticated: card('4000000000990004') },
  });
}
