// Operator actions on workspaces, their keys, channels, accounts and routing rules. Used by the
// admin CLI and the demo seed; merchants never reach these.
import { systemClock, type Clock } from './clock.ts';
import { DEFAULT_PROVIDER } from '../providers/registry.ts';
import type { Db, Tx } from '../db/client.ts';
import type { Mode, PaymentAccount, Prisma, Workspace } from '../generated/prisma/client.ts';
import type { Currency } from './money.ts';
import { encryptSecret, generateApiKey, generateApiSecret } from './secrets.ts';
import type { Feature } from './plans.ts';

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface PlanSettings {
  orders?: boolean;
  savedCards?: boolean;
  subscriptions?: boolean;
  paymentLinks?: boolean;
  payByLink?: boolean;
}

export const ALL_FEATURES: PlanSettings = { orders: true, savedCards: true, subscriptions: true, paymentLinks: true, payByLink: true };

export async function createWorkspace(
  db: Db,
  masterKey: Buffer,
  input: { slug: string; name?: string; plan?: PlanSettings; timeZone?: string; mode?: Mode },
): Promise<{ workspace: Workspace; credentials: Credentials }> {
  return db.$transaction(async (tx) => {
    const workspace = await tx.workspace.create({
      data: { slug: input.slug, name: input.name ?? input.slug, timeZone: input.timeZone, mode: input.mode, ...planColumns(input.plan ?? {}) },
    });
    const credentials = await issueCredentials(tx, masterKey, workspace.id);
    return { workspace, credentials };
  });
}

export async function requireWorkspace(db: Tx, slug: string): Promise<Workspace> {
  const workspace = await db.workspace.findUnique({ where: { slug } });
  if (!workspace) throw new Error(`No workspace "${slug}"`);
  return workspace;
}

/** Revokes every key of the workspace and issues a new one; the old key stops working at once. */
export async function rotateCredentials(db: Db, masterKey: Buffer, slug: string, clock: Clock = systemClock): Promise<Credentials> {
  return db.$transaction(async (tx) => {
    const workspace = await requireWorkspace(tx, slug);
    await tx.apiCredential.updateMany({ where: { workspaceId: workspace.id, revokedAt: null }, data: { revokedAt: clock.now() } });
    return issueCredentials(tx, masterKey, workspace.id);
  });
}

async function issueCredentials(tx: Tx, masterKey: Buffer, workspaceId: string): Promise<Credentials> {
  const apiKey = generateApiKey();
  const apiSecret = generateApiSecret();
  await tx.apiCredential.create({ data: { workspaceId, apiKey, secretEncrypted: encryptSecret(masterKey, apiSecret) } });
  return { apiKey, apiSecret };
}

export async function setPlan(db: Db, slug: string, plan: PlanSettings): Promise<Workspace> {
  return db.workspace.update({ where: { slug }, data: planColumns(plan) });
}

export async function updateWorkspace(db: Db, slug: string, data: { active?: boolean; timeZone?: string; mode?: Mode; name?: string }): Promise<Workspace> {
  return db.workspace.update({ where: { slug }, data });
}

/** What the REST shim does with a key an operation does not know: answer 422, or drop it. */
export type UnknownKeys = 'reject' | 'ignore';
export const UNKNOWN_KEYS: readonly UnknownKeys[] = ['reject', 'ignore'];

export const unknownKeysOf = (workspace: Workspace): UnknownKeys => (workspace.ignoreUnknownKeys ? 'ignore' : 'reject');

export async function setUnknownKeys(db: Db, slug: string, policy: UnknownKeys): Promise<Workspace> {
  return db.workspace.update({ where: { slug }, data: { ignoreUnknownKeys: policy === 'ignore' } });
}

/** A workspace's own 429 limits; null: the gateway's setting (RATE_LIMIT_PER_SECOND, RATE_LIMIT_LINKS_PER_MINUTE); 0: no limit. */
export interface WorkspaceLimits {
  perSecond?: number | null;
  linksPerMinute?: number | null;
}

export async function setRateLimits(db: Db, slug: string, limits: WorkspaceLimits): Promise<Workspace> {
  return db.workspace.update({ where: { slug }, data: { rateLimitPerSecond: limits.perSecond, rateLimitLinksPerMinute: limits.linksPerMinute } });
}

function planColumns(plan: PlanSettings) {
  return {
    planOrders: plan.orders,
    planSavedCards: plan.savedCards,
    planSubscriptions: plan.subscriptions,
    planPaymentLinks: plan.paymentLinks,
    payByLinkEnabled: plan.payByLink,
  };
}

