// Saved cards (contract: save-card, saved-cards, default-saved-card, delete-saved-card and the
// default-flag table). Only first digits, last four, expiry and holder are kept; the provider
// holds the card. Default changes lock the customer row so parallel calls leave one default.
import { commitAfterBank } from '../db/busy.ts';
import { z } from 'zod';
import { Prisma, type Customer, type PaymentAccount, type SavedCard, type Workspace } from '../generated/prisma/client.ts';
import type { Services } from './services.ts';
import type { Tx } from '../db/client.ts';
import type { CardScheme } from '../providers/types.ts';
import { parseInput, uuid } from './validation.ts';
import { customerInput, shopperOf, upsertCustomer } from './customers.ts';
import { providerSupports } from './account-credentials.ts';
import { requireFeature } from './plans.ts';
import { requireChannel } from './channels.ts';
import { findAccount } from './accounts.ts';
import { requireCardVault } from './card-vault.ts';
import { requireCapabilities } from './routing/choice.ts';
import { ValidationError } from './errors.ts';
import { firstDigitsOf, lastFourOf, storedCardInput } from './cards.ts';
import { queryRows } from '../db/raw.ts';

export const saveCardInput = z.object({
  savedCard: z.object({ channelToken: uuid(), paymentProviderToken: uuid().nullish() }, { error: 'required' }),
  customer: customerInput(),
  card: storedCardInput,
});

const customerRef = z.object(
  { channelToken: uuid(), channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }) },
  { error: 'customer_required' },
);
export const listInput = z.object({ customer: customerRef });
export const cardRefInput = z.object({ customer: customerRef, savedCard: z.object({ token: uuid() }, { error: 'required' }) });

export interface SaveCardResult {
  customer: Customer;
  savedCard: SavedCard | null;
  failure: { code: string; text: string } | null;
}

export async function saveCard(s: Services, workspace: Workspace, raw: unknown): Promise<SaveCardResult> {
  requireFeature(workspace, 'saved_cards');
  const input = parseInput(saveCardInput, raw);
  const channel = await requireChannel(s.db, workspace.id, input.savedCard.channelToken, ['savedCard', 'channelToken']);
  const account = await storageAccount(s, workspace, input.savedCard.paymentProviderToken);
  const c = input.card;
  const res = await s.providers.forAccount(account).storeCard({
    shopper: shopperOf(input.customer),
    idempotencyKey: `save-card:${channel.id}:${input.customer.channelReference}:${lastFourOf(c.number)}:${s.clock.now().getTime()}`,
    card: { holderName: c.holderName, number: c.number, securityCode: c.securityCode ?? undefined, expiryMonth: c.expiryMonth, expiryYear: c.expiryYear },
  });
  // The customer and its card are written together: a failed card insert leaves no customer change.
  return commitAfterBank(s.db, async (tx) => {
    const customer = await upsertCustomer(tx, workspace.id, channel.id, input.customer, s.clock.now());
    if (res.status !== 'stored') return { customer, savedCard: null, failure: { code: res.code, text: res.message } };
    const facts = { cardReference: res.cardReference, scheme: res.scheme, holderName: c.holderName, firstDigits: firstDigitsOf(c.number), lastFourDigits: lastFourOf(c.number), expiryMonth: c.expiryMonth, expiryYear: c.expiryYear };
    return { customer, savedCard: await recordSavedCard(tx, workspace.id, customer.id, account, facts, s.clock.now()), failure: null };
  });
}

const TOKEN_PATH = ['savedCard', 'paymentProviderToken'];

/**
 * The account given must store cards itself; without one, the default account, or when it cannot
 * (a bank), the workspace's card storage account (card-vault.ts).
 */
async function storageAccount(s: Services, workspace: Workspace, token: string | null | undefined): Promise<PaymentAccount> {
  const id = token ?? workspace.defaultPaymentAccountId;
  if (!id) throw ValidationError.single(TOKEN_PATH, 'no_default_account');
  const account = await findAccount(s.db, workspace.id, id);
  if (!account) throw ValidationError.single(TOKEN_PATH, token ? 'account_not_found' : 'no_default_account');
  // An account given is where the merchant wants the card: it must store it itself.
  if (token) requireCapabilities(s, account, ['cardStorage'], TOKEN_PATH);
  return requireCardVault(s, workspace, account, TOKEN_PATH);
}

export interface StoredCardFacts {
  cardReference: string;
  scheme: CardScheme | string | null;
  holderName: string;
  firstDigits: string;
  lastFourDigits: string;
  expiryMonth: string;
  expiryYear: string;
}

/** Writes the card row; the customer's first card becomes the default (customer row locked). */
export async function recordSavedCard(tx: Tx, workspaceId: string, customerId: string, account: PaymentAccount, card: StoredCardFacts, at: Date): Promise<SavedCard> {
  await lockCustomer(tx, customerId);
  const existing = await tx.savedCard.count({ where: { customerId } });
  return tx.savedCard.create({
    data: {
      workspaceId,
      customerId,
      paymentAccountId: account.id,
      mode: account.mode,
      providerCardReference: card.cardReference,
      holderName: card.holderName,
      scheme: card.scheme,
      firstDigits: card.firstDigits,
      lastFourDigits: card.lastFourDigits,
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      isDefault: existing === 0,
      createdAt: at,
    },
  });
}

