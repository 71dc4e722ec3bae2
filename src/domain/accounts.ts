// Payment account records: looking one up, the per-process copy of a workspace's live accounts
// with their routing rules and cost tables, and the capability names an account has switched on.
// Which account takes a payment is routing's (src/domain/routing/choice.ts).
import type { AccountCost, PaymentAccount, RoutingRule, Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { Connector } from '../providers/types.ts';
import type { Services } from './services.ts';
import { processCache } from './process-cache.ts';

/** The connector of the account a payment was made with. */
export async function paymentConnector(s: Services, payment: { paymentAccountId: string | null }): Promise<Connector> {
  const account = payment.paymentAccountId ? await s.db.paymentAccount.findUnique({ where: { id: payment.paymentAccountId } }) : null;
  if (!account) throw new Error('The payment has no payment account');
  return s.providers.forAccount(account);
}

export async function findAccount(db: Tx, workspaceId: string, token: string): Promise<PaymentAccount | null> {
  return db.paymentAccount.findFirst({ where: { id: token, workspaceId, deletedAt: null } });
}

type AccountWithRules = PaymentAccount & { routingRules: RoutingRule[]; costs: AccountCost[] };

/** One live account of the workspace, from the per-process copy routing reads. */
export async function liveAccount(db: Tx, workspace: Workspace, id: string): Promise<PaymentAccount | null> {
  const found = (await liveAccounts(db, workspace)).find((a) => a.id === id);
  return found ? withoutRules(found) : null;
}

/**
 * The account row alone, as callers store and compare it. Made once per row read: the rows are the
 * process's shared copy (`liveAccounts`), which nobody writes to, and every payment asks for its
 * account's row at least twice (an object-rest copy of a wide row each time, before).
 */
export function withoutRules(routed: AccountWithRules): PaymentAccount {
  let account = bareRows.get(routed);
  if (account === undefined) {
    const { routingRules: _rules, costs: _costs, ...row } = routed;
    bareRows.set(routed, (account = row));
  }
  return account;
}

const bareRows = new WeakMap<AccountWithRules, PaymentAccount>();

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
