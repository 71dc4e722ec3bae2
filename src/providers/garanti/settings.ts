// A payment account's Garanti BBVA virtual POS (GVP) credentials and settings, as the merchant
// enters them. GVP knows a merchant by its merchant id (terminalmerchantid) and terminal id, and
// two terminal users: PROVAUT authorises sales and order inquiries, PROVRFN refunds and voids;
// each has its own password, which never travels: requests carry a SHA-1 of it (hash.ts). The
// store key ("3D secure key") signs the 3D form and the bank's answer to it. The settings say
// which GVP (test or production), which 3D model ('3d': the bank authenticates, the gateway then
// authorises over the XML API; '3d_pay': the bank authenticates and charges in one go) and, for an
// emulator, other addresses.
import type { z } from 'zod';
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankModelField, bankSettingsSchema, digitsField as digits, gateAndApi, secretField as secret } from '../bank-pos/settings.ts';

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

export const garantiCredentialsSchema = bankCredentialsSchema({
  merchant_id: digits(20),
  // Hashed left-padded to 9 digits (hash.ts), so it cannot be longer.
  terminal_id: digits(9),
  provision_user: secret(),
  provision_password: secret(),
  refund_user: secret(),
  refund_password: secret(),
  store_key: secret(),
});
export type GarantiCredentials = z.output<typeof garantiCredentialsSchema>;

export const garantiSettingsSchema = bankSettingsSchema({ model: bankModelField(['3d', '3d_pay']), ...addressFields(['gate_url', 'api_url']) });
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
  return gateAndApi(settings, GARANTI_URLS);
}

/** GVP's <Mode>/mode: TEST on the test system, PROD on production. */
export function garantiMode(settings: GarantiSettings): 'TEST' | 'PROD' {
  return settings.environment === 'production' ? 'PROD' : 'TEST';
}
