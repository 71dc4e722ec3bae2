// Payment account selection (contract convention 10): an explicit token, else the first routing
// rule that matches the card, else the workspace default; none is a 422 on the token's path.
import type { PaymentAccount, RoutingRule, Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { BinInfo, Connector } from '../providers/types.ts';
import type { Services } from './services.ts';
import type { Currency } from './money.ts';
import { ValidationError, type Path } from './errors.ts';
import { processCache } from './process-cache.ts';

export interface CardFacts {
  bin: BinInfo | null;
  currency: Currency;
  amount: bigint;
}

export interface AccountRequest {
  /** The payment_provider_token sent, if any. */
  token?: string | null;
  /** Where errors about the account are reported, e.g. ['transaction', 'paymentProviderToken']. */
  path: Path;
  card: CardFacts;
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

export async function selectAccount(db: Tx, workspace: Workspace, req: AccountRequest): Promise<PaymentAccount> {
  const accounts = await liveAccounts(db, workspace);
  if (req.token) {
    const account = accounts.find((a) => a.id === req.token);
    if (!account) throw ValidationError.single(req.path, 'account_not_found');
    return withoutRules(account);
  }
  const rules = accounts.flatMap((account) => account.routingRules.map((rule) => ({ rule, account })));
  rules.sort((a, b) => a.rule.position - b.rule.position);
  const routed = rules.find(({ rule }) => ruleMatches(rule, req.card));
  if (routed) return withoutRules(routed.account);
  const fallback = accounts.find((a) => a.id === workspace.defaultPaymentAccountId);
  if (fallback) return withoutRules(fallback);
  throw ValidationError.single(req.path, 'no_default_account');
}

type AccountWithRules = PaymentAccount & { routingRules: RoutingRule[] };

/** One live account of the workspace, from the per-process copy `selectAccount` reads. */
export async function liveAccount(db: Tx, workspace: Workspace, id: string): Promise<PaymentAccount | null> {
  const found = (await liveAccounts(db, workspace)).find((a) => a.id === id);
  return found ? withoutRules(found) : null;
}

const withoutRules = ({ routingRules: _rules, ...account }: AccountWithRules): PaymentAccount => account;

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
    select: { settingsVersion: true, paymentAccounts: { where: { deletedAt: null }, include: { routingRules: true }, orderBy: { createdAt: 'asc' } } },
  });
  settings.set(db, workspace.id, { version: read.settingsVersion, accounts: read.paymentAccounts });
  return read.paymentAccounts;
}

/** A rule matches when every condition it sets holds; unset conditions match anything. */
export function ruleMatches(rule: RoutingRule, card: CardFacts): boolean {
  const bin = card.bin;
  if (rule.scheme && rule.scheme !== bin?.scheme) return false;
  if (rule.cardType && rule.cardType !== bin?.type) return false;
  if (rule.issuerCode && rule.issuerCode !== bin?.issuerCode) return false;
  if (rule.binPrefix && !(bin?.bin ?? '').startsWith(rule.binPrefix)) return false;
  if (rule.currency && rule.currency !== card.currency) return false;
  if (rule.minAmount !== null && card.amount < rule.minAmount) return false;
  if (rule.maxAmount !== null && card.amount > rule.maxAmount) return false;
  return true;
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
