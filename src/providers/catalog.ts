// Every provider the gateway can connect an account to. A new connector is one line here, its
// definition (registry.ts) and its emulator (docs/providers.md says what else it needs).
import { purposeKey } from '../domain/secrets.ts';
import type { ConnectorDeps, ProviderDefinition } from './registry.ts';
import { simulatorProvider } from './simulator.ts';
import { iyzicoProvider } from './iyzico/index.ts';
import { estProvider } from './est/index.ts';
import { garantiProvider } from './garanti/index.ts';

export function providerCatalog(deps: ConnectorDeps): ProviderDefinition[] {
  return [simulatorProvider(deps), iyzicoProvider(deps), estProvider(deps), garantiProvider(deps)];
}

/** The catalog's provider ids, for what has no registry at hand (the CLI's argument checks). */
export const PROVIDER_IDS = ['simulator', 'iyzico', 'est', 'garanti'] as const;

/** A key for one purpose (a provider's own signatures), derived from the master key: never the master key itself. */
export function derivedKeys(masterKey: Buffer): (purpose: string) => Buffer {
  const keys = new Map<string, Buffer>();
  return (purpose) => {
    let key = keys.get(purpose);
    if (!key) {
      key = purposeKey(masterKey, purpose);
      keys.set(purpose, key);
    }
    return key;
  };
}
