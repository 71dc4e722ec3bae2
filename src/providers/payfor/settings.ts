// A payment account's QNB Finansbank PayFor credentials and settings, as the merchant enters them.
// PayFor knows a merchant by its merchant id (MerchantId, "üye işyeri numarası") and one API user
// (UserCode and UserPass) that sells, refunds, voids and asks; the store key (MerchantPass, "3D
// Secure şifresi") signs the 3D form and the bank's answer to it. The settings say which PayFor
// (test or production), which 3D model ('3d': the bank authenticates, the gateway then sells over
// the XML API with the authentication's RequestGuid; '3d_pay': the bank authenticates and charges
// in one go) and, for an emulator, other addresses.
import { z } from 'zod';
import { timeoutSetting } from '../settings-fields.ts';
import { httpUrl, parseInput } from '../../domain/validation.ts';

/** PayFor's addresses (mewebstudio/pos config/pos_test.php and config/pos_production.php). */
export const PAYFOR_URLS = {
  test: {
    gate: 'https://vpostest.qnbfinansbank.com/Gateway/Default.aspx',
    api: 'https://vpostest.qnbfinansbank.com/Gateway/XMLGate.aspx',
  },
  production: {
    gate: 'https://vpos.qnbfinansbank.com/Gateway/Default.aspx',
    api: 'https://vpos.qnbfinansbank.com/Gateway/XMLGate.aspx',
  },
} as const;

/** PayFor's member (bank) code for QNB Finansbank: every request names it. */
export const QNB_MBR_ID = '5';

const secret = () => z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255, { error: 'too_long' });

export const payforCredentialsSchema = z
  .object({
    merchant_id: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(20, { error: 'too_long' }).regex(/^\d+$/, { error: 'digits_only' }),
    user_code: secret(),
    user_password: secret(),
    store_key: secret(),
  })
  .strict();
export type PayforCredentials = z.output<typeof payforCredentialsSchema>;

export const payforSettingsSchema = z
  .object({
    environment: z.enum(['test', 'production'], { error: 'value_not_allowed' }).default('test'),
    model: z.enum(['3d', '3d_pay'], { error: 'value_not_allowed' }).default('3d'),
    gate_url: httpUrl().optional(),
    api_url: httpUrl().optional(),
    // How long one call may wait for PayFor before its outcome counts as unknown (then asked later).
    timeout_ms: timeoutSetting(),
    // The language of PayFor's 3D pages and messages.
    lang: z.enum(['tr', 'en'], { error: 'value_not_allowed' }).default('tr'),
  })
  .strict();
export type PayforSettings = z.output<typeof payforSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parsePayforCredentials(input: unknown): PayforCredentials {
  return parseInput(payforCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parsePayforSettings(input: unknown): PayforSettings {
  return parseInput(payforSettingsSchema, input ?? {});
}

/** Where the shopper's browser posts the 3D form, and where XML requests go. */
export function payforEndpoints(settings: PayforSettings): { gate: string; api: string } {
  const defaults = PAYFOR_URLS[settings.environment];
  return { gate: settings.gate_url ?? defaults.gate, api: settings.api_url ?? defaults.api };
}
