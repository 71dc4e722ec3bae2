// The gateway moving money through VakıfBank's PayFlex, played by the repo's PayFlex emulator (real
// HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is a PayFlex
// account pointed at it (test/helpers/bank.ts), the emulator's own books, and the shopper's 3-D
// step without a browser (the ACS form, the ACS, the MPI's result posted back).
import { startPayflexEmulator, type PayflexEmulator } from '../../emulators/payflex/server.ts';
import { answerBankAcs, bankFormOf, bankOrder, seedBankMerchant, setBankBehaviour, useBankEmulator } from '../helpers/bank.ts';
import type { Merchant, TestGateway } from '../helpers/gateway.ts';

/** The shared test cards (emulators/bank/cards.ts). */
export const PAYFLEX_CARDS = {
  approved: '4506349116608409',
  mastercard: '5400619360964581',
  insufficientFunds: '4000000000005100',
  doNotHonour: '4000000000000507',
  notAuthenticated: '4000000000990004',
  halfSecure: '4000000000994006',
} as const;

export const usePayflexEmulator = (): { emulator: PayflexEmulator } => useBankEmulator(startPayflexEmulator);

export const payflexCredentials = (e: PayflexEmulator) => ({ merchant_id: e.merchantId, merchant_password: e.password, terminal_no: e.terminalNo });

/** A workspace whose only account is a PayFlex account on the emulator, made its default. */
export function seedPayflexMerchant(t: TestGateway, e: PayflexEmulator, opts: { timeoutMs?: number; installmentRatesBp?: number[] } = {}): Promise<Merchant> {
  return seedBankMerchant(t, {
    provider: 'payflex',
    name: 'VakıfBank',
    credentials: payflexCredentials(e),
    settings: { environment: 'test', model: '3d', enrollment_url: e.enrollmentUrl, api_url: e.apiUrl, query_url: e.queryUrl, timeout_ms: opts.timeoutMs ?? 60_000 },
    ...(opts.installmentRatesBp ? { installmentRatesBp: opts.installmentRatesBp } : {}),
  });
}

export interface EmulatorOrder {
  orderId: string;
  txns: Array<{ type: string; code: string; amount: number; transactionId: string }>;
  charged: number;
  refunded: number;
}

/** The emulator's order, read over its control API as any client would. */
export const payflexOrder = (e: PayflexEmulator, orderId: string) => bankOrder<EmulatorOrder>(e, orderId);

export const setPayflexBehaviour = setBankBehaviour;

/** What a browser does from the redirect address: the ACS form, the ACS's `decision`, the MPI's result it posts back. */
export async function answerPayflexAcs(redirectUrl: string, decision: 'approve' | 'decline'): Promise<{ form: { action: string; fields: Record<string, string> }; fields: Record<string, string> }> {
  const form = await bankFormOf(redirectUrl);
  return { form, fields: (await answerBankAcs(form, decision)).fields };
}
