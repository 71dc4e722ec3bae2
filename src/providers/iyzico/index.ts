// iyzico in the gateway's provider catalog: what an account registers (the API key pair from
// iyzico's merchant panel, and where calls go) and the connector built from it. The 3D Secure
// callback address is the gateway's own, one per payment, so nothing is registered at iyzico.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { IYZICO_PROVIDER_ID } from './client.ts';
import { IYZICO_CAPABILITIES, IyzicoConnector } from './connector.ts';
import { iyzicoCredentialsSchema, iyzicoSettingsSchema } from './settings.ts';

export function iyzicoProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: IYZICO_PROVIDER_ID,
    label: 'iyzico',
    capabilities: IYZICO_CAPABILITIES,
    credentials: iyzicoCredentialsSchema,
    settings: iyzicoSettingsSchema,
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new IyzicoConnector(iyzicoCredentialsSchema.parse(account.credentials), iyzicoSettingsSchema.parse(account.settings), deps),
  };
}
