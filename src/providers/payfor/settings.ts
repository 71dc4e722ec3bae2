// A payment account's QNB Finansbank PayFor credentials and settings, as the merchant enters them.
// PayFor knows a merchant by its merchant id (MerchantId, "üye işyeri numarası") and one API user
// (UserCode and UserPass) that sells, refunds, voids and asks; the store key (MerchantPass, "3D
// Secure şifresi") signs the 3D form and the bank's answer to it. The settings say which PayFor
// (test or production), which 3D model ('3d': the bank authenticates, the gateway then sells over
// the XML API with the authentication's RequestGuid; '3d_pay': the bank authenticates and charges
// in one go) and, for an emulator, other addresses.
import type { z } from 'zod';
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankModelField, bankSettingsSchema, digitsField, gateAndApi, secretField as secret } from '../bank-pos/settings.ts';

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

export const payforCredentialsSchema = bankCredentialsSchema({
  merchant_id: digitsField(20),
  user_code: secret(),
  user_password: secret(),
  store_key: secret(),
});
export type PayforCredentials = z.output<typeof payforCredentialsSchema>;

export const payforSettingsSchema = bankSettingsSchema({ model: bankModelField(['3d', '3d_pay']), ...addressFields(['gate_url', 'api_url']) });
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
  return gateAndApi(settings, PAYFOR_URLS);
}
