// The gateway moving money through InterPOS, played by the emulator (real HTTP on 127.0.0.1): a
// workspace whose only account is an InterPOS account on it, the emulator's books, and the
// shopper's trip without a browser, each as every bank does it (test/helpers/bank.ts).
import { startInterPosEmulator, type InterPosEmulator } from '../../emulators/interpos/server.ts';
import type { InterPosModel } from '../../src/providers/interpos/settings.ts';
import { answerBankAcs, bankCalls, seedBankMerchant, useBankEmulator } from '../helpers/bank.ts';
import type { Merchant, TestGateway } from '../helpers/gateway.ts';
import { interPosCredentials, interPosSettings } from './fixtures.ts';

export { bankFormOf } from '../helpers/bank.ts';

export const useInterPosEmulator = (): { emulator: InterPosEmulator } => useBankEmulator(startInterPosEmulator);

/** A workspace whose only account (its default) is an InterPOS account on the emulator. */
export function seedInterPosMerchant(t: TestGateway, emulator: InterPosEmulator, model: InterPosModel = '3d', settings: Record<string, unknown> = {}): Promise<Merchant> {
  return seedBankMerchant(t, {
    provider: 'interpos',
    name: 'Denizbank InterPOS',
    credentials: interPosCredentials(emulator),
    settings: { ...interPosSettings(emulator, model), lang: 'en', ...settings },
  });
}

/**
 * What a browser does with the bank form: posts it to InterPOS (for 3D Host, then types `card` on
 * its page), presses `decision` on the ACS (a card whose ACS answers without a challenge skips it)
 * and reads the page that posts the signed callback: where it posts and its fields.
 */
export const answerInterPos = (form: { action: string; fields: Record<string, string> }, decision: 'approve' | 'decline', card?: Record<string, string>) => answerBankAcs(form, decision, card);

/** The gateway's calls to InterPOS so far, from its log (scrubbed exchanges). */
export const interPosCalls = (t: TestGateway, operation?: string) => bankCalls(t, 'interpos', operation);
