// Where the money of an attempt comes from: a card typed in (API request or hosted card form) or
// a saved card, whose account is then the payment's account. Only the columns that may be stored
// leave this module; the full number and security code go to the provider call and nowhere else.
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { BinInfo, CardData } from '../../providers/types.ts';
import type { Path } from '../errors.ts';
import { covers } from '../plans.ts';
import { ValidationError } from '../errors.ts';
import { lookupBin } from '../bin-source.ts';
import { providerSupports } from '../account-credentials.ts';
import { binOf, firstDigitsOf, lastFourOf, type CardInput } from '../cards.ts';

export interface CardSource {
  bin: BinInfo | null;
  /** Set when paying with a saved card: the card's own account. */
  account: PaymentAccount | null;
  providerSource: { card: CardData } | { savedCard: { cardReference: string } };
  cardColumns: {
    cardHolderName: string;
    cardFirstDigits: string;
    cardLastFourDigits: string;
    cardScheme: string | null;
    cardExpiryMonth: string;
    cardExpiryYear: string;
    paidWithCardId?: string;
  };
}

const BIN_RE = /^\d{6,8}$/;

/** What a hosted card form may learn of the card being typed: the facts of its 6-8 digit BIN. */
export async function pageBinLookup(s: Services, workspace: Workspace, bin: string): Promise<BinInfo> {
  if (!BIN_RE.test(bin)) throw ValidationError.single(['bin'], bin.length < 6 ? 'bin_too_short' : /^\d+$/.test(bin) ? 'bin_too_long' : 'bin_digits_only');
  return { ...(await lookupBin(s, workspace, bin)), bin };
}

/** A card typed in: its BIN facts route the payment; the number itself goes only to the bank. */
export async function typedCard(s: Services, workspace: Workspace, card: CardInput): Promise<CardSource> {
  const bin = await lookupBin(s, workspace, binOf(card.number));
  return {
    // Routing rules match BIN prefixes on the digits typed, not on the shorter range the provider knew.
    bin: { ...bin, bin: binOf(card.number) },
    account: null,
    providerSource: {
      card: { holderName: card.holderName, number: card.number, securityCode: card.securityCode, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
    },
    cardColumns: {
      cardHolderName: card.holderName,
      cardFirstDigits: firstDigitsOf(card.number),
      cardLastFourDigits: lastFourOf(card.number),
      cardScheme: bin.scheme,
      cardExpiryMonth: card.expiryMonth,
      cardExpiryYear: card.expiryYear,
    },
  };
}

export interface SavedCardRequest {
  token: string;
  /** The customer the card must belong to: another customer's card reads exactly like an unknown one. */
  customer: { channelId: string; channelReference: string };
  path: Path;
}

/** A saved card of the customer, chargeable only through the account that stores it. */
export async function savedCard(s: Services, workspace: Workspace, req: SavedCardRequest): Promise<CardSource> {
  const { path } = req;
  if (!covers(workspace, 'saved_cards')) throw ValidationError.single(path, 'plan_saved_cards');
  const saved = await s.db.savedCard.findFirst({
    where: { id: req.token, workspaceId: workspace.id },
    include: { customer: true, paymentAccount: true },
  });
  if (!saved || saved.customer.channelReference !== req.customer.channelReference || saved.customer.channelId !== req.customer.channelId) {
    throw ValidationError.single(path, 'saved_card_not_found');
  }
  if (!saved.paymentAccount || saved.paymentAccount.deletedAt) throw ValidationError.single(path, 'saved_card_account_deleted');
  if (saved.mode !== workspace.mode) throw ValidationError.single(path, 'saved_card_other_mode');
  if (!providerSupports(s.providers, saved.paymentAccount, 'card_storage')) throw ValidationError.single(path, 'saved_card_account_unsupported');
  return {
    bin: await lookupBin(s, workspace, saved.firstDigits),
    account: saved.paymentAccount,
    providerSource: { savedCard: { cardReference: saved.providerCardReference } },
    cardColumns: {
      cardHolderName: saved.holderName,
      cardFirstDigits: saved.firstDigits,
      cardLastFourDigits: saved.lastFourDigits,
      cardScheme: saved.scheme,
      cardExpiryMonth: saved.expiryMonth,
      cardExpiryYear: saved.expiryYear,
      paidWithCardId: saved.id,
    },
  };
}
