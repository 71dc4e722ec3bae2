// A payment account's Akbank virtual POS (the new JSON API, "Akbank Sanal POS") credentials and
// settings, as the merchant enters them. Akbank knows a merchant by its merchantSafeId ("Üye
// İşyeri Güvenli No") and terminalSafeId ("Terminal Güvenli No"), 32 characters each; the secret
// key ("Güvenlik anahtarı") signs every API request (the `auth-hash` header), the 3-D form and the
// bank's callback. A sub-merchant id is sent when the account is a payment facilitator's. The
// settings say which Akbank (test: the bank's "pre" platform, or production), which 3-D model
// ('3d': the bank authenticates, the gateway then sells with the authentication's secure data;
// '3d_pay': the bank authenticates and charges in one go; '3d_host': the same on the bank's own
// card page, the card never passing through the gateway) and, for an emulator, other addresses.
import { z } from 'zod';
import { timeoutSetting } from '../settings-fields.ts';
import { httpUrl, parseInput } from '../../domain/validation.ts';

/** Akbank's addresses (mewebstudio/pos config/pos_test.php and config/pos_production.php). */
export const AKBANK_POS_URLS = {
  test: {
    api: 'https://apipre.akbank.com/api/v1/payment/virtualpos',
    gate: 'https://virtualpospaymentgatewaypre.akbank.com/securepay',
    hostGate: 'https://virtualpospaymentgatewaypre.akbank.com/payhosting',
  },
  production: {
    api: 'https://api.akbank.com/api/v1/payment/virtualpos',
    gate: 'https://virtualpospaymentgateway.akbank.com/securepay',
    hostGate: 'https://virtualpospaymentgateway.akbank.com/payhosting',
  },
} as const;

/** Every payment call goes to this path under the API address (the daily report has its own, unused here). */
export const PROCESS_PATH = '/transaction/process';

const safeId = () =>
  z
    .string({ error: 'invalid_type' })
    .trim()
    .min(1, { error: 'required' })
    .max(32, { error: 'too_long' })
    .regex(/^[A-Za-z0-9]*$/, { error: 'value_not_allowed' }); // an empty id reports 'required' alone

export const akbankPosCredentialsSchema = z
  .object({
    merchant_safe_id: safeId(),
    terminal_safe_id: safeId(),
    secret_key: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255, { error: 'too_long' }),
    sub_merchant_id: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(32, { error: 'too_long' }).optional(),
  })
  .strict();
export type AkbankPosCredentials = z.output<typeof akbankPosCredentialsSchema>;

export const akbankPosSettingsSchema = z
  .object({
    environment: z.enum(['test', 'production'], { error: 'value_not_allowed' }).default('test'),
    model: z.enum(['3d', '3d_pay', '3d_host'], { error: 'value_not_allowed' }).default('3d'),
    api_url: httpUrl().optional(),
    gate_url: httpUrl().optional(),
    host_gate_url: httpUrl().optional(),
    // How long one call may wait for Akbank before its outcome counts as unknown (then asked later).
    timeout_ms: timeoutSetting(),
    // The language of Akbank's 3-D pages and messages.
    lang: z.enum(['tr', 'en'], { error: 'value_not_allowed' }).default('tr'),
  })
  .strict();
export type AkbankPosSettings = z.output<typeof akbankPosSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parseAkbankPosCredentials(input: unknown): AkbankPosCredentials {
  return parseInput(akbankPosCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parseAkbankPosSettings(input: unknown): AkbankPosSettings {
  return parseInput(akbankPosSettingsSchema, input ?? {});
}

/** Where the shopper's browser posts the 3-D form (the host model's page is another), and where API requests go. */
export function akbankPosEndpoints(settings: AkbankPosSettings): { gate: string; api: string } {
  const defaults = AKBANK_POS_URLS[settings.environment];
  const gate = settings.model === '3d_host' ? (settings.host_gate_url ?? defaults.hostGate) : (settings.gate_url ?? defaults.gate);
  return { gate, api: `${settings.api_url ?? defaults.api}${PROCESS_PATH}` };
}
