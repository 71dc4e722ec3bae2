// The gateway moving money through Garanti BBVA's virtual POS, played by the repo's GVP emulator
// (real HTTP on 127.0.0.1): one emulator per test file, a workspace whose default account is a
// Garanti account pointed at it (credentials encrypted as the dashboard stores them), the
// emulator's own record of orders, and the shopper's 3-D Secure step without a browser (the
// gateway's bank form -> the emulator's gate -> its ACS -> the signed callback form).
import { startGarantiEmulator, type GarantiEmulator } from '../../emulators/garanti/server.ts';
import type { Order } from '../../emulators/garanti/state.ts';
import type { Currency } from '../../src/domain/money.ts';
import { addBankAccount, answerBankAcs, bankCalls, bankState, postBankForm, seedBankMerchant, setBankBehaviour, useBankEmulator, type BankAccount } from './bank.ts';
import type { Merchant, SeedOptions, TestGateway } from './gateway.ts';

export { bankFormOf } from './bank.ts';

/** The emulator's test cards (emulators/garanti/cards.ts). */
export const GARANTI_CARDS = {
  approved: '4282209027132016',
  approvedMastercard: '5406675406675403',
  insufficientFunds: '4000000000005100',
  doNotHonour: '4000000000000507',
  expired: '4000000000005407',
  mdStatus0: '4000000000990004',
  mdStatus4: '4000000000994006',
} as const;

export interface GarantiFixture {
  emulator: GarantiEmulator;
}

/** Starts an emulator before the file's tests (stopped after them); each test starts with no behaviour rules. */
export const useGarantiEmulator = (): GarantiFixture => useBankEmulator(startGarantiEmulator);

export interface GarantiAccountOptions {
  model?: '3d' | '3d_pay';
  timeoutMs?: number;
  currencies?: Currency[];
  /** The account's monthly instalment rates in basis points, index = count - 1 (installmentRatesBp). */
  installmentRatesBp?: number[];
  isDefault?: boolean;
}

/** The credentials JSON a merchant enters for the emulator's terminal. */
export function garantiCredentials(emulator: GarantiEmulator): Record<string, string> {
  return {
    merchant_id: emulator.merchantId,
    terminal_id: emulator.terminalId,
    provision_user: emulator.provisionUser,
    provision_password: emulator.provisionPassword,
    refund_user: emulator.refundUser,
    refund_password: emulator.refundPassword,
    store_key: emulator.storeKey,
  };
}

const garantiAccount = (emulator: GarantiEmulator, opts: GarantiAccountOptions): BankAccount => ({
  provider: 'garanti',
  name: 'Garanti BBVA',
  credentials: garantiCredentials(emulator),
  settings: { environment: 'test', model: opts.model ?? '3d', gate_url: emulator.gateUrl, api_url: emulator.apiUrl, timeout_ms: opts.timeoutMs ?? 60_000, lang: 'en' },
  ...(opts.installmentRatesBp ? { installmentRatesBp: opts.installmentRatesBp } : {}),
  ...(opts.currencies ? { currencies: opts.currencies } : {}),
  ...(opts.isDefault === undefined ? {} : { isDefault: opts.isDefault }),
});

/** A Garanti payment account on the emulator, as the dashboard stores one. */
export function addGarantiAccount(t: TestGateway, workspaceId: string, emulator: GarantiEmulator, opts: GarantiAccountOptions = {}): Promise<string> {
  return addBankAccount(t, workspaceId, garantiAccount(emulator, opts));
}

/** A workspace whose only account is a Garanti account on the emulator, made its default. */
export function seedGarantiMerchant(t: TestGateway, emulator: GarantiEmulator, opts: GarantiAccountOptions & Omit<SeedOptions, 'defaultAccount'> = {}): Promise<Merchant> {
  return seedBankMerchant(t, garantiAccount(emulator, opts), opts);
}

export type EmulatorOrder = Order & { charged: number; refunded: number };

/** What the emulator holds, read over its control API as any client would. */
export const garantiState = (emulator: GarantiEmulator) => bankState<{ orders: EmulatorOrder[]; threeDSessions: Array<Record<string, unknown>> }>(emulator);

/** The emulator's order for a payment (its providerReference starts with GVP's order id). */
export async function garantiOrderOf(t: TestGateway, emulator: GarantiEmulator, paymentId: string): Promise<EmulatorOrder | undefined> {
  const row = await t.gateway.services.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const orderId = row.providerReference?.split(':')[0];
  return (await garantiState(emulator)).orders.find((o) => o.orderId === orderId);
}

/** Sets what the next calls do (decline, fail, timeout, slow), over the control API. */
export const setGarantiBehaviour = setBankBehaviour;

export const postForm = postBankForm;

/**
 * What a browser does with the bank form: posts it to GVP's gate, presses `decision` on the ACS
 * page (a card whose ACS answers without a challenge skips it) and reads the page that posts the
 * signed callback. Returns that form: where it posts (the gateway's callback address) and its fields.
 */
export const answerGarantiAcs = (form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline') => answerBankAcs(form, decision);

export interface LoggedExchange {
  operation: string;
  [key: string]: unknown;
}

/** The gateway's calls to GVP so far, from its log (scrubbed exchanges), oldest first. */
export const garantiCalls = (t: TestGateway, operation?: string): LoggedExchange[] => bankCalls(t, 'garanti', operation);
