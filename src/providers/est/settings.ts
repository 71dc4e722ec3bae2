// A payment account's EST (Payten, formerly Asseco) virtual POS credentials and settings. Many
// Turkish banks run the same EST platform under their own addresses; the table below gives each
// bank's 3D gate (where the shopper's browser posts the card form) and XML API (server-to-server
// calls). Addresses are those of mewebstudio/pos config/pos_production.php and config/pos_test.php
// (the EstV3Pos banks). Payten's test platform (entegrasyon.asseco-see.com.tr) serves every bank's
// test merchants, so each bank's test addresses are that one. `gate_url` / `api_url` override the
// table (an emulator on this machine, or a bank that moved).
import { z } from 'zod';
import { httpUrl, parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankModelField, bankSettingsSchema, secretField as secret } from '../bank-pos/settings.ts';

export interface EstEndpoints {
  gate3d: string;
  api: string;
}

const PAYTEN_TEST: EstEndpoints = {
  gate3d: 'https://entegrasyon.asseco-see.com.tr/fim/est3Dgate',
  api: 'https://entegrasyon.asseco-see.com.tr/fim/api',
};

const prod = (host: string, gatePath = '/fim/est3Dgate'): EstEndpoints => ({ gate3d: `https://${host}${gatePath}`, api: `https://${host}/fim/api` });

/** The banks on EST, with their names for people and their addresses (see the header). */
export const EST_BANKS = {
  akbank: { name: 'Akbank', production: prod('www.sanalakpos.com'), test: PAYTEN_TEST },
  isbank: { name: 'İşbank', production: prod('sanalpos.isbank.com.tr'), test: PAYTEN_TEST },
  halkbank: { name: 'Halkbank', production: prod('sanalpos.halkbank.com.tr', '/fim/est3dgate'), test: PAYTEN_TEST },
  ziraat: { name: 'Ziraat Bankası', production: prod('sanalpos2.ziraatbank.com.tr'), test: PAYTEN_TEST },
  teb: { name: 'TEB', production: prod('sanalpos.teb.com.tr'), test: PAYTEN_TEST },
  sekerbank: { name: 'Şekerbank', production: prod('sanalpos.sekerbank.com.tr'), test: PAYTEN_TEST },
  finansbank: { name: 'QNB Finansbank', production: prod('www.fbwebpos.com', '/fim/est3dgate'), test: PAYTEN_TEST },
} as const satisfies Record<string, { name: string; production: EstEndpoints; test: EstEndpoints }>;

export type EstBank = keyof typeof EST_BANKS;
const BANK_IDS = Object.keys(EST_BANKS) as [EstBank, ...EstBank[]];

export const estCredentialsSchema = bankCredentialsSchema({
  /** The merchant number (ClientId / clientid). */
  client_id: secret(),
  /** The 3D store key: signs the 3D form and the bank's callback. */
  store_key: secret(),
  /** The API user for XML calls (Name) and its password (Password). */
  api_user: secret(),
  api_password: secret(),
});
export type EstCredentials = z.output<typeof estCredentialsSchema>;

// The address is used as it is (the 3D gate and the API are full URLs, not bases).
const endpointUrl = () => httpUrl().refine((url) => !/#/.test(url), { error: 'invalid_url' });

export const estSettingsSchema = bankSettingsSchema(
  {
    /** '3d': the bank authenticates, we then authorise over the API; '3d_pay': the gate charges at once. */
    model: bankModelField(['3d', '3d_pay']),
    ...addressFields(['gate_url', 'api_url'], endpointUrl),
  },
  { bank: z.enum(BANK_IDS, { error: 'value_not_allowed' }) },
);
export type EstSettings = z.output<typeof estSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parseEstCredentials(input: unknown): EstCredentials {
  return parseInput(estCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parseEstSettings(input: unknown): EstSettings {
  return parseInput(estSettingsSchema, input ?? {});
}

/** Where this account's calls go: the overrides, else the bank's addresses for the environment. */
export function endpointsOf(settings: EstSettings): EstEndpoints {
  const table = EST_BANKS[settings.bank][settings.environment];
  return { gate3d: settings.gate_url ?? table.gate3d, api: settings.api_url ?? table.api };
}
