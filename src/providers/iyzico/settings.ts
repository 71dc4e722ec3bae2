// A payment account's iyzico credentials and settings, as the merchant enters them. Credentials
// are the API key pair from iyzico's merchant panel (sandbox keys start with "sandbox-"); the
// settings say where to send calls: iyzico's sandbox by default, its live API, or any http(s)
// URL (an emulator on this machine in tests). Errors carry the field path and the gateway's
// message codes, like every other input (src/domain/validation.ts).
import { z } from 'zod';
import { timeoutSetting } from '../settings-fields.ts';
import { httpUrl, parseInput } from '../../domain/validation.ts';

export const IYZICO_SANDBOX_URL = 'https://sandbox-api.iyzipay.com';
export const IYZICO_LIVE_URL = 'https://api.iyzipay.com';

const secret = () =>
  z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255, { error: 'too_long' });

export const iyzicoCredentialsSchema = z
  .object({
    api_key: secret(),
    secret_key: secret(),
  })
  .strict();
export type IyzicoCredentials = z.output<typeof iyzicoCredentialsSchema>;

export const iyzicoSettingsSchema = z
  .object({
    // Call paths are appended to it, so a query or fragment would end up in the wrong place.
    base_url: httpUrl()
      .refine((url) => !/[?#]/.test(url), { error: 'invalid_url' })
      .transform((url) => url.replace(/\/+$/, ''))
      .default(IYZICO_SANDBOX_URL),
    // How long one call may wait for iyzico before its outcome counts as unknown (then asked later).
    timeout_ms: timeoutSetting(),
  })
  .strict();
export type IyzicoSettings = z.output<typeof iyzicoSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at `api_key` / `secret_key`. */
export function parseIyzicoCredentials(input: unknown): IyzicoCredentials {
  return parseInput(iyzicoCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parseIyzicoSettings(input: unknown): IyzicoSettings {
  return parseInput(iyzicoSettingsSchema, input ?? {});
}

/** Whether calls go to iyzico's live API (real money) rather than its sandbox or an emulator. */
export function isLive(settings: IyzicoSettings): boolean {
  return settings.base_url === IYZICO_LIVE_URL;
}
