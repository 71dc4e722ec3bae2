// A bank virtual POS account in a test gateway, the same way for every bank: the account as the
// dashboard stores it (credentials encrypted with the master key, settings JSON), a workspace that
// pays through it only, and the bank exchanges the connector logged (scrubbed).
import { encryptSecret } from '../../src/domain/secrets.ts';
import { seedWorkspace, type Merchant, type SeedOptions, type TestGateway } from './gateway.ts';

export interface BankAccount {
  provider: string;
  name: string;
  credentials: Record<string, string>;
  settings: Record<string, unknown>;
  installmentRatesBp?: number[];
}

export async function addBankAccount(t: TestGateway, workspaceId: string, account: BankAccount): Promise<string> {
  const db = t.gateway.services.db;
  const row = await db.paymentAccount.create({
    data: {
      workspaceId,
      name: account.name,
      provider: account.provider,
      mode: 'test',
      currencies: ['TRY', 'USD', 'EUR'],
      installmentRatesBp: account.installmentRatesBp ?? [],
      credentials: encryptSecret(t.gateway.masterKey, JSON.stringify(account.credentials)),
      settings: account.settings as object,
    },
  });
  await db.workspace.update({ where: { id: workspaceId }, data: { defaultPaymentAccountId: row.id } });
  await t.gateway.admission.synced();
  return row.id;
}

/** A workspace whose only account is the bank account, made its default. */
export async function seedBankMerchant(t: TestGateway, account: BankAccount, opts: Omit<SeedOptions, 'defaultAccount'> = {}): Promise<Merchant> {
  const m = await seedWorkspace(t, { ...opts, defaultAccount: false });
  // seedWorkspace always makes a simulator account; this workspace pays through the bank only.
  await t.gateway.services.db.paymentAccount.update({ where: { id: m.accountToken }, data: { deletedAt: new Date() } });
  return { ...m, accountToken: await addBankAccount(t, m.workspaceId, account) };
}

/** The gateway's logged exchanges with a bank (`<provider> exchange`), oldest first. */
export function bankCalls(t: TestGateway, provider: string, operation?: string): Array<{ operation: string } & Record<string, unknown>> {
  return t.logLines
    .map((line) => JSON.parse(line) as { msg?: string; operation: string } & Record<string, unknown>)
    .filter((l) => l.msg === `${provider} exchange` && (operation === undefined || l.operation === operation));
}
