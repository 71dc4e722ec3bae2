// QNB Finansbank's PayFor virtual POS in the gateway's provider catalog: what an account registers
// (merchant id, API user and password, the 3D store key) and the connector built from it. The 3D
// callback address is the gateway's own, one per payment, sent in each 3D form (OkUrl and
// FailUrl), so nothing is registered at the bank.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { BANK_POS_CAPABILITIES } from '../bank-pos/connector.ts';
import { PAYFOR_PROVIDER_ID } from './client.ts';
import { PayforConnector } from './connector.ts';
import { payforCredentialsSchema, payforSettingsSchema } from './settings.ts';

export function payforProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: PAYFOR_PROVIDER_ID,
    label: 'QNB Finansbank PayFor virtual POS',
    capabilities: BANK_POS_CAPABILITIES,
    credentials: payforCredentialsSchema,
    settings: payforSettingsSchema,
    // One bank: no `bank` setting.
    banks: [{ id: '', name: 'QNB Finansbank' }],
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new PayforConnector(payforCredentialsSchema.parse(account.credentials), payforSettingsSchema.parse(account.settings), deps),
  };
}
