// The gateway moving money through Akbank's virtual POS, played by the repo's Akbank emulator
// (real HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is an
// Akbank account pointed at it, the emulator's own books, and the shopper's 3-D Secure step
// without a browser, each as every bank does it (test/helpers/bank.ts).
import { startAkbankEmulator, type AkbankEmulator } from '../../emulators/akbank-pos/server.ts';
import type { Order } from '../../emulators/akbank-pos/state.ts';
import type { AkbankPosCredentials } from '../../src/providers/akbank-pos/settings.ts';
import { answerBankAcs, bankCalls, bankOrder, seedBankMerchant, setBankBehaviour, useBankEmulator } from '../helpers/bank.ts';
import type { Merchant, TestGateway } from '../helpers/gateway.ts';

export { bankFormOf } from '../helpers/bank.ts';

/** The emulator's test cards (emulators/akbank-pos/cards.ts). */
export const AKBANK_CARDS = {
  approved: '4355093000315232',
  doNotHonour: '4000000000000507',
  insufficientFunds: '4000000000005100',
  notAuthenticated: '4000000000990004',
  halfSecure: '4000000000994006',
} as const;

export type AkbankModel = '3d' | '3d_pay' | '3d_host';

export const useAkbankEmulator = (): { emulator: AkbankEmulator } => useBankEmulator(startAkbankEmulator);

export function akbankCredentials(emulator: AkbankEmulator): AkbankPosCredentials {
  return { merchant_safe_id: emulator.merchantSafeId, terminal_safe_id: emulator.terminalSafeId, secret_key: emulator.secretKey };
}

/** A workspace whose only account is an Akbank account on the emulator, made its default. */
export function seedAkbankMerchant(t: TestGateway, emulator: AkbankEmulator, opts: { model?: AkbankModel; timeoutMs?: number } = {}): Promise<Merchant> {
  return seedBankMerchant(t, {
    provider: 'akbank-pos',
    name: 'Akbank',
    credentials: akbankCredentials(emulator),
    settings: { environment: 'test', model: opts.model ?? '3d', api_url: emulator.apiUrl, gate_url: emulator.gateUrl, host_gate_url: emulator.hostGateUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'en' },
  });
}

export type EmulatorOrder = Order & { charged: number; refunded: number };

/** The emulator's order for an order id, read over its control API as any client would. */
export const akbankOrder = (emulator: AkbankEmulator, orderId: string) => bankOrder<EmulatorOrder>(emulator, orderId);

/** The order's transactions as "txnCode:responseCode:amount[:V]" (V: cancelled since). */
export async function txnsAt(emulator: AkbankEmulator, orderId: string): Promise<string[]> {
  const order = await akbankOrder(emulator, orderId);
  return order?.txns.map((x) => `${x.txnCode}:${x.responseCode}:${x.amount}${x.txnStatus === 'V' ? ':V' : ''}`) ?? [];
}

export const setAkbankBehaviour = setBankBehaviour;

/**
 * What a browser does with the bank form: the gate (in the 3D Host model, the bank's card page
 * filled with `card`), `decision` on the ACS page when it asks, the page posting the signed callback.
 */
export const answerAkbankAcs = (form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline', card?: { creditCard: string; expiredDate: string; cvv: string }) => answerBankAcs(form, decision, card);

/** The gateway's calls to Akbank so far, from its log (scrubbed exchanges), oldest first. */
export const akbankCalls = (t: TestGateway, operation?: string) => bankCalls(t, 'akbank-pos', operation);
