// Builds iyzico request bodies from the gateway's inputs (src/providers/types.ts). The gateway's
// idempotency key becomes iyzico's conversationId (and the basket id), so payment/detail can find
// a payment whose answer was lost by `paymentConversationId`.
//
// iyzico requires, on every payment: buyer id, name, surname, identityNumber, email,
// registrationAddress, city, country and ip; a billingAddress (contactName, city, country,
// address); and at least one basket item (id, name, category1, itemType, price) whose prices add
// up to `price`. A shippingAddress is required only when an item is PHYSICAL. The gateway does not
// collect a shopper's identity or address, so whatever the caller does not pass is a placeholder:
//  - the caller's basket as VIRTUAL items (VIRTUAL is what spares a shipping address nobody
//    has), or, without a usable basket, one item priced at the whole amount;
//  - identityNumber 11111111111: iyzico wants 11 digits (a Turkish ID number) and accepts this
//    value from merchants that do not collect ID numbers;
//  - email at example.com, a reserved domain, so no receipt iyzico sends can reach a stranger;
//  - names from the card holder's name (last word as surname), else "Guest Shopper";
//  - "Not provided" for addresses, Istanbul / Turkey for city and country (iyzico's market, and
//    its sandbox examples), 127.0.0.1 when the shopper's IP is unknown.
// The payment input's `shopper` (what the gateway knows) fills the buyer; iyzico's fraud checks
// read at least its IP and email.
import type { BasketItem as GatewayBasketItem, CardData, ChargeInput, Currency, InstallmentsInput, RefundInput, StoreCardInput } from '../types.ts';
import { toIyzicoPrice } from './amount.ts';
import { parseCardRef, type PaymentRef } from './references.ts';
import type {
  Address,
  BasketItem,
  BinCheckRequest,
  Buyer,
  CancelRequest,
  DeleteCardRequest,
  InstallmentRequest,
  Locale,
  PaymentCard,
  PaymentDetailRequest,
  PaymentRequest,
  RefundRequest,
  StoreCardRequest,
  ThreeDSAuthRequest,
  ThreeDSInitializeRequest,
} from './wire.ts';

/** What the gateway may know about the shopper; anything missing becomes a placeholder (above). */
export interface Shopper {
  id?: string;
  name?: string;
  surname?: string;
  email?: string;
  ip?: string;
  identityNumber?: string;
  phone?: string;
  address?: string;
  city?: string;
  country?: string;
  zipCode?: string;
}

export interface RequestContext {
  locale: Locale;
  shopper?: Shopper;
}

export const PLACEHOLDER = {
  buyerId: 'guest',
  name: 'Guest',
  surname: 'Shopper',
  identityNumber: '11111111111',
  email: 'shopper@example.com',
  address: 'Not provided',
  city: 'Istanbul',
  country: 'Turkey',
  ip: '127.0.0.1',
  itemId: 'payment',
  itemName: 'Payment',
  itemCategory: 'General',
} as const;

/** "Ayşe Nur Yılmaz" -> Ayşe Nur / Yılmaz; a single word is both. */
function splitHolderName(holderName: string | undefined): { name: string; surname: string } | null {
  const words = (holderName ?? '').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  if (words.length === 1) return { name: words[0]!, surname: words[0]! };
  return { name: words.slice(0, -1).join(' '), surname: words.at(-1)! };
}

function buyer(shopper: Shopper, card: CardData | undefined): Buyer {
  const names = splitHolderName(card?.holderName);
  return {
    id: shopper.id ?? PLACEHOLDER.buyerId,
    name: shopper.name ?? names?.name ?? PLACEHOLDER.name,
    surname: shopper.surname ?? names?.surname ?? PLACEHOLDER.surname,
    identityNumber: shopper.identityNumber ?? PLACEHOLDER.identityNumber,
    email: shopper.email ?? PLACEHOLDER.email,
    registrationAddress: shopper.address ?? PLACEHOLDER.address,
    city: shopper.city ?? PLACEHOLDER.city,
    country: shopper.country ?? PLACEHOLDER.country,
    ip: shopper.ip ?? PLACEHOLDER.ip,
    ...(shopper.phone === undefined ? {} : { gsmNumber: shopper.phone }),
    ...(shopper.zipCode === undefined ? {} : { zipCode: shopper.zipCode }),
  };
}

