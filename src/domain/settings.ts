// Workspace settings a merchant changes from the dashboard: API key and secret
// rotation, channels, payment accounts, the default account, routing rules and the test/live
// mode. The operator functions of workspaces.ts do the writing (the CLI calls the same ones);
// this module holds the vocabulary both use and checks a merchant's input by field path.
import { z } from 'zod';
import { DEFAULT_PROVIDER } from '../providers/registry.ts';
import type { Channel, Mode, PaymentAccount, RoutingRule, Workspace } from '../generated/prisma/client.ts';
import type { BinInfo, CardScheme } from '../providers/types.ts';
import type { Services } from './services.ts';
import { findAccount } from './accounts.ts';
import { checkCapabilities, defaultCapabilities, parseSettings, providerFor, sealCredentials, type ConnectionColumns } from './account-credentials.ts';
import { IssueList, NotFoundError, ValidationError } from './errors.ts';
import { isCurrency, parseAmount, type Currency } from './money.ts';
import { isUuid, parseInput } from './validation.ts';
import {
  addRoutingRule,
  createChannel,
  createPaymentAccount,
  removeRoutingRule,
  rotateCredentials,
  setAccountConnection,
  setBinSourceAccount,
  setDefaultAccount,
  setUnknownKeys,
  UNKNOWN_KEYS,
  updateWorkspace,
  type AccountCapabilities,
  type Credentials,
} from './workspaces.ts';

// ---------------------------------------------------------------- vocabulary (CLI and dashboard)

export const CAPABILITIES = ['secure', 'non_secure', 'card_storage', 'card_deletion', 'refund', 'cancel', 'hosted_page', 'conversion'] as const;
export type CapabilityName = (typeof CAPABILITIES)[number];
export const CAPABILITY_KEYS: Record<CapabilityName, keyof AccountCapabilities> = {
  secure: 'secure',
  non_secure: 'nonSecure',
  card_storage: 'cardStorage',
  card_deletion: 'cardDeletion',
  refund: 'refund',
  cancel: 'cancel',
  hosted_page: 'hostedPage',
  conversion: 'conversion',
};
export const CARD_SCHEMES = ['visa', 'mastercard', 'american_express', 'troy', 'discover', 'diners_club', 'jcb', 'unionpay', 'maestro'] as const satisfies readonly CardScheme[];
export const CARD_TYPES = ['credit', 'debit', 'prepaid'] as const satisfies readonly NonNullable<BinInfo['type']>[];
export const BIN_PREFIX = /^\d{1,8}$/;
export const MODES = ['test', 'live'] as const;

/** Names listed switched on, every other capability off. */
export function capabilitiesOf(names: readonly CapabilityName[]): AccountCapabilities {
  return Object.fromEntries(CAPABILITIES.map((n) => [CAPABILITY_KEYS[n], names.includes(n)])) as AccountCapabilities;
}

// ---------------------------------------------------------------- operations

/** Revokes the workspace's keys and issues a new key and secret; the secret is returned only here. */
export function rotateApiCredentials(s: Services, workspace: Workspace): Promise<Credentials> {
  return rotateCredentials(s.db, s.masterKey, workspace.slug, s.clock);
}

const channelInput = z.object({ name: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255) }).strict();

export function addChannel(s: Services, workspace: Workspace, raw: unknown): Promise<Channel> {
  const { name } = parseInput(channelInput, raw);
  return createChannel(s.db, workspace.slug, name);
}

const accountInput = z
  .object({
    name: z.string({ error: 'invalid_type' }).trim().min(1, { error: 'required' }).max(255),
    provider: z.string({ error: 'invalid_type' }).nullish(),
    currencies: z.array(z.string({ error: 'invalid_type' }), { error: 'invalid_type' }),
    /** Absent: everything the provider offers but currency conversion. */
    capabilities: z.array(z.string({ error: 'invalid_type' }), { error: 'invalid_type' }).nullish(),
    isDefault: z.boolean({ error: 'invalid_boolean' }).nullish(),
    // Checked with the provider's own schemas once the provider is known (account-credentials.ts).
    credentials: z.unknown().optional(),
    settings: z.unknown().optional(),
  })
  .strict();

/** What the account operations use: the database, the provider catalog and the master key that seals credentials. */
export type AccountServices = Pick<Services, 'db' | 'providers' | 'masterKey'>;

