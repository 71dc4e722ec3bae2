// A payment account's VakıfBank PayFlex (VPOS 7/24, MPI v4) credentials and settings, as the
// merchant enters them. VakıfBank knows a merchant by its merchant id ("Üye işyeri no", 15
// digits), its password ("Üye işyeri şifresi": it authenticates every request, the MPI's
// enrollment included) and its terminal number ("VP000579"). A main dealer or a sub-dealer also
// gives its merchant type and, for a sub-dealer, the sub-merchant id. The settings say which
// VakıfBank (test or production), the 3-D model (PayFlex v4 has one: '3d', the MPI authenticates,
// the gateway then sells with the authentication's CAVV and ECI) and, for an emulator, other
// addresses.
import { z } from 'zod';
import { parseInput } from '../../domain/validation.ts';
import { addressFields, bankCredentialsSchema, bankModelField, bankSettingsSchemaWithoutLang, digitsField, secretField, textField } from '../bank-pos/settings.ts';

/** VakıfBank's addresses (mewebstudio/pos config/pos_test.php and config/pos_production.php, `vakifbank`). */
export const PAYFLEX_URLS = {
  test: {
    enrollment: 'https://3dsecuretest.vakifbank.com.tr:4443/MPIAPI/MPI_Enrollment.aspx',
    api: 'https://onlineodemetest.vakifbank.com.tr:4443/VposService/v3/Vposreq.aspx',
    query: 'https://onlineodemetest.vakifbank.com.tr:4443/UIService/Search.aspx',
  },
  production: {
    enrollment: 'https://3dsecure.vakifbank.com.tr:4443/MPIAPI/MPI_Enrollment.aspx',
    api: 'https://onlineodeme.vakifbank.com.tr:4443/VposService/v3/Vposreq.aspx',
    query: 'https://onlineodeme.vakifbank.com.tr:4443/UIService/Search.aspx',
  },
} as const;

export const payflexCredentialsSchema = bankCredentialsSchema({
  merchant_id: digitsField(20),
  merchant_password: secretField(),
  terminal_no: textField(16).regex(/^[A-Za-z0-9]+$/, { error: 'value_not_allowed' }),
  // 0 a merchant, 1 a main dealer, 2 a sub-dealer (the bank says which).
  merchant_type: z.enum(['0', '1', '2'], { error: 'value_not_allowed' }).default('0'),
  sub_merchant_id: textField(32).optional(),
}).refine((c) => c.merchant_type !== '2' || c.sub_merchant_id !== undefined, { error: 'required', path: ['sub_merchant_id'] });
export type PayflexCredentials = z.output<typeof payflexCredentialsSchema>;

export const payflexSettingsSchema = bankSettingsSchemaWithoutLang({ model: bankModelField(['3d']), ...addressFields(['enrollment_url', 'api_url', 'query_url']) });
export type PayflexSettings = z.output<typeof payflexSettingsSchema>;

/** Checks credentials; throws ValidationError with issues at the field path. */
export function parsePayflexCredentials(input: unknown): PayflexCredentials {
  return parseInput(payflexCredentialsSchema, input);
}

/** Checks settings and fills the defaults; throws ValidationError with issues at the field path. */
export function parsePayflexSettings(input: unknown): PayflexSettings {
  return parseInput(payflexSettingsSchema, input ?? {});
}

/** The MPI's enrollment, the VPOS's payment API and its search API, for the account. */
export function payflexEndpoints(settings: PayflexSettings): { enrollment: string; api: string; query: string } {
  const defaults = PAYFLEX_URLS[settings.environment];
  return { enrollment: settings.enrollment_url ?? defaults.enrollment, api: settings.api_url ?? defaults.api, query: settings.query_url ?? defaults.query };
}
