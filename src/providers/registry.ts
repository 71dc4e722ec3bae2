// Providers by id, built once in main.ts. BIN data for routing comes from `binSource`, because
// the account (and so its provider) is not known until routing has run.
import type { PaymentProvider } from './types.ts';

export interface ProviderRegistry {
  get(id: string): PaymentProvider;
  binSource: PaymentProvider;
}

export function createRegistry(providers: PaymentProvider[], binSourceId = 'simulator'): ProviderRegistry {
  const byId = new Map(providers.map((p) => [p.id, p]));
  const binSource = byId.get(binSourceId);
  if (!binSource) throw new Error(`BIN source provider "${binSourceId}" is not registered`);
  return {
    binSource,
    get(id) {
      const provider = byId.get(id);
      if (!provider) throw new Error(`Payment provider "${id}" is not registered`);
      return provider;
    },
  };
}
