// Garanti BBVA's virtual POS (GVP) in the gateway's provider catalog: what an account registers
// (merchant and terminal ids, the PROVAUT and PROVRFN users and passwords, the 3D store key) and the
// connector built from it. The 3D callback address is the gateway's own, one per payment, sent in
// each 3D form, so nothing is registered at the bank.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { GARANTI_PROVIDER_ID } from './client.ts';
import { GARANTI_CAPABILITIES, GarantiConnector } from './connector.ts';
import { garantiCredentialsSchema, garantiSettingsSchema } from './settings.ts';

export function garantiProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: GARANTI_PROVIDER_ID,
    label: 'Garanti BBVA virtual POS',
    capabilities: GARANTI_CAPABILITIES,
    credentials: garantiCredentialsSchema,
    settings: garantiSettingsSchema,
    // One bank: no `bank` setting.
    banks: [{ id: '', name: 'Garanti BBVA' }],
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new GarantiConnector(garantiCredentialsSchema.parse(account.credentials), garantiSettingsSchema.parse(account.settings), deps),
  };
}