export async function createChannel(db: Db, slug: string, name: string) {
  const workspace = await requireWorkspace(db, slug);
  return db.channel.create({ data: { workspaceId: workspace.id, name } });
}

export type AccountCapabilities = Partial<Record<'secure' | 'nonSecure' | 'cardStorage' | 'cardDeletion' | 'refund' | 'cancel' | 'hostedPage' | 'conversion', boolean>>;

export async function createPaymentAccount(
  db: Db,
  slug: string,
  input: {
    name: string;
    provider?: string;
    mode?: Mode;
    currencies?: Currency[];
    capabilities?: AccountCapabilities;
    isDefault?: boolean;
    installmentRatesBp?: number[];
    /** Already encrypted (account-credentials.ts sealCredentials); absent: none. */
    credentials?: string | null;
    settings?: Record<string, unknown>;
  },
): Promise<PaymentAccount> {
  return db.$transaction(async (tx) => {
    const workspace = await requireWorkspace(tx, slug);
    const account = await tx.paymentAccount.create({
      data: {
        workspaceId: workspace.id,
        name: input.name,
        provider: input.provider ?? DEFAULT_PROVIDER,
        mode: input.mode ?? workspace.mode,
        currencies: input.currencies ?? ['TRY', 'USD', 'EUR', 'GBP'],
        installmentRatesBp: input.installmentRatesBp ?? [],
        credentials: input.credentials ?? null,
        settings: (input.settings ?? {}) as Prisma.InputJsonObject,
        ...input.capabilities,
      },
    });
    if (input.isDefault) await tx.workspace.update({ where: { id: workspace.id }, data: { defaultPaymentAccountId: account.id } });
    return account;
  });
}

/** Replaces an account's sealed credentials and/or settings (each as a whole). */
export async function setAccountConnection(db: Db, accountId: string, change: { credentials?: string | null; settings?: Record<string, unknown> }): Promise<PaymentAccount> {
  return db.paymentAccount.update({ where: { id: accountId }, data: { credentials: change.credentials, settings: change.settings as Prisma.InputJsonObject | undefined } });
}

/** The account whose provider answers the workspace's BIN lookups (src/domain/bin-source.ts); null: the default account. */
export async function setBinSourceAccount(db: Db, slug: string, accountId: string | null): Promise<Workspace> {
  return db.workspace.update({ where: { slug }, data: { binSourceAccountId: accountId } });
}

export async function setDefaultAccount(db: Db, slug: string, accountId: string | null): Promise<Workspace> {
  const workspace = await requireWorkspace(db, slug);
  return db.workspace.update({ where: { id: workspace.id }, data: { defaultPaymentAccountId: accountId } });
}

export interface RoutingRuleInput {
  paymentAccountId: string;
  scheme?: string;
  cardType?: string;
  binPrefix?: string;
  issuerCode?: string;
  currency?: Currency;
  minAmount?: bigint;
  maxAmount?: bigint;
  /** Card program from the BIN facts (e.g. Bonus). */
  program?: string;
  /** Share of volume in a run of consecutive weighted rules. */
  weight?: number;
}

/** Appends a rule after the existing ones (its position breaks cost ties). */
export async function addRoutingRule(db: Db, slug: string, rule: RoutingRuleInput) {
  return db.$transaction(async (tx) => {
    const workspace = await requireWorkspace(tx, slug);
    const account = await tx.paymentAccount.findFirst({ where: { id: rule.paymentAccountId, workspaceId: workspace.id, deletedAt: null } });
    if (!account) throw new Error(`No payment account ${rule.paymentAccountId} in "${slug}"`);
    const last = await tx.routingRule.aggregate({ where: { workspaceId: workspace.id }, _max: { position: true } });
    return tx.routingRule.create({ data: { workspaceId: workspace.id, position: (last._max.position ?? 0) + 1, ...rule } });
  });
}

export async function listRoutingRules(db: Db, slug: string) {
  const workspace = await requireWorkspace(db, slug);
  return db.routingRule.findMany({ where: { workspaceId: workspace.id }, orderBy: { position: 'asc' } });
}

export async function removeRoutingRule(db: Db, slug: string, ruleId: string): Promise<void> {
  const workspace = await requireWorkspace(db, slug);
  const { count } = await db.routingRule.deleteMany({ where: { id: ruleId, workspaceId: workspace.id } });
  if (count === 0) throw new Error(`No routing rule ${ruleId} in "${slug}"`);
}


export type { Feature };
