// A payment account's connection to its provider. Credentials are the provider's secrets (API
// keys): checked with the provider definition's schema, stored encrypted with the master key,
// never read back; only `credentialHints` shows them, masked. Settings (addresses, options) are
// checked the same way and stored as parsed, defaults filled. Capabilities: an account can switch
// off what its provider offers, never switch on what it lacks. The dashboard, GraphQL and the CLI
// all check through here, so a mistake is the same 422 at `credentials.<field>`,
// `settings.<field>` or `capabilities.<i>` wherever it is made.
import { z } from 'zod';
import type { PaymentAccount } from '../generated/prisma/client.ts';
import type { ProviderDefinition, ProviderRegistry } from '../providers/registry.ts';
import type { Capability } from '../providers/types.ts';
import { capabilityNames } from './accounts.ts';
import type { IssueList } from './errors.ts';
import { decryptSecret, encryptSecret } from './secrets.ts';
import { parsePart } from './validation.ts';

/** The account columns a connection is stored in (`credentials`: the encrypted JSON, null when none). */
export interface ConnectionColumns {
  credentials: string | null;
  settings: Record<string, unknown>;
}

/** The provider named by an account input, or an issue at `provider`. */
export function providerFor(registry: ProviderRegistry, id: string, issues: IssueList): ProviderDefinition | undefined {
  const found = registry.definitions.find((d) => d.id === id);
  if (!found) issues.add(['provider'], 'value_not_allowed', { allowed: registry.definitions.map((d) => d.id).join(', ') });
  return found;
}

/**
 * A whole set of credentials (every required field, nothing unknown), encrypted for the account
 * row; null for a provider that takes none. Undefined, with issues at `credentials.<field>`, when
 * they do not pass.
 */
export function sealCredentials(def: ProviderDefinition, masterKey: Buffer, raw: unknown, issues: IssueList): string | null | undefined {
  const parsed = parsePart(def.credentials, raw ?? {}, ['credentials'], issues);
  if (parsed === undefined) return undefined;
  return Object.keys(parsed).length > 0 ? encryptSecret(masterKey, JSON.stringify(parsed)) : null;
}

/** Settings as the provider reads them, defaults filled; undefined, with issues at `settings.<field>`, when they do not pass. */
export function parseSettings(def: ProviderDefinition, raw: unknown, issues: IssueList): Record<string, unknown> | undefined {
  return parsePart(def.settings, raw ?? {}, ['settings'], issues);
}

/**
 * Capabilities (wire names, as given) the provider lacks: an issue at `capabilities.<i>` for each
 * (a name already refused at its path, e.g. not a capability at all, is not reported twice).
 */
export function checkCapabilities(def: ProviderDefinition, names: readonly string[], issues: IssueList): void {
  names.forEach((name, i) => {
    const path = ['capabilities', i];
    if (!issues.has(path) && !def.capabilities.has(name as Capability)) issues.add(path, 'capability_not_supported', { capability: name, provider: def.label });
  });
}

/** What a new account switches on when nobody says: everything its provider offers except currency conversion. */
export function defaultCapabilities(def: ProviderDefinition): Capability[] {
  return [...def.capabilities].filter((c) => c !== 'conversion');
}

/**
 * Whether the account may use a capability (wire name: `secure`, `non_secure`, …): switched on for
 * the account and offered by its provider. An account switched on before its provider dropped a
 * capability still cannot use it.
 */
export function providerSupports(registry: ProviderRegistry, account: PaymentAccount, capability: Capability): boolean {
  const def = registry.definitions.find((d) => d.id === account.provider);
  return Boolean(def?.capabilities.has(capability) && capabilityNames(account).includes(capability));
}

// ---------------------------------------------------------------- what may be shown

export interface CredentialHint {
  name: string;
  hint: string;
}

const MASK = '••••';
/** Shorter values show nothing of themselves: four characters of a short secret are too much of it. */
const HINT_FROM_LENGTH = 12;

/** A credential as people may see it: its last four characters when it is long enough, else only the mask. */
export function maskCredential(value: string): string {
  return value.length >= HINT_FROM_LENGTH ? `${MASK}${value.slice(-4)}` : MASK;
}

/** Each stored credential's name and masked value (enough to tell which key is set); nothing else of them leaves the domain. */
export function credentialHints(masterKey: Buffer, account: Pick<PaymentAccount, 'credentials'>): CredentialHint[] {
  if (!account.credentials) return [];
  const values = JSON.parse(decryptSecret(masterKey, account.credentials)) as Record<string, unknown>;
  return Object.entries(values).map(([name, value]) => ({ name, hint: maskCredential(String(value)) }));
}

export interface ProviderField {
  name: string;
  required: boolean;
  /** What an absent value becomes (settings only), as text. */
  defaultValue: string | null;
}

/** The fields of a provider's credentials or settings schema, for forms that ask for them. */
export function providerFields(schema: z.ZodType): ProviderField[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const absent = field.safeParse(undefined);
    return { name, required: !absent.success, defaultValue: absent.success && absent.data !== undefined ? String(absent.data) : null };
  });
}
