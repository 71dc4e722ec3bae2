// Kuveyt Türk's KuveytPOS in the gateway's provider catalog: what an account registers (shop and
// customer numbers, the API user and its password) and the connector built from it. The 3-D
// callback address is the gateway's own, one per payment, sent in each enrollment (OkUrl and
// FailUrl), so nothing is registered at the bank but the server's IP address.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { BANK_POS_CAPABILITIES } from '../bank-pos/connector.ts';
import { KUVEYTPOS_PROVIDER_ID } from './client.ts';
import { KuveytPosConnector } from './connector.ts';
import { kuveytCredentialsSchema, kuveytSettingsSchema } from './settings.ts';

export function kuveytPosProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: KUVEYTPOS_PROVIDER_ID,
    label: 'Kuveyt Türk KuveytPOS',
    capabilities: BANK_POS_CAPABILITIES,
    credentials: kuveytCredentialsSchema,
    settings: kuveytSettingsSchema,
    // One bank: no `bank` setting.
    banks: [{ id: '', name: 'Kuveyt Türk' }],
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new KuveytPosConnector(kuveytCredentialsSchema.parse(account.credentials), kuveytSettingsSchema.parse(account.settings), deps),
  };
}
