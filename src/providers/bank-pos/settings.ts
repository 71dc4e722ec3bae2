// The pieces every bank's credentials and settings (its settings.ts) are built from, so that one
// rule reads the same at every bank: a secret or an id is trimmed text, required, bounded, with
// the error code at its field path; the settings are the environment (the bank's test platform by
// default), the 3-D model where the bank offers more than one (the first the default), the
// addresses that override the bank's own (an emulator on this machine), the call deadline and the
// language of the bank's pages. The order of the fields is the order forms show them in
// (providerFields, ../../domain/account-credentials.ts).
import { z } from 'zod';
import { httpUrl } from '../../domain/validation.ts';
import { timeoutSetting } from '../settings-fields.ts';

/** Trimmed text of 1 to `max` characters. */
export const textField = (max: number) => z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(max, { error: 'too_long' });

/** A password, key or user name: 1 to 255 characters once trimmed. */
export const secretField = () => textField(255);

/** A merchant, terminal or shop number: digits only, 1 to `max` of them. */
export const digitsField = (max: number) =>
  z
    .string({ error: 'invalid_type' })
    .trim()
    .min(1, { error: 'required' })
    .max(max, { error: 'too_long' })
    .regex(/^\d+$/, { error: 'digits_only' });

/** A bank's credentials: exactly the fields given (an unknown one is refused). */
export const bankCredentialsSchema = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).strict();

export const BANK_ENVIRONMENTS = ['test', 'production'] as const;
export type BankEnvironment = (typeof BANK_ENVIRONMENTS)[number];

/** The 3-D models a bank offers here ('3d', '3d_pay', '3d_host'...), the first the default. */
export const bankModelField = <const Models extends readonly [string, ...string[]]>(models: Models) =>
  z.enum(models, { error: 'value_not_allowed' }).default(models[0] as z.output<z.ZodEnum<{ [K in Models[number]]: K }>>);

/** Optional address overrides, one per name, each an http(s) URL (or what `url` makes). */
export function addressFields<const Name extends string, Url extends z.ZodType = ReturnType<typeof httpUrl>>(names: readonly Name[], url: () => Url = httpUrl as unknown as () => Url): { [K in Name]: z.ZodOptional<Url> } {
  return Object.fromEntries(names.map((name) => [name, url().optional()])) as { [K in Name]: z.ZodOptional<Url> };
}

/**
 * A bank's settings: `head` (a field before the environment, as EST's bank), `environment`
 * (test or production, test by default), `fields` (its model and addresses), `timeout_ms` (how
 * long one call may wait for the bank before its outcome counts as unknown, then asked later) and
 * `lang` (the language of the bank's 3-D pages and messages, tr by default). Unknown fields are
 * refused.
 */
export function bankSettingsSchema<Fields extends z.ZodRawShape, Head extends z.ZodRawShape = Record<never, never>>(fields: Fields, head?: Head) {
  return z
    .object({
      ...(head as Head),
      environment: environmentField(),
      ...fields,
      timeout_ms: timeoutSetting(),
      lang: z.enum(['tr', 'en'], { error: 'value_not_allowed' }).default('tr'),
    })
    .strict();
}

/**
 * The settings of a bank whose 3-D pages the gateway cannot ask for a language (VakıfBank's MPI,
 * KuveytPOS's gate): bankSettingsSchema without `lang`, so the account form offers no choice that
 * does nothing.
 */
export function bankSettingsSchemaWithoutLang<Fields extends z.ZodRawShape>(fields: Fields) {
  return z.object({ environment: environmentField(), ...fields, timeout_ms: timeoutSetting() }).strict();
}

const environmentField = () => z.enum(BANK_ENVIRONMENTS, { error: 'value_not_allowed' }).default('test');

/** Where the shopper's browser posts the 3-D form and where API requests go: the overrides, else the bank's addresses for the environment. */
export function gateAndApi(settings: { environment: BankEnvironment; gate_url?: string | undefined; api_url?: string | undefined }, urls: Readonly<Record<BankEnvironment, { gate: string; api: string }>>): { gate: string; api: string } {
  const defaults = urls[settings.environment];
  return { gate: settings.gate_url ?? defaults.gate, api: settings.api_url ?? defaults.api };
}
