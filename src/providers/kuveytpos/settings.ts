// A payment account's Kuveyt Türk KuveytPOS credentials and settings, as the merchant enters them.
// KuveytPOS knows a merchant by its shop number (MerchantId, "Mağaza No") and its customer number
// (CustomerId, "Müşteri No"), and one API user made in the POS panel (UserName) whose password
// never travels: every request is signed with its SHA-1 (hash.ts), and the bank signs its answers
// with it too. KuveytPOS has one 3-D model (3D: the bank authenticates, the gateway then asks for
// the provision with the authentication's MD); the settings say which KuveytPOS (test or
// production) and, for an emulator, other addresses.
import { z } from 'zod';
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankSettingsSchemaWithoutLang, digitsField, secretField } from '../bank-pos/settings.ts';

/** KuveytPOS's addresses (mewebstudio/pos config/pos_test.php and config/pos_production.php). */
export const KUVEYTPOS_URLS = {
  test: {
    gate: 'https://boatest.kuveytturk.com.tr/boa.virtualpos.services/Home/ThreeDModelPayGate',
    payment: 'https://boatest.kuveytturk.com.tr/boa.virtualpos.services/Home',
    query: 'https://boatest.kuveytturk.com.tr/BOA.Integration.WCFService/BOA.Integration.VirtualPos/VirtualPosService.svc/Basic',
  },
  production: {
    gate: 'https://sanalpos.kuveytturk.com.tr/ServiceGateWay/Home/ThreeDModelPayGate',
    payment: 'https://sanalpos.kuveytturk.com.tr/ServiceGateWay/Home',
    query: 'https://boa.kuveytturk.com.tr/BOA.Integration.WCFService/BOA.Integration.VirtualPos/VirtualPosService.svc/Basic',
  },
} as const;

export const kuveytCredentialsSchema = bankCredentialsSchema({
  merchant_id: digitsField(20),
  customer_id: digitsField(20),
  user_name: secretField(),
  password: secretField(),
});
export type KuveytCredentials = z.output<typeof kuveytCredentialsSchema>;

export const kuveytSettingsSchema = bankSettingsSchemaWithoutLang(addressFields(['gate_url', 'payment_url', 'query_url']));
export type KuveytSettings = z.output<typeof kuveytSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parseKuveytCredentials(input: unknown): KuveytCredentials {
  return parseInput(kuveytCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parseKuveytSettings(input: unknown): KuveytSettings {
  return parseInput(kuveytSettingsSchema, input ?? {});
}

export interface KuveytEndpoints {
  /** ThreeDModelPayGate: the 3-D enrollment, posted server to server. */
  gate: string;
  /** The payment API's base: Non3DPayGate and ThreeDModelProvisionGate under it. */
  payment: string;
  /** The SOAP service: refunds, cancels and the order inquiry. */
  query: string;
}

export function kuveytEndpoints(settings: KuveytSettings): KuveytEndpoints {
  const defaults = KUVEYTPOS_URLS[settings.environment];
  return { gate: settings.gate_url ?? defaults.gate, payment: (settings.payment_url ?? defaults.payment).replace(/\/+$/, ''), query: settings.query_url ?? defaults.query };
}
