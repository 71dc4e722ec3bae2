// Where the money comes from: the card sent in the request, or a saved card (whose account is
// then the payment's account). Only the columns that may be stored leave this module; the full
// number and security code go to the provider call and nowhere else.
import type { PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { BinInfo, CardData } from '../../providers/types.ts';
import { covers } from '../plans.ts';
import { ValidationError } from '../errors.ts';
import type { PaymentInput } from './input.ts';

export interface SavedCardSource {
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

/** First 8 digits when the number has 16 or more, else the first 6 (spec: Saved card object). */
export function firstDigitsOf(number: string): string {
  return number.slice(0, number.length >= 16 ? 8 : 6);
}

export async function resolveSavedCard(s: Services, workspace: Workspace, input: PaymentInput): Promise<SavedCardSource> {
  const token = input.transaction.savedCardToken;
  if (!token) {
    const card = input.card!;
    const bin = await s.providers.binSource.binLookup(card.number.slice(0, 8));
    return {
      bin,
      account: null,
      providerSource: {
        card: { holderName: card.holderName, number: card.number, securityCode: card.securityCode, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
      },
      cardColumns: {
        cardHolderName: card.holderName,
        cardFirstDigits: firstDigitsOf(card.number),
        cardLastFourDigits: card.number.slice(-4),
        cardScheme: bin.scheme,
        cardExpiryMonth: card.expiryMonth,
        cardExpiryYear: card.expiryYear,
      },
    };
  }
  const path = ['transaction', 'savedCardToken'];
  if (!covers(workspace, 'saved_cards')) throw ValidationError.single(path, 'plan_saved_cards');
  const saved = await s.db.savedCard.findFirst({
    where: { id: token, workspaceId: workspace.id },
    include: { customer: true, paymentAccount: true },
  });
  // Another customer's card reads exactly like an unknown one.
  if (
    !saved ||
    saved.customer.channelReference !== input.customer.channelReference ||
    saved.customer.channelId !== input.transaction.channelToken
  ) {
    throw ValidationError.single(path, 'saved_card_not_found');
  }
  if (!saved.paymentAccount || saved.paymentAccount.deletedAt) throw ValidationError.single(path, 'saved_card_account_deleted');
  if (saved.mode !== workspace.mode) throw ValidationError.single(path, 'saved_card_other_mode');
  if (!saved.paymentAccount.cardStorage) throw ValidationError.single(path, 'saved_card_account_unsupported');
  return {
    bin: await s.providers.binSource.binLookup(saved.firstDigits),
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
