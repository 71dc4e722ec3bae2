// A payment account's Yapı Kredi PosNet credentials and settings. PosNet knows a merchant by its
// merchant number (mid, 10 digits), its terminal (tid, 8 digits) and its PosNet id (for the 3-D
// service); the encryption key (ENCKEY) signs what the merchant and the bank exchange (hash.ts) and
// never travels. Addresses are mewebstudio/pos config/pos_test.php and pos_production.php;
// `gate_url` / `api_url` override them (an emulator on this machine). PosNet offers one 3-D model
// here, "3D": the bank authenticates, the gateway then charges over the XML service.
import type { z } from 'zod';
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankSettingsSchema, digitsField as digits, gateAndApi, secretField } from '../bank-pos/settings.ts';

export const POSNET_URLS = {
  test: { gate: 'https://setmpos.ykb.com/3DSWebService/YKBPaymentService', api: 'https://setmpos.ykb.com/PosnetWebService/XML' },
  production: { gate: 'https://posnet.yapikredi.com.tr/3DSWebService/YKBPaymentService', api: 'https://posnet.yapikredi.com.tr/PosnetWebService/XML' },
} as const;

export const posnetCredentialsSchema = bankCredentialsSchema({
  merchant_id: digits(10),
  terminal_id: digits(8),
  posnet_id: digits(16),
  enc_key: secretField(),
});
export type PosnetCredentials = z.output<typeof posnetCredentialsSchema>;

// One 3-D model: no `model` setting.
export const posnetSettingsSchema = bankSettingsSchema(addressFields(['gate_url', 'api_url']));
export type PosnetSettings = z.output<typeof posnetSettingsSchema>;

export function parsePosnetCredentials(input: unknown): PosnetCredentials {
  return parseInput(posnetCredentialsSchema, input);
}

export function parsePosnetSettings(input: unknown): PosnetSettings {
  return parseInput(posnetSettingsSchema, input ?? {});
}

export function posnetEndpoints(settings: PosnetSettings): { gate: string; api: string } {
  return gateAndApi(settings, POSNET_URLS);
}
