// The gateway moving money through QNB Finansbank's PayFor, played by the repo's PayFor emulator
// (real HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is a
// PayFor account pointed at it, the emulator's own books, and the shopper's 3-D Secure step
// without a browser, each as every bank does it (test/helpers/bank.ts).
import { startPayforEmulator, type PayforEmulator } from '../../emulators/payfor/server.ts';
import type { Order } from '../../emulators/payfor/state.ts';
import type { PayforCredentials } from '../../src/providers/payfor/settings.ts';
import { answerBankAcs, bankCalls, bankOrder, seedBankMerchant, setBankBehaviour, useBankEmulator } from '../helpers/bank.ts';
import type { Merchant, TestGateway } from '../helpers/gateway.ts';

export { bankFormOf } from '../helpers/bank.ts';

/** The emulator's test cards (emulators/payfor/cards.ts). */
export const PAYFOR_CARDS = {
  approved: '4155650100416111',
  doNotHonour: '4000000000000507',
  insufficientFunds: '4000000000005100',
  notAuthenticated: '4000000000990004',
  halfSecure: '4000000000994006',
  openBatch: '4000000000080012',
} as const;

export const usePayforEmulator = (): { emulator: PayforEmulator } => useBankEmulator(startPayforEmulator);

export function payforCredentials(emulator: PayforEmulator): PayforCredentials {
  return { merchant_id: emulator.merchantId, user_code: emulator.userCode, user_password: emulator.userPassword, store_key: emulator.storeKey };
}

/** A workspace whose only account is a PayFor account on the emulator, made its default. */
export function seedPayforMerchant(t: TestGateway, emulator: PayforEmulator, opts: { model?: '3d' | '3d_pay'; timeoutMs?: number } = {}): Promise<Merchant> {
  return seedBankMerchant(t, {
    provider: 'payfor',
    name: 'QNB Finansbank',
    credentials: payforCredentials(emulator),
    settings: { environment: 'test', model: opts.model ?? '3d', gate_url: emulator.gateUrl, api_url: emulator.apiUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'en' },
  });
}

export type EmulatorOrder = Order & { charged: number; refunded: number };

/** The emulator's order for an order id, read over its control API as any client would. */
export const payforOrder = (emulator: PayforEmulator, orderId: string) => bankOrder<EmulatorOrder>(emulator, orderId);

export const setPayforBehaviour = setBankBehaviour;

/** What a browser does with the bank form: the gate, `decision` on the ACS page (when it asks), the page posting the signed callback. */
export const answerPayforAcs = (form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline') => answerBankAcs(form, decision);

/** The gateway's calls to PayFor so far, from its log (scrubbed exchanges), oldest first. */
export const payforCalls = (t: TestGateway, operation?: string) => bankCalls(t, 'payfor', operation);
