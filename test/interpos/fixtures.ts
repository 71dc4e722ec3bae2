// What the InterPOS tests share: the emulator's test cards (emulators/interpos/cards.ts) and an
// account's credentials and settings for an emulator, in the shape the catalog parses.
import type { InterPosEmulator } from '../../emulators/interpos/server.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';

export const INTERPOS_CARDS = {
  approved: '4090700090840057',
  approvedMastercard: '5406675406675403',
  doNotHonour: '4000000000000507',
  insufficientFunds: '4000000000005100',
  expired: '4000000000005407',
  wrongCvv: '4000000000008203',
  mdStatus0: '4000000000990004',
  mdStatus2: '4000000000992000',
  mdStatus4: '4000000000994006',
} as const;

export function interPosCredentials(emulator: InterPosEmulator): Record<string, string> {
  return { shop_code: emulator.shopCode, user_code: emulator.userCode, user_password: emulator.userPassword, store_key: emulator.storeKey };
}

export function interPosSettings(emulator: InterPosEmulator, model: InterPosModel = '3d'): Record<string, unknown> {
  return { environment: 'test', model, gate_url: emulator.gateUrl, host_url: emulator.hostUrl, api_url: emulator.apiUrl };
}
