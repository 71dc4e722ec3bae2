// The gateway and the connector moving money through Kuveyt Türk's KuveytPOS, played by the repo's
// emulator (real HTTP on 127.0.0.1): the account as the catalog builds it, the emulator's test
// cards and books, and the shopper's 3-D trip without a browser.
import { startKuveytEmulator, type KuveytEmulator } from '../../emulators/kuveytpos/server.ts';
import type { Order } from '../../emulators/kuveytpos/state.ts';
import { answerBankAcs, bankCalls, bankFormOf, bankState, setBankBehaviour, useBankEmulator, type BankAccount } from '../helpers/bank.ts';
import type { TestGateway } from '../helpers/gateway.ts';

/** The emulator's test cards (emulators/bank/cards.ts). */
export const KUVEYT_CARDS = {
  approved: '4506349116608409',
  mastercard: '5400619360964581',
  insufficientFunds: '4000000000005100',
  doNotHonour: '4000000000000507',
  notAuthenticated: '4000000000990004',
} as const;

export const useKuveytEmulator = (): { emulator: KuveytEmulator } => useBankEmulator(startKuveytEmulator);

export function kuveytCredentials(emulator: KuveytEmulator): Record<string, string> {
  return { merchant_id: emulator.merchantId, customer_id: emulator.customerId, user_name: emulator.userName, password: emulator.password };
}

export function kuveytSettings(emulator: KuveytEmulator, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { environment: 'test', gate_url: emulator.gateUrl, payment_url: emulator.paymentUrl, query_url: emulator.queryUrl, ...extra };
}

/** The account as the registry hands it to `connect`. */
export function kuveytAccount(emulator: KuveytEmulator, extra: Record<string, unknown> = {}) {
  return { id: 'acc', credentials: kuveytCredentials(emulator), settings: kuveytSettings(emulator, extra) };
}

/** The account as test/helpers/bank.ts stores it in a gateway. */
export function kuveytBankAccount(emulator: KuveytEmulator, extra: { timeout_ms?: number; installmentRatesBp?: number[] } = {}): BankAccount {
  const { installmentRatesBp, ...settings } = extra;
  return { provider: 'kuveytpos', name: 'Kuveyt Türk', credentials: kuveytCredentials(emulator), settings: kuveytSettings(emulator, settings), ...(installmentRatesBp ? { installmentRatesBp } : {}) };
}

/** The emulator's order for our order id (its MerchantOrderId), read over its control API as any client would. */
export async function kuveytOrder(emulator: KuveytEmulator, merchantOrderId: string): Promise<Order | undefined> {
  return (await bankState<{ orders: Order[] }>(emulator)).orders.find((o) => o.merchantOrderId === merchantOrderId);
}

export const setKuveytBehaviour = setBankBehaviour;

export interface AcsTrip {
  /** The form the gateway's redirect page posts (id "bank"): KuveytPOS's, to its ACS. */
  bankForm: { action: string; fields: Record<string, string> };
  callbackUrl: string;
  fields: Record<string, string>;
}

/** What a browser does from the gateway's redirect address: the bank's form, `decision` on the ACS page (when it asks), the page posting the AuthenticationResponse. */
export async function acsTrip(redirectUrl: string, decision: 'approve' | 'decline'): Promise<AcsTrip> {
  const bankForm = await bankFormOf(redirectUrl);
  return { bankForm, ...(await answerBankAcs(bankForm, decision)) };
}

/** The AuthenticationResponse's XML, and the same posted back after `edit`. */
export const authXml = (fields: Record<string, string>): string => decodeURIComponent(fields.AuthenticationResponse!);
export const editAuth = (fields: Record<string, string>, edit: (xml: string) => string): Record<string, string> => ({ AuthenticationResponse: encodeURIComponent(edit(authXml(fields))) });

/** The gateway's calls to KuveytPOS so far, from its log (scrubbed exchanges), oldest first. */
export const kuveytCalls = (t: TestGateway, operation?: string) => bankCalls(t, 'kuveytpos', operation);