async function lockCustomer(tx: Tx, customerId: string): Promise<void> {
  await queryRows(tx, Prisma.sql`SELECT id FROM "Customer" WHERE id = ${customerId}::uuid FOR UPDATE`);
}

async function requireCustomer(s: Services, workspace: Workspace, ref: { channelToken: string; channelReference: string }): Promise<Customer> {
  const customer = await s.db.customer.findFirst({ where: { workspaceId: workspace.id, channelId: ref.channelToken, channelReference: ref.channelReference } });
  if (!customer) throw ValidationError.single(['customer', 'channelReference'], 'customer_not_found');
  return customer;
}

/** Default first, then oldest to newest; test and live cards alike; no paging. */
export async function listSavedCards(s: Services, workspace: Workspace, raw: unknown): Promise<{ customer: Customer; savedCards: SavedCard[] }> {
  requireFeature(workspace, 'saved_cards');
  const input = parseInput(listInput, raw);
  const customer = await requireCustomer(s, workspace, input.customer);
  const savedCards = await s.db.savedCard.findMany({ where: { customerId: customer.id }, orderBy: [{ isDefault: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }] });
  return { customer, savedCards };
}

async function requireCustomerCard(s: Services, workspace: Workspace, raw: unknown): Promise<{ customer: Customer; card: SavedCard & { paymentAccount: PaymentAccount | null } }> {
  requireFeature(workspace, 'saved_cards');
  const input = parseInput(cardRefInput, raw);
  const customer = await requireCustomer(s, workspace, input.customer);
  const card = await s.db.savedCard.findFirst({ where: { id: input.savedCard.token, customerId: customer.id }, include: { paymentAccount: true } });
  if (!card) throw ValidationError.single(['savedCard', 'token'], 'saved_card_not_found');
  return { customer, card };
}

export async function setDefaultSavedCard(s: Services, workspace: Workspace, raw: unknown): Promise<{ customer: Customer; savedCard: SavedCard }> {
  const { customer, card } = await requireCustomerCard(s, workspace, raw);
  const savedCard = await s.db.$transaction(async (tx) => {
    await lockCustomer(tx, customer.id);
    // Deleted by a parallel request since it was found: no such card any more.
    const { count } = await tx.savedCard.updateMany({ where: { id: card.id }, data: { isDefault: true } });
    if (count === 0) throw ValidationError.single(['savedCard', 'token'], 'saved_card_not_found');
    await tx.savedCard.updateMany({ where: { customerId: customer.id, isDefault: true, NOT: { id: card.id } }, data: { isDefault: false } });
    return tx.savedCard.findUniqueOrThrow({ where: { id: card.id } });
  });
  return { customer, savedCard };
}

export interface DeleteCardResult {
  customer: Customer;
  savedCard: { id: string };
  failure: { code: string; text: string } | null;
}

/** Deletes at the provider, then here; the newest remaining card inherits the default flag. */
export async function deleteSavedCard(s: Services, workspace: Workspace, raw: unknown): Promise<DeleteCardResult> {
  const { customer, card } = await requireCustomerCard(s, workspace, raw);
  const account = card.paymentAccount;
  if (!account || !providerSupports(s.providers, account, 'card_deletion')) {
    throw ValidationError.single(['savedCard', 'token'], 'account_no_card_deletion');
  }
  const res = await s.providers.forAccount(account).deleteCard({ cardReference: card.providerCardReference });
  if (res.status !== 'deleted') return { customer, savedCard: { id: card.id }, failure: { code: res.code, text: res.message } };
  await commitAfterBank(s.db, async (tx) => {
    await lockCustomer(tx, customer.id);
    // A parallel delete of the same card may have won: then this one found no such card.
    const { count } = await tx.savedCard.deleteMany({ where: { id: card.id } });
    if (count === 0) throw ValidationError.single(['savedCard', 'token'], 'saved_card_not_found');
    if (!card.isDefault) return;
    const newest = await tx.savedCard.findFirst({ where: { customerId: customer.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    if (newest) await tx.savedCard.update({ where: { id: newest.id }, data: { isDefault: true } });
  });
  return { customer, savedCard: { id: card.id }, failure: null };
}

/**
 * card.should_save: the card a payment was made with becomes a saved card once the payment
 * succeeded. `stored` is the provider's token of it and the account that holds it (the charging
 * one, or the workspace's card storage account: card-vault.ts), taken at the start for 3D
 * payments since the number is never kept; the stored facts come from the payment's own card columns.
 */
export async function savePaymentCard(tx: Tx, paymentId: string, stored: { reference: string; accountId: string | null }, at: Date): Promise<SavedCard | null> {
  const p = await tx.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const vault = stored.accountId ? await tx.paymentAccount.findUnique({ where: { id: stored.accountId } }) : null;
  if (!p.customerId || !vault || !p.cardFirstDigits || !p.cardLastFourDigits || !p.cardExpiryMonth || !p.cardExpiryYear) return null;
  const card = await recordSavedCard(tx, p.workspaceId, p.customerId, vault, {
    cardReference: stored.reference,
    scheme: p.cardScheme,
    holderName: p.cardHolderName ?? '',
    firstDigits: p.cardFirstDigits,
    lastFourDigits: p.cardLastFourDigits,
    expiryMonth: p.cardExpiryMonth,
    expiryYear: p.cardExpiryYear,
  }, at);
  await tx.payment.update({ where: { id: paymentId }, data: { storedCardId: card.id, pendingCardReference: null, pendingCardAccountId: null } });
  return card;
}
