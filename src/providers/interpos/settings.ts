// A payment account's Denizbank InterPOS credentials and settings, as the merchant enters them.
// InterPOS knows a merchant by its ShopCode and an API user (UserCode, UserPass) that its API calls
// carry as they are; the store key ("MerchantPass", the 3D key) signs the 3D form and the bank's
// answer to it, and never travels. The settings say which InterPOS (test or production), which 3D
// model ('3d': the bank authenticates, the gateway then authorises over the API; '3d_pay': the
// bank authenticates and charges in one go; '3d_host': the same, on the bank's own card page,
// so the card never passes through the gateway) and, for an emulator, other addresses.
import type { z } from 'zod';
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankModelField, bankSettingsSchema, digitsField, secretField as secret } from '../bank-pos/settings.ts';

/**
 * InterPOS's addresses (mewebstudio/pos config/pos_test.php and config/pos_production.php): the
 * API and the 3D gate are one address, the 3D Host model's card page another.
 */
export const INTERPOS_URLS = {
  test: {
    gate: 'https://test.inter-vpos.com.tr/mpi/Default.aspx',
    host: 'https://test.inter-vpos.com.tr/mpi/3DHost.aspx',
    api: 'https://test.inter-vpos.com.tr/mpi/Default.aspx',
  },
  production: {
    gate: 'https://inter-vpos.com.tr/mpi/Default.aspx',
    host: 'https://inter-vpos.com.tr/mpi/3DHost.aspx',
    api: 'https://inter-vpos.com.tr/mpi/Default.aspx',
  },
} as const;

export const interPosCredentialsSchema = bankCredentialsSchema({
  shop_code: digitsField(32),
  user_code: secret(),
  user_password: secret(),
  store_key: secret(),
});
export type InterPosCredentials = z.output<typeof interPosCredentialsSchema>;

export const INTERPOS_MODELS = ['3d', '3d_pay', '3d_host'] as const;
export type InterPosModel = (typeof INTERPOS_MODELS)[number];

export const interPosSettingsSchema = bankSettingsSchema({ model: bankModelField(INTERPOS_MODELS), ...addressFields(['gate_url', 'host_url', 'api_url']) });
export type InterPosSettings = z.output<typeof interPosSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parseInterPosCredentials(input: unknown): InterPosCredentials {
  return parseInput(interPosCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parseInterPosSettings(input: unknown): InterPosSettings {
  return parseInput(interPosSettingsSchema, input ?? {});
}

/** Where the shopper's browser posts the 3D form (the model's page), and where API requests go. */
export function interPosEndpoints(settings: InterPosSettings): { gate: string; api: string } {
  const defaults = INTERPOS_URLS[settings.environment];
  const gate = settings.model === '3d_host' ? (settings.host_url ?? defaults.host) : (settings.gate_url ?? defaults.gate);
  return { gate, api: settings.api_url ?? defaults.api };
}
