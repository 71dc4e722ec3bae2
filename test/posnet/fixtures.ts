// A PosNet account on the emulator, and the emulator's test cards (emulators/bank/cards.ts).
import type { PosnetEmulator } from '../../emulators/posnet/server.ts';

export const POSNET_CARDS = {
  approved: '4506349116608409',
  approvedMastercard: '5400619360964581',
  insufficientFunds: '4000000000005100',
  doNotHonour: '4000000000000507',
  expired: '4000000000005407',
  mdStatus0: '4000000000990004',
  mdStatus4: '4000000000994006',
} as const;

export const posnetCredentials = (emulator: PosnetEmulator) => ({ merchant_id: emulator.merchantId, terminal_id: emulator.terminalId, posnet_id: emulator.posnetId, enc_key: emulator.encKey });

export const posnetSettings = (emulator: PosnetEmulator, opts: { timeoutMs?: number } = {}) => ({ environment: 'test', gate_url: emulator.gateUrl, api_url: emulator.apiUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'tr' });

/** The account a merchant enters for the emulator's terminal. */
export const posnetAccount = (emulator: PosnetEmulator, opts: { timeoutMs?: number } = {}) => ({
  provider: 'posnet',
  name: 'Yapı Kredi PosNet',
  credentials: posnetCredentials(emulator),
  settings: posnetSettings(emulator, opts),
});
