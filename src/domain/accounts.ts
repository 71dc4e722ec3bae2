// Payment account selection (contract convention 10): an explicit token, else the accounts the
// routing rules matching the card name, cheapest for the payment first, else the workspace
// default (routing/candidates.ts); none is a 422 on the token's path.
import { randomUUID } from 'node:crypto';
import type { AccountCost, PaymentAccount, RoutingRule, Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { Connector } from '../providers/types.ts';
import type { Services } from './services.ts';
import type { RateSource } from './conversion.ts';
import type { Path } from './errors.ts';
import { processCache } from './process-cache.ts';
import { routeCandidates, type Candidate, type RouteRequest } from './routing/candidates.ts';
import type { CardFacts } from './routing/rules.ts';

export { ruleMatches, type CardFacts } from './routing/rules.ts';

export interface AccountRequest {
  /** The payment_provider_token sent, if any. */
  token?: string | null;
  /** Where errors about the account are reported, e.g. ['transaction', 'paymentProviderToken']. */
  path: Path;
  card: CardFacts;
  /** Installments asked for (default 1): the price and the plan depend on it. */
  installmentCount?: number;
  /** What picks among weighted rules, the payment's id; default: a random one. */
  splitKey?: string;
  /** Capabilities the payment needs, and whether an account has them (default: its own flags). */
  needs?: RouteRequest['needs'];
  supports?: RouteRequest['supports'];
  rates?: RateSource;
}

/** The connector of the account a payment was made with. */
export async function paymentConnector(s: Services, payment: { paymentAccountId: string | null }): Promise<Connector> {
  const account = payment.paymentAccountId ? await s.db.paymentAccount.findUnique({ where: { id: payment.paymentAccountId } }) : null;
  if (!account) throw new Error('The payment has no payment account');
  return s.providers.forAccount(account);
}

export async function findAccount(db: Tx, workspaceId: string, token: string): Promise<PaymentAccount | null> {
  return db.paymentAccount.findFirst({ where: { id: token, workspaceId, deletedAt: null } });
}

/** The account a payment goes to: the first of its candidates. */
export async function selectAccount(db: Tx, workspace: Workspace, req: AccountRequest): Promise<PaymentAccount> {
  return withoutRules((await accountCandidates(db, workspace, req))[0]!.account);
}

/**
 * Every account that could take the payment, in the order to try them, with why each is there
 * (routing/candidates.ts). Never empty: no account at all is a 422 on `req.path`.
 */
export async function accountCandidates(db: Tx, workspace: Workspace, req: AccountRequest): Promise<Candidate[]> {
  return routeCandidates({
    accounts: await liveAccounts(db, workspace),
    defaultAccountId: workspace.defaultPaymentAccountId,
    token: req.token,
    path: req.path,
    card: req.card,
    installmentCount: req.installmentCount ?? 1,
    splitKey: req.splitKey ?? randomUUID(),
    needs: req.needs,
    supports: req.supports,
    rates: req.rates,
  });
}

type AccountWithRules = PaymentAccount & { routingRules: RoutingRule[]; costs: AccountCost[] };

/** One live account of the workspace, from the per-process copy `selectAccount` reads. */
export async function liveAccount(db: Tx, workspace: Workspace, id: string): Promise<PaymentAccount | null> {
  const found = (await liveAccounts(db, workspace)).find((a) => a.id === id);
  return found ? withoutRules(found) : null;
}

/** The account row alone, as callers store and compare it. */
export const withoutRules = ({ routingRules: _rules, costs: _costs, ...account }: AccountWithRules): PaymentAccount => account;

/**
 * The workspace's live accounts with their routing rules, kept per process for the
 * `settingsVersion` they were read at. A trigger bumps the version with every write to accounts
 * or rules (migration 0012), and the workspace row a call acts on is read with the call
 * (src/rest/admission.ts), so a call never decides on accounts older than its own workspace row.
 */
const settings = processCache<{ version: number; accounts: AccountWithRules[] }>();

export async function liveAccounts(db: Tx, workspace: Pick<Workspace, 'id' | 'settingsVersion'>): Promise<AccountWithRules[]> {
  const cached = settings.get(db, workspace.id);
  if (cached && cached.version === workspace.settingsVersion) return cached.accounts;
  // The version is read with the accounts, so the entry is labelled with what it holds.
  const read = await db.workspace.findUniqueOrThrow({
    where: { id: workspace.id },
    select: { settingsVersion: true, paymentAccounts: { where: { deletedAt: null }, include: { routingRules: true, costs: true }, orderBy: { createdAt: 'asc' } } },
  });
  settings.set(db, workspace.id, { version: read.settingsVersion, accounts: read.paymentAccounts });
  return read.paymentAccounts;
}

/** The capability flags an account has switched on, by their wire names (`secure`, `non_secure`, `card_storage`, …). */
export function capabilityNames(a: PaymentAccount): string[] {
  const flags: Array<[string, boolean]> = [
    ['secure', a.secure],
    ['non_secure', a.nonSecure],
    ['card_storage', a.cardStorage],
    ['card_deletion', a.cardDeletion],
    ['refund', a.refund],
    ['cancel', a.cancel],
    ['hosted_page', a.hostedPage],
    ['conversion', a.conversion],
  ];
  return flags.filter(([, on]) => on).map(([name]) => name);
}
