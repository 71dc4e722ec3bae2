// The providers the gateway knows (the catalog) and the connector each payment account gets. A
// provider is a definition: the credentials and settings an account must give (zod schemas, so
// a merchant's mistake is a 422 on the field's path), what it can do, and how to connect. An
// account's connector is built from its own settings and its decrypted credentials, once per
// process and per version of them: the account's row is what the call read, so a credential
// replaced in the dashboard is used from the next call on.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { Capability, Connector } from './types.ts';
import { recordAttempts, type AttemptSink } from './recording.ts';

/** The provider of an account created without one: the simulator, so a new workspace can try payments at once. */
export const DEFAULT_PROVIDER = 'simulator';

/** What a connector may use from the gateway. */
export interface ConnectorDeps {
  now(): Date;
  /** The gateway's public address at call time (known once it listens). */
  baseUrl(): string;
  /** A key of the gateway's own for `purpose`, derived from the master key: the same in every process. */
  key(purpose: string): Buffer;
  /** Where a connector reports its exchanges with the provider (scrubbed of card data and keys). */
  log(msg: string, fields: Record<string, unknown>): void;
}

/** A page a provider serves on the gateway itself (the simulator's ACS). */
export interface ProviderPage {
  pattern: RegExp;
  get?(req: IncomingMessage, res: ServerResponse, match: RegExpExecArray): Promise<void>;
  post?(req: IncomingMessage, res: ServerResponse, match: RegExpExecArray): Promise<void>;
}

export interface ProviderDefinition {
  id: string;
  /** For people: the dashboard's provider list. */
  label: string;
  capabilities: ReadonlySet<Capability>;
  /** The account's secrets: stored encrypted, never shown again (only masked). */
  credentials: z.ZodType<Record<string, string>>;
  /** Everything else an account sets (addresses, options): shown as entered. */
  settings: z.ZodType<Record<string, unknown>>;
  connect(account: { id: string; credentials: Record<string, string>; settings: Record<string, unknown> }): Connector;
  pages?: readonly ProviderPage[];
  /**
   * A bank's virtual POS: the banks it serves, each by the value of the account's `bank` setting
   * ('' for a provider that is one bank and has no such setting). The dashboard shows an account's
   * bank by name, and the 3D callback address the bank may ask the merchant to allow.
   */
  banks?: readonly BankOption[];
}

export interface BankOption {
  id: string;
  name: string;
}

/** The bank an account's settings choose, by name; null for a provider that is not a bank or a bank id it does not list. */
export function bankNameOf(definition: ProviderDefinition | undefined, settings: unknown): string | null {
  const banks = definition?.banks ?? [];
  const chosen = settings !== null && typeof settings === 'object' ? (settings as Record<string, unknown>).bank : undefined;
  return banks.find((b) => b.id === (typeof chosen === 'string' ? chosen : ''))?.name ?? null;
}

/** The account columns a connector is built from; `credentials` is the encrypted JSON. */
export interface ConnectableAccount {
  id: string;
  workspaceId: string;
  provider: string;
  credentials: string | null;
  settings: unknown;
}

export interface ProviderRegistry {
  readonly definitions: readonly ProviderDefinition[];
  /** Throws for a provider the catalog does not have. */
  definition(id: string): ProviderDefinition;
  /** The account's connector; throws when its provider is unknown or its stored credentials do not read. */
  forAccount(account: ConnectableAccount): Connector;
}

/** How many accounts' connectors one process keeps (the oldest built is dropped first). */
const CONNECTORS_KEPT = 1_000;

/**
 * `attempts`: where the connectors handed out record each call about a payment, refund or card
 * (recording.ts); without it (the CLI's account checks) calls are not recorded.
 */
export function createRegistry(definitions: readonly ProviderDefinition[], decrypt: (stored: string, subject: string) => string, attempts?: AttemptSink): ProviderRegistry {
  const byId = new Map(definitions.map((d) => [d.id, d]));
  const built = new Map<string, { version: string; connector: Connector }>();
  const definition = (id: string): ProviderDefinition => {
    const found = byId.get(id);
    if (!found) throw new Error(`Payment provider "${id}" is not in the catalog`);
    return found;
  };
  return {
    definitions,
    definition,
    forAccount(account) {
      const version = `${account.provider}\n${account.credentials ?? ''}\n${JSON.stringify(account.settings ?? {})}`;
      const cached = built.get(account.id);
      if (cached?.version === version) return cached.connector;
      const def = definition(account.provider);
      const credentials = def.credentials.parse(account.credentials ? JSON.parse(decrypt(account.credentials, `payment account ${account.id}`)) : {});
      const settings = def.settings.parse(account.settings ?? {});
      const connected = def.connect({ id: account.id, credentials, settings });
      const connector = attempts ? recordAttempts(connected, { id: account.id, workspaceId: account.workspaceId }, attempts) : connected;
      if (built.size >= CONNECTORS_KEPT) built.delete(built.keys().next().value!);
      built.set(account.id, { version, connector });
      return connector;
    },
  };
}
