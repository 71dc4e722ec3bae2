// EST (Payten) in the gateway's provider catalog: what an account registers (the merchant's
// client id, 3D store key and API user, its bank and environment) and the connector built from
// it. The 3D callback address is the gateway's own, one per payment, sent in each form (okUrl /
// failUrl), so nothing is registered at the bank.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { EST_PROVIDER_ID } from './client.ts';
import { EST_CAPABILITIES, EstConnector } from './connector.ts';
import { EST_BANKS, estCredentialsSchema, estSettingsSchema } from './settings.ts';

export function estProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: EST_PROVIDER_ID,
    label: 'EST virtual POS (Payten)',
    capabilities: EST_CAPABILITIES,
    credentials: estCredentialsSchema,
    settings: estSettingsSchema,
    banks: Object.entries(EST_BANKS).map(([id, bank]) => ({ id, name: bank.name })),
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new EstConnector(estCredentialsSchema.parse(account.credentials), estSettingsSchema.parse(account.settings), deps),
  };
}