/**
 * A payment account in the workspace's current mode (an operator may pick another); `isDefault`
 * also makes it the default. Its credentials and settings are checked with its provider's
 * schemas, and it may switch on only capabilities its provider offers; nothing is written unless
 * all of it passes.
 */
export async function addPaymentAccount(s: AccountServices, workspace: Workspace, raw: unknown, operator: { mode?: Mode } = {}): Promise<PaymentAccount> {
  const input = parseInput(accountInput, raw);
  const issues = new IssueList();
  const def = providerFor(s.providers, input.provider ?? DEFAULT_PROVIDER, issues);
  if (input.currencies.length === 0) issues.add(['currencies'], 'currencies_required');
  input.currencies.forEach((c, i) => {
    if (!isCurrency(c)) issues.add(['currencies', i], 'currency_invalid');
  });
  input.capabilities?.forEach((c, i) => {
    if (!(CAPABILITIES as readonly string[]).includes(c)) issues.add(['capabilities', i], 'value_not_allowed', { allowed: CAPABILITIES.join(', ') });
  });
  if (def && input.capabilities) checkCapabilities(def, input.capabilities, issues);
  const credentials = def && sealCredentials(def, s.masterKey, input.credentials, issues);
  const settings = def && parseSettings(def, input.settings, issues);
  issues.throwIfAny();
  return createPaymentAccount(s.db, workspace.slug, {
    name: input.name,
    provider: def!.id,
    mode: operator.mode,
    currencies: [...new Set(input.currencies)] as Currency[],
    capabilities: capabilitiesOf((input.capabilities ?? defaultCapabilities(def!)) as CapabilityName[]),
    isDefault: input.isDefault ?? false,
    credentials: credentials ?? null,
    settings: settings ?? {},
  });
}

const connectionInput = z.object({ credentials: z.unknown().optional(), settings: z.unknown().optional() }).strict();

/**
 * Replaces an account's credentials and/or settings, each wholesale: credentials given are the
 * whole set (every required field), so a key pair is never half old, half new. The old secret is
 * gone from the row at once, and payments build their connector from the new one from the next
 * call on. Null or absent leaves that part as it is; one of them must be given.
 */
export async function updatePaymentAccountConnection(s: AccountServices, workspace: Workspace, token: string, raw: unknown): Promise<PaymentAccount> {
  const input = parseInput(connectionInput, raw);
  const account = await requireAccount(s, workspace, token, ['token']);
  if (input.credentials == null && input.settings == null) throw ValidationError.single(['credentials'], 'connection_change_empty');
  const issues = new IssueList();
  const def = providerFor(s.providers, account.provider, issues);
  const change: Partial<ConnectionColumns> = {};
  if (def && input.credentials != null) {
    const sealed = sealCredentials(def, s.masterKey, input.credentials, issues);
    if (sealed !== undefined) change.credentials = sealed;
  }
  if (def && input.settings != null) change.settings = parseSettings(def, input.settings, issues);
  issues.throwIfAny();
  return setAccountConnection(s.db, account.id, change);
}

/** The account whose provider answers the workspace's BIN lookups; null: the default account's. */
export async function setBinSource(s: Pick<Services, 'db'>, workspace: Workspace, token: string | null): Promise<Workspace> {
  if (token === null) return setBinSourceAccount(s.db, workspace.slug, null);
  const account = isUuid(token) ? await findAccount(s.db, workspace.id, token) : null;
  if (!account) throw ValidationError.single(['token'], 'account_not_found');
  return setBinSourceAccount(s.db, workspace.slug, account.id);
}

async function requireAccount(s: Pick<Services, 'db'>, workspace: Workspace, token: string, path: Array<string | number>): Promise<PaymentAccount> {
  const account = isUuid(token) ? await findAccount(s.db, workspace.id, token) : null;
  if (!account) throw NotFoundError.single(path, 'account_not_found');
  return account;
}

export async function setDefaultPaymentAccount(s: Services, workspace: Workspace, token: string): Promise<Workspace> {
  const account = await requireAccount(s, workspace, token, ['token']);
  return setDefaultAccount(s.db, workspace.slug, account.id);
}

