// A simulator account that plays a provider outage, for trying routing and cascade in a demo and
// for testing them: setting `outage` = `errors` answers every payment call (charge, 3D start) with
// the provider's own technical error, `unreachable` fails them as if the connection were refused.
// Everything else (refunds, inquiries, BIN facts, cards) is the plain simulator's. `none` (or an
// empty value, `--setting outage=`) ends the outage at once: the setting is dropped, and the
// registry builds an account's connector again when its settings change.
import { z } from 'zod';
import { ProviderUnreachableError, type ChargeInput, type ChargeResult, type Connector, type ProviderFailure, type Start3DInput, type Start3DResult } from './types.ts';

export const OUTAGES = ['errors', 'unreachable'] as const;
export type Outage = (typeof OUTAGES)[number];

/** What the `outage` setting takes: an outage, or `none` to end one. */
export const OUTAGE_SETTINGS = ['none', ...OUTAGES] as const;

export const simulatorSettings = z
  .object({
    outage: z
      .preprocess((v) => (v === '' ? 'none' : v), z.enum(OUTAGE_SETTINGS, { error: 'value_not_allowed' }))
      .optional()
      // Stored as parsed: an account without an outage has no `outage` at all.
      .transform((v): Outage | undefined => (v === 'none' ? undefined : v)),
  })
  .strict();

const DOWN: ProviderFailure = { status: 'error', code: 'provider_error', message: 'Banka sistem hatası', providerCode: 'outage', providerMessage: 'Simulated outage' };

/** The simulator bank as an account in `outage` sees it. */
export function withOutage(bank: Connector, outage: Outage | undefined): Connector {
  if (!outage) return bank;
  const fail = (operation: string): Promise<ProviderFailure> => (outage === 'errors' ? Promise.resolve(DOWN) : Promise.reject(new ProviderUnreachableError(bank.provider, operation)));
  // Everything but the two payment calls is the bank's own (its prototype).
  return Object.assign(Object.create(bank) as Connector, {
    charge: (_input: ChargeInput): Promise<ChargeResult> => fail('charge'),
    start3D: (_input: Start3DInput): Promise<Start3DResult> => fail('start3D'),
  });
}
