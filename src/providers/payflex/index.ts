// VakıfBank's PayFlex virtual POS (VPOS 7/24 with its MPI, v4) in the gateway's provider catalog:
// what an account registers (merchant id, password, terminal number) and the connector built from
// it. The 3-D callback address is the gateway's own, one per payment, sent with each enrollment
// (SuccessUrl and FailureUrl), so nothing is registered at the bank.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { BANK_POS_CAPABILITIES } from '../bank-pos/connector.ts';
import { PAYFLEX_PROVIDER_ID } from './client.ts';
import { PayflexConnector } from './connector.ts';
import { payflexCredentialsSchema, payflexSettingsSchema } from './settings.ts';

export function payflexProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: PAYFLEX_PROVIDER_ID,
    label: 'VakıfBank PayFlex',
    capabilities: BANK_POS_CAPABILITIES,
    credentials: payflexCredentialsSchema,
    settings: payflexSettingsSchema,
    // One bank: no `bank` setting.
    banks: [{ id: '', name: 'VakıfBank' }],
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new PayflexConnector(payflexCredentialsSchema.parse(account.credentials), payflexSettingsSchema.parse(account.settings), deps),
  };
}
