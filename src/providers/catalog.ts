// Every provider the gateway can connect an account to. A new connector is one line of CATALOG
// (and its import): its definition (registry.ts) lives in its own folder, with its emulator in
// emulators/<id>/ (docs/providers.md, "Adding a bank", says what a bank brings).
import { purposeKey } from '../domain/secrets.ts';
import type { ConnectorDeps, ProviderDefinition } from './registry.ts';
import { simulatorProvider } from './simulator.ts';
import { iyzicoProvider } from './iyzico/index.ts';
import { estProvider } from './est/index.ts';
import { garantiProvider } from './garanti/index.ts';
import { posnetProvider } from './posnet/index.ts';
import { payforProvider } from './payfor/index.ts';
import { interPosProvider } from './interpos/index.ts';
import { akbankPosProvider } from './akbank-pos/index.ts';
import { kuveytPosProvider } from './kuveytpos/index.ts';
import { payflexProvider } from './payflex/index.ts';

/** Each provider's id and how its definition is built, in the order the dashboard lists them. */
const CATALOG: ReadonlyArray<readonly [string, (deps: ConnectorDeps) => ProviderDefinition]> = [
  ['simulator', simulatorProvider],
  ['iyzico', iyzicoProvider],
  ['est', estProvider],
  ['garanti', garantiProvider],
  ['posnet', posnetProvider],
  ['payfor', payforProvider],
  ['interpos', interPosProvider],
  ['akbank-pos', akbankPosProvider],
  ['kuveytpos', kuveytPosProvider],
  ['payflex', payflexProvider],
];

export function providerCatalog(deps: ConnectorDeps): ProviderDefinition[] {
  return CATALOG.map(([id, define]) => {
    const definition = define(deps);
    if (definition.id !== id) throw new Error(`catalog line ${id} defines ${definition.id}`);
    return definition;
  });
}

/** The catalog's provider ids, for what has no registry at hand (the CLI's argument checks). */
export const PROVIDER_IDS: readonly string[] = CATALOG.map(([id]) => id);

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
