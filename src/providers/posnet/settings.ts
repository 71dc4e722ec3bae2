// A payment account's Yapı Kredi PosNet credentials and settings. PosNet knows a merchant by its
// merchant number (mid, 10 digits), its terminal (tid, 8 digits) and its PosNet id (for the 3-D
// service); the encryption key (ENCKEY) signs what the merchant and the bank exchange (hash.ts) and
// never travels. Addresses are mewebstudio/pos config/pos_test.php and pos_production.php;
// `gate_url` / `api_url` override them (an emulator on this machine). PosNet offers one 3-D model
// here, "3D": the bank authenticates, the gateway then charges over the XML service.
import { z } from 'zod';
import { timeoutSetting } from '../settings-fields.ts';
import { httpUrl, parseInput } from '../../domain/validation.ts';

export const POSNET_URLS = {
  test: { gate: 'https://setmpos.ykb.com/3DSWebService/YKBPaymentService', api: 'https://setmpos.ykb.com/PosnetWebService/XML' },
  production: { gate: 'https://posnet.yapikredi.com.tr/3DSWebService/YKBPaymentService', api: 'https://posnet.yapikredi.com.tr/PosnetWebService/XML' },
} as const;

const digits = (max: number) => z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(max, { error: 'too_long' }).regex(/^\d+$/, { error: 'digits_only' });

export const posnetCredentialsSchema = z
  .object({
    merchant_id: digits(10),
    terminal_id: digits(8),
    posnet_id: digits(16),
    enc_key: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255, { error: 'too_long' }),
  })
  .strict();
export type PosnetCredentials = z.output<typeof posnetCredentialsSchema>;

export const posnetSettingsSchema = z
  .object({
    environment: z.enum(['test', 'production'], { error: 'value_not_allowed' }).default('test'),
    gate_url: httpUrl().optional(),
    api_url: httpUrl().optional(),
    // How long one call may wait for PosNet before its outcome counts as unknown (then asked later).
    timeout_ms: timeoutSetting(),
    // The language of the bank's 3-D pages.
    lang: z.enum(['tr', 'en'], { error: 'value_not_allowed' }).default('tr'),
  })
  .strict();
export type PosnetSettings = z.output<typeof posnetSettingsSchema>;

export function parsePosnetCredentials(input: unknown): PosnetCredentials {
  return parseInput(posnetCredentialsSchema, input);
}

export function parsePosnetSettings(input: unknown): PosnetSettings {
  return parseInput(posnetSettingsSchema, input ?? {});
}

export function posnetEndpoints(settings: PosnetSettings): { gate: string; api: string } {
  const defaults = POSNET_URLS[settings.environment];
  return { gate: settings.gate_url ?? defaults.gate, api: settings.api_url ?? defaults.api };
}