/** The shopper's known fields, blank ones dropped (a blank name or email is not one iyzico takes). */
function known(shopper: Shopper | undefined): Shopper {
  return Object.fromEntries(Object.entries(shopper ?? {}).filter(([, v]) => typeof v === 'string' && v.trim() !== '')) as Shopper;
}

function billingAddress(b: Buyer): Address {
  return { contactName: `${b.name} ${b.surname}`, city: b.city, country: b.country, address: b.registrationAddress, ...(b.zipCode ? { zipCode: b.zipCode } : {}) };
}

/** Raw card fields, or the saved card's two keys. Throws RangeError on a card reference this module did not write. */
function paymentCard(input: ChargeInput): PaymentCard {
  if (input.card) {
    const { card } = input;
    return {
      cardHolderName: card.holderName,
      cardNumber: card.number,
      expireYear: card.expiryYear,
      expireMonth: card.expiryMonth,
      ...(card.securityCode === undefined ? {} : { cvc: card.securityCode }),
    };
  }
  const ref = parseCardRef(input.savedCard.cardReference);
  if (ref === null) throw new RangeError('Not an iyzico card reference');
  return ref;
}

/**
 * The caller's basket as iyzico's VIRTUAL items, or the single placeholder item when there is no
 * basket or it cannot be sent as it is: iyzico refuses items priced at zero and a basket whose
 * prices do not add up to the payment's price, and a refused payment helps nobody.
 */
function basketItems(amount: bigint, basket: readonly GatewayBasketItem[] | undefined): BasketItem[] {
  const usable =
    basket !== undefined &&
    basket.length > 0 &&
    basket.every((item) => item.price > 0n) &&
    basket.reduce((sum, item) => sum + item.price, 0n) === amount;
  if (!usable) {
    return [{ id: PLACEHOLDER.itemId, name: PLACEHOLDER.itemName, category1: PLACEHOLDER.itemCategory, itemType: 'VIRTUAL', price: toIyzicoPrice(amount) }];
  }
  return basket.map((item) => ({
    id: item.id.trim() || PLACEHOLDER.itemId,
    name: item.name.trim() || PLACEHOLDER.itemName,
    category1: PLACEHOLDER.itemCategory,
    itemType: 'VIRTUAL',
    price: toIyzicoPrice(item.price),
  }));
}

export type PaymentBuildInput = ChargeInput & {
  /** What the shopper pays, instalment surcharge included; the amount when not given. */
  paidAmount?: bigint;
};

/** payment/auth: a non-3D payment. */
export function paymentRequest(input: PaymentBuildInput, ctx: RequestContext): PaymentRequest {
  // The payment's own shopper wins over the context's (which may add iyzico-only fields).
  const b = buyer({ ...known(ctx.shopper), ...known(input.shopper) }, input.card);
  const price = toIyzicoPrice(input.amount);
  return {
    locale: ctx.locale,
    conversationId: input.idempotencyKey,
    price,
    paidPrice: toIyzicoPrice(input.paidAmount ?? input.amount),
    currency: input.currency,
    installment: input.installmentNumber,
    basketId: input.idempotencyKey,
    paymentChannel: 'WEB',
    paymentGroup: 'PRODUCT',
    paymentCard: paymentCard(input),
    buyer: b,
    billingAddress: billingAddress(b),
    basketItems: basketItems(input.amount, input.basket),
  };
}

/** payment/3dsecure/initialize: the same payment, plus where iyzico posts the shopper back. */
export function threeDSInitializeRequest(input: PaymentBuildInput, callbackUrl: string, ctx: RequestContext): ThreeDSInitializeRequest {
  return { ...paymentRequest(input, ctx), callbackUrl };
}