const text = z.string({ error: 'invalid_type' }).trim();
const ruleInput = z
  .object({
    paymentProviderToken: z.string({ error: 'invalid_type' }),
    scheme: text.nullish(),
    cardType: text.nullish(),
    binPrefix: text.nullish(),
    issuerCode: text.max(16).nullish(),
    currency: text.nullish(),
    minAmount: z.union([z.string(), z.number()], { error: 'amount_format' }).nullish(),
    maxAmount: z.union([z.string(), z.number()], { error: 'amount_format' }).nullish(),
    program: text.max(64, { error: 'too_long' }).nullish(),
    weight: z.number({ error: 'weight_range' }).int({ error: 'weight_range' }).min(1, { error: 'weight_range' }).max(1000, { error: 'weight_range' }).nullish(),
  })
  .strict();

/** Appends a rule after the existing ones (its position breaks cost ties); every condition given must hold. */
export async function addWorkspaceRoutingRule(s: Services, workspace: Workspace, raw: unknown): Promise<RoutingRule> {
  const input = parseInput(ruleInput, raw);
  const issues = new IssueList();
  const pick = <T extends string>(value: string | null | undefined, values: readonly T[], path: string): T | undefined => {
    const v = value ? value.toLowerCase() : undefined;
    if (v && !(values as readonly string[]).includes(v)) issues.add([path], 'value_not_allowed', { allowed: values.join(', ') });
    return v as T | undefined;
  };
  const money = (value: string | number | null | undefined, path: string): bigint | undefined => {
    if (value == null || value === '') return undefined;
    const amount = parseAmount(value);
    if (amount === null) issues.add([path], 'amount_format');
    return amount ?? undefined;
  };
  const scheme = pick(input.scheme, CARD_SCHEMES, 'scheme');
  const cardType = pick(input.cardType, CARD_TYPES, 'cardType');
  const binPrefix = input.binPrefix || undefined;
  if (binPrefix && !BIN_PREFIX.test(binPrefix)) issues.add(['binPrefix'], 'bin_prefix_invalid');
  const currency = input.currency ? input.currency.toUpperCase() : undefined;
  if (currency && !isCurrency(currency)) issues.add(['currency'], 'currency_invalid');
  const minAmount = money(input.minAmount, 'minAmount');
  const maxAmount = money(input.maxAmount, 'maxAmount');
  if (minAmount !== undefined && maxAmount !== undefined && maxAmount < minAmount) issues.add(['maxAmount'], 'amount_range_order');
  issues.throwIfAny();
  const account = await requireAccount(s, workspace, input.paymentProviderToken, ['paymentProviderToken']);
  return addRoutingRule(s.db, workspace.slug, {
    paymentAccountId: account.id,
    scheme,
    cardType,
    binPrefix,
    issuerCode: input.issuerCode || undefined,
    currency: currency as Currency | undefined,
    minAmount,
    maxAmount,
    program: input.program || undefined,
    weight: input.weight ?? undefined,
  });
}

/** Deletes one rule of the workspace; the rules after it keep their order. */
export async function removeWorkspaceRoutingRule(s: Services, workspace: Workspace, id: string): Promise<RoutingRule> {
  const rule = isUuid(id) ? await s.db.routingRule.findFirst({ where: { id, workspaceId: workspace.id } }) : null;
  if (!rule) throw NotFoundError.single(['id'], 'routing_rule_not_found');
  await removeRoutingRule(s.db, workspace.slug, rule.id);
  return rule;
}

export function setWorkspaceMode(s: Services, workspace: Workspace, mode: string): Promise<Workspace> {
  if (!(MODES as readonly string[]).includes(mode)) throw ValidationError.single(['mode'], 'value_not_allowed', { allowed: MODES.join(', ') });
  return updateWorkspace(s.db, workspace.slug, { mode: mode as (typeof MODES)[number] });
}

/** reject (422, the default) or ignore: what the REST calls do with a key the operation does not know. */
export function setWorkspaceUnknownKeys(s: Services, workspace: Workspace, policy: string): Promise<Workspace> {
  const known = UNKNOWN_KEYS.find((p) => p === policy);
  if (!known) throw ValidationError.single(['policy'], 'value_not_allowed', { allowed: UNKNOWN_KEYS.join(', ') });
  return setUnknownKeys(s.db, workspace.slug, known);
}
