// Where a card is stored when a payment saves it (card.should_save, a subscription's checkout).
// A PSP stores cards; a bank's virtual POS does not. So a card charged through an account whose
// provider cannot store cards is stored at the workspace's card storage account instead: the
// default account when it stores cards, else the oldest live account that does. The saved card
// then belongs to that account, and later charges with it (a subscription's renewals) go through
// it. An account whose provider does store cards but whose `card_storage` the merchant switched
// off stores none, and nothing stands in for it: that is the merchant's choice, not a gap.
// No account to store the card: `account_no_card_storage`.
import type { PaymentAccount, Workspace } from '../generated/prisma/client.ts';
import type { Services } from './services.ts';
import { liveAccounts } from './accounts.ts';
import { providerSupports } from './account-credentials.ts';
import { ValidationError, type Path } from './errors.ts';

/** Whether an account's provider can store cards at all (a PSP can, a bank's virtual POS cannot). */
export function providerStoresCards(s: Services, account: PaymentAccount): boolean {
  return s.providers.definition(account.provider).capabilities.has('card_storage');
}

/** The account that stores a card charged through `charging`, or null when none can. */
export async function findCardVault(s: Services, workspace: Workspace, charging: PaymentAccount): Promise<PaymentAccount | null> {
  const stores = (account: PaymentAccount) => providerSupports(s.providers, account, 'card_storage');
  if (providerStoresCards(s, charging)) return stores(charging) ? charging : null;
  const accounts = await liveAccounts(s.db, workspace);
  const byDefault = accounts.find((a) => a.id === workspace.defaultPaymentAccountId);
  const vault = byDefault && stores(byDefault) ? byDefault : accounts.find(stores);
  if (!vault) return null;
  const { routingRules: _rules, ...account } = vault;
  return account;
}

/** As findCardVault, for a payment that must store its card: none is a 422 at `path`. */
export async function requireCardVault(s: Services, workspace: Workspace, charging: PaymentAccount, path: Path): Promise<PaymentAccount> {
  const vault = await findCardVault(s, workspace, charging);
  if (!vault) throw ValidationError.single(path, 'account_no_card_storage');
  return vault;
}
