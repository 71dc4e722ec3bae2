// Yapı Kredi's PosNet in the gateway's provider catalog: what an account registers (merchant and
// terminal numbers, PosNet id, encryption key) and the connector built from it. The 3-D callback
// address is the gateway's own, one per payment, sent with each 3-D start.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { BANK_POS_CAPABILITIES } from '../bank-pos/connector.ts';
import { POSNET_PROVIDER_ID } from './client.ts';
import { PosnetConnector } from './connector.ts';
import { posnetCredentialsSchema, posnetSettingsSchema } from './settings.ts';

export function posnetProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: POSNET_PROVIDER_ID,
    label: 'Yapı Kredi PosNet',
    capabilities: BANK_POS_CAPABILITIES,
    credentials: posnetCredentialsSchema,
    settings: posnetSettingsSchema,
    banks: [{ id: '', name: 'Yapı Kredi' }],
    connect: (account) => new PosnetConnector(posnetCredentialsSchema.parse(account.credentials), posnetSettingsSchema.parse(account.settings), deps),
  };
}
