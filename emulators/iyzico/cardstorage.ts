import { obj, str, type ApiContext } from './api.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import { cardFacts, checkCardInput } from './payments.ts';
import type { StoredCard } from './state.ts';

const cardDetails = (stored: StoredCard) => ({
  cardToken: stored.cardToken,
  cardAlias: stored.cardAlias,
  binNumber: stored.card.binNumber,
  lastFourDigits: stored.card.lastFourDigits,
  cardType: stored.card.cardType,
  cardAssociation: stored.card.cardAssociation,
  cardFamily: stored.card.cardFamily,
  cardBankCode: stored.card.bankCode,
  cardBankName: stored.card.bankName,
});

/** POST /cardstorage/card — stores a card for an existing cardUserKey, or creates the user (email). */
export function createCard(ctx: ApiContext): Record<string, unknown> {
  const card = obj(ctx.body.card);
  if (!card) throw new IyziFailure(ERRORS.required('card'));
  let cardUserKey = str(ctx.body.cardUserKey);
  if (cardUserKey) {
    if (![...ctx.state.cards.values()].some((c) => c.cardUserKey === cardUserKey)) throw new IyziFailure(ERRORS.cardNotFound);
  } else {
    if (!str(ctx.body.email)) throw new IyziFailure(ERRORS.required('email'));
    cardUserKey = ctx.state.newToken();
  }
  const known = checkCardInput(card, false);
  const stored: StoredCard = {
    cardUserKey,
    cardToken: ctx.state.newToken(),
    cardAlias: str(card.cardAlias),
    email: str(ctx.body.email),
    externalId: str(ctx.body.externalId),
    card: cardFacts(String(card.cardNumber), known),
    outcome: known.outcome,
  };
  ctx.state.cards.set(stored.cardToken, stored);
  return { externalId: stored.externalId, email: stored.email, cardUserKey, ...cardDetails(stored) };
}

/** POST /cardstorage/cards — the cards of one cardUserKey. */
export function listCards(ctx: ApiContext): Record<string, unknown> {
  const cardUserKey = str(ctx.body.cardUserKey);
  if (!cardUserKey) throw new IyziFailure(ERRORS.required('cardUserKey'));
  const cards = [...ctx.state.cards.values()].filter((c) => c.cardUserKey === cardUserKey);
  return { cardUserKey, cardDetails: cards.map(cardDetails) };
}

/** DELETE (or POST) /cardstorage/card — removes one stored card. */
export function deleteCard(ctx: ApiContext): Record<string, unknown> {
  const stored = ctx.state.cards.get(str(ctx.body.cardToken) ?? '');
  if (!stored || stored.cardUserKey !== ctx.body.cardUserKey) throw new IyziFailure(ERRORS.cardNotFound);
  ctx.state.cards.delete(stored.cardToken);
  return {};
}