/** payment/3dsecure/auth: completes a 3D payment after iyzico's callback said the shopper passed. */
export function threeDSAuthRequest(
  input: { idempotencyKey: string; paymentId: string; conversationData?: string },
  ctx: RequestContext,
): ThreeDSAuthRequest {
  return {
    locale: ctx.locale,
    conversationId: input.idempotencyKey,
    paymentId: input.paymentId,
    ...(input.conversationData ? { conversationData: input.conversationData } : {}),
  };
}

/** payment/detail: by iyzico's paymentId when known, else by the idempotency key the payment was sent with. */
export function paymentDetailRequest(
  input: { idempotencyKey: string; paymentId: string | null },
  ctx: RequestContext,
): PaymentDetailRequest {
  const base = { locale: ctx.locale, conversationId: input.idempotencyKey };
  return input.paymentId !== null ? { ...base, paymentId: input.paymentId } : { ...base, paymentConversationId: input.idempotencyKey };
}

/** payment/refund of part or all of a paid payment's single basket item. */
export function refundRequest(
  input: Omit<RefundInput, 'providerReference'> & { payment: PaymentRef },
  ctx: RequestContext,
): RefundRequest {
  if (input.payment.paymentTransactionId === null) throw new RangeError('A refund needs the paid payment\u2019s transaction id');
  return {
    locale: ctx.locale,
    conversationId: input.idempotencyKey,
    paymentTransactionId: input.payment.paymentTransactionId,
    price: toIyzicoPrice(input.amount),
    currency: input.currency,
    ip: ctx.shopper?.ip ?? PLACEHOLDER.ip,
  };
}

/** payment/cancel: voids the whole payment (same day, before settlement). */
export function cancelRequest(input: { idempotencyKey: string; payment: PaymentRef }, ctx: RequestContext): CancelRequest {
  return { locale: ctx.locale, conversationId: input.idempotencyKey, paymentId: input.payment.paymentId, ip: ctx.shopper?.ip ?? PLACEHOLDER.ip };
}

/** payment/bin/check: iyzico takes the first 6 or 8 digits. */
export function binCheckRequest(bin: string, ctx: RequestContext & { conversationId: string }): BinCheckRequest {
  return { locale: ctx.locale, conversationId: ctx.conversationId, binNumber: bin };
}

/** payment/iyzipos/installment: iyzico's own instalment quote for this card and amount. */
export function installmentRequest(
  input: Pick<InstallmentsInput, 'bin' | 'amount'> & { currency: Currency },
  ctx: RequestContext & { conversationId: string },
): InstallmentRequest {
  return { locale: ctx.locale, conversationId: ctx.conversationId, binNumber: input.bin, price: toIyzicoPrice(input.amount), currency: input.currency };
}

/**
 * cardstorage/card: stores a card. With `cardUserKey` the card joins that iyzico card user;
 * without it iyzico creates a card user and requires an email for it.
 */
export function storeCardRequest(
  input: StoreCardInput,
  ctx: RequestContext & { cardUserKey?: string },
): StoreCardRequest {
  const { card } = input;
  return {
    locale: ctx.locale,
    conversationId: input.idempotencyKey,
    ...(ctx.cardUserKey === undefined ? { email: ctx.shopper?.email ?? PLACEHOLDER.email, externalId: input.idempotencyKey } : { cardUserKey: ctx.cardUserKey }),
    card: {
      // iyzico shows the alias in its panel; the last four digits are all it needs to tell cards apart.
      cardAlias: `card ${card.number.slice(-4)}`,
      cardNumber: card.number,
      expireYear: card.expiryYear,
      expireMonth: card.expiryMonth,
      cardHolderName: card.holderName,
    },
  };
}

/** cardstorage/card DELETE. Throws RangeError on a card reference this module did not write. */
export function deleteCardRequest(cardReference: string, ctx: RequestContext & { conversationId: string }): DeleteCardRequest {
  const ref = parseCardRef(cardReference);
  if (ref === null) throw new RangeError('Not an iyzico card reference');
  return { locale: ctx.locale, conversationId: ctx.conversationId, ...ref };
}
