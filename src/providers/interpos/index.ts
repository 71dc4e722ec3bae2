// Denizbank's InterPOS virtual POS in the gateway's provider catalog: what an account registers
// (ShopCode, the API user and its password, the 3D store key) and the connector built from it. The
// 3D callback address is the gateway's own, one per payment, sent in each 3D form (OkUrl and
// FailUrl), so nothing is registered at the bank.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { INTERPOS_PROVIDER_ID } from './client.ts';
import { INTERPOS_CAPABILITIES, InterPosConnector } from './connector.ts';
import { interPosCredentialsSchema, interPosSettingsSchema } from './settings.ts';

export function interPosProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: INTERPOS_PROVIDER_ID,
    label: 'Denizbank InterPOS virtual POS',
    capabilities: INTERPOS_CAPABILITIES,
    credentials: interPosCredentialsSchema,
    settings: interPosSettingsSchema,
    // One bank: no `bank` setting.
    banks: [{ id: '', name: 'Denizbank' }],
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new InterPosConnector(interPosCredentialsSchema.parse(account.credentials), interPosSettingsSchema.parse(account.settings), deps),
  };
}
