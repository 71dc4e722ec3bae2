// Akbank's virtual POS (the new JSON API) in the gateway's provider catalog: what an account
// registers (merchant and terminal safe ids, the secret key, a sub-merchant id when there is one)
// and the connector built from it. The 3-D callback address is the gateway's own, one per
// payment, sent in each 3-D form (okUrl and failUrl), so nothing is registered at the bank.
import type { ConnectorDeps, ProviderDefinition } from '../registry.ts';
import { BANK_POS_CAPABILITIES } from '../bank-pos/connector.ts';
import { AKBANK_POS_PROVIDER_ID } from './client.ts';
import { AkbankPosConnector } from './connector.ts';
import { akbankPosCredentialsSchema, akbankPosSettingsSchema } from './settings.ts';

export function akbankPosProvider(deps: ConnectorDeps): ProviderDefinition {
  return {
    id: AKBANK_POS_PROVIDER_ID,
    label: 'Akbank virtual POS',
    capabilities: BANK_POS_CAPABILITIES,
    credentials: akbankPosCredentialsSchema,
    settings: akbankPosSettingsSchema,
    // One bank: no `bank` setting.
    banks: [{ id: '', name: 'Akbank' }],
    // The registry has parsed both already; parsing again gives their types and is idempotent.
    connect: (account) => new AkbankPosConnector(akbankPosCredentialsSchema.parse(account.credentials), akbankPosSettingsSchema.parse(account.settings), deps),
  };
}
