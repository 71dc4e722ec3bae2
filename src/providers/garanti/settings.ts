// A payment account's Garanti BBVA virtual POS (GVP) credentials and settings, as the merchant
// enters them. GVP knows a merchant by its merchant id (terminalmerchantid) and terminal id, and
// two terminal users: PROVAUT authorises sales and order inquiries, PROVRFN refunds and voids;
// each has its own password, which never travels: requests carry a SHA-1 of it (hash.ts). The
// store key ("3D secure key") signs the 3D form and the bank's answer to it. The settings say
// which GVP (test or production), which 3D model ('3d': the bank authenticates, the gateway then
// authorises over the XML API; '3d_pay': the bank authenticates and charges in one go) and, for an
// emulator, other addresses.
import { z } from 'zod';
import { timeoutSetting } from '../settings-fields.ts';
import { httpUrl, parseInput } from '../../domain/validation.ts';

/** GVP's addresses (mewebstudio/pos config/pos_test.php and config/pos_production.php). */
export const GARANTI_URLS = {
  test: {
    gate: 'https://sanalposprovtest.garantibbva.com.tr/servlet/gt3dengine',
    api: 'https://sanalposprovtest.garantibbva.com.tr/VPServlet',
  },
  production: {
    gate: 'https://sanalposprov.garanti.com.tr/servlet/gt3dengine',
    api: 'https://sanalposprov.garanti.com.tr/VPServlet',
  },
} as const;

const secret = () => z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255, { error: 'too_long' });
const digits = (max: number) =>
  z
    .string({ error: 'invalid_type' })
    .trim()
    .min(1, { error: 'required' })
    .max(max, { error: 'too_long' })
    .regex(/^\d+$/, { error: 'digits_only' });

export const garantiCredentialsSchema = z
  .object({
    merchant_id: digits(20),
    // Hashed left-padded to 9 digits (hash.ts), so it cannot be longer.
    terminal_id: digits(9),
    provision_user: secret(),
    provision_password: secret(),
    refund_user: secret(),
    refund_password: secret(),
    store_key: secret(),
  })
  .strict();
export type GarantiCredentials = z.output<typeof garantiCredentialsSchema>;

export const garantiSettingsSchema = z
  .object({
    environment: z.enum(['test', 'production'], { error: 'value_not_allowed' }).default('test'),
    model: z.enum(['3d', '3d_pay'], { error: 'value_not_allowed' }).default('3d'),
    gate_url: httpUrl().optional(),
    api_url: httpUrl().optional(),
    // How long one call may wait for GVP before its outcome counts as unknown (then asked later).
    timeout_ms: timeoutSetting(),
    // The language of GVP's 3D pages.
    lang: z.enum(['tr', 'en'], { error: 'value_not_allowed' }).default('tr'),
  })
  .strict();
export type GarantiSettings = z.output<typeof garantiSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parseGarantiCredentials(input: unknown): GarantiCredentials {
  return parseInput(garantiCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parseGarantiSettings(input: unknown): GarantiSettings {
  return parseInput(garantiSettingsSchema, input ?? {});
}

/** Where the shopper's browser posts the 3D form, and where XML requests go. */
export function garantiEndpoints(settings: GarantiSettings): { gate: string; api: string } {
  const defaults = GARANTI_URLS[settings.environment];
  return { gate: settings.gate_url ?? defaults.gate, api: settings.api_url ?? defaults.api };
}

/** GVP's <Mode>/mode: TEST on the test system, PROD on production. */
export function garantiMode(settings: GarantiSettings): 'TEST' | 'PROD' {
  return settings.environment === 'production' ? 'PROD' : 'TEST';
}
