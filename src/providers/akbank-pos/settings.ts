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
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankModelField, bankSettingsSchema, secretField } from '../bank-pos/settings.ts';

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

export const akbankPosCredentialsSchema = bankCredentialsSchema({
  merchant_safe_id: safeId(),
  terminal_safe_id: safeId(),
  secret_key: secretField(),
  sub_merchant_id: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(32, { error: 'too_long' }).optional(),
});
export type AkbankPosCredentials = z.output<typeof akbankPosCredentialsSchema>;

export const akbankPosSettingsSchema = bankSettingsSchema({ model: bankModelField(['3d', '3d_pay', '3d_host']), ...addressFields(['api_url', 'gate_url', 'host_gate_url']) });
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
