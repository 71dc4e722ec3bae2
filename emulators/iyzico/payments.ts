import { responseSignature } from './auth.ts';
import { BANK_ERRORS, lookupCard, type CardOutcome, type KnownCard } from './cards.ts';
import { ERRORS, IyziFailure } from './errors.ts';
import { toAmount, toMinor } from './money.ts';
import { obj, str, type ApiContext } from './api.ts';
import type { CardFacts, ItemTransaction, Payment } from './state.ts';

const CURRENCIES = ['TRY', 'EUR', 'USD', 'GBP', 'IRR', 'NOK', 'RUB', 'CHF'];
const BUYER_FIELDS = ['id', 'name', 'surname', 'identityNumber', 'email', 'registrationAddress', 'city', 'country', 'ip'];
const ADDRESS_FIELDS = ['contactName', 'city', 'country', 'address'];
const ITEM_FIELDS = ['id', 'name', 'category1', 'itemType'];

function requireFields(source: Record<string, unknown> | undefined, prefix: string, fields: string[]): void {
  if (!source) throw new IyziFailure(ERRORS.required(prefix));
  for (const field of fields) {
    if (source[field] === undefined || source[field] === null || source[field] === '') throw new IyziFailure(ERRORS.required(`${prefix}.${field}`));
  }
}

/** Checks a CreatePaymentRequest body the way iyzico validates it before reaching the bank. */
export function validatePaymentRequest(body: Record<string, unknown>, threeDS: boolean) {
  const price = toMinor(body.price, 'price');
  const paidPrice = toMinor(body.paidPrice, 'paidPrice');
  const currency = str(body.currency) ?? 'TRY';
  if (!CURRENCIES.includes(currency)) throw new IyziFailure(ERRORS.invalidField('currency'));
  const installment = body.installment === undefined ? 1 : Number(body.installment);
  if (![1, 2, 3, 6, 9, 12].includes(installment)) throw new IyziFailure(ERRORS.invalidField('installment'));
  if (threeDS && !str(body.callbackUrl)) throw new IyziFailure(ERRORS.callbackUrlRequired);
  requireFields(obj(body.buyer), 'buyer', BUYER_FIELDS);
  requireFields(obj(body.billingAddress), 'billingAddress', ADDRESS_FIELDS);
  const items = Array.isArray(body.basketItems) ? body.basketItems.map(obj) : [];
  if (items.length === 0) throw new IyziFailure(ERRORS.required('basketItems'));
  const itemPrices = items.map((item, i) => {
    requireFields(item, `basketItems[${i}]`, ITEM_FIELDS);
    if (!['PHYSICAL', 'VIRTUAL'].includes(String(item!.itemType))) throw new IyziFailure(ERRORS.invalidField(`basketItems[${i}].itemType`));
    const itemPrice = toMinor(item!.price, `basketItems[${i}].price`);
    if (itemPrice <= 0) throw new IyziFailure(ERRORS.invalidField(`basketItems[${i}].price`));
    return { id: String(item!.id), price: itemPrice };
  });
  if (items.some((item) => item!.itemType === 'PHYSICAL')) requireFields(obj(body.shippingAddress), 'shippingAddress', ADDRESS_FIELDS);
  if (itemPrices.reduce((sum, item) => sum + item.price, 0) !== price) throw new IyziFailure(ERRORS.basketMismatch);
  if (paidPrice < price) throw new IyziFailure(ERRORS.invalidField('paidPrice'));
  return { price, paidPrice, currency, installment, itemPrices };
}

/** Resolves paymentCard: a test card number with expiry/CVC, or a stored card (cardUserKey + cardToken). */
export function resolveCard(ctx: ApiContext): { card: CardFacts; outcome: CardOutcome } {
  const paymentCard = obj(ctx.body.paymentCard);
  if (!paymentCard) throw new IyziFailure(ERRORS.required('paymentCard'));
  const token = str(paymentCard.cardToken);
  if (token) {
    const stored = ctx.state.cards.get(token);
    if (!stored || stored.cardUserKey !== paymentCard.cardUserKey) throw new IyziFailure(ERRORS.cardNotFound);
    return { card: stored.card, outcome: stored.outcome };
  }
  const known = checkCardInput(paymentCard, true);
  return { card: cardFacts(String(paymentCard.cardNumber), known), outcome: known.outcome };
}

/** Number, holder, expiry (and CVC when asked) of a card given in full. */
export function checkCardInput(card: Record<string, unknown>, needCvc: boolean): KnownCard {
  const number = str(card.cardNumber);
  if (!number) throw new IyziFailure(ERRORS.required('paymentCard.cardNumber'));
  if (!str(card.cardHolderName)) throw new IyziFailure(ERRORS.required('cardHolderName'));
  const known = /^\d{15,16}$/.test(number) ? lookupCard(number) : null;
  if (!known) throw new IyziFailure(ERRORS.invalidCardNumber);
  const month = Number(card.expireMonth);
  const year = Number(String(card.expireYear).length === 2 ? `20${card.expireYear}` : card.expireYear);
  const now = new Date();
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year)) throw new IyziFailure(ERRORS.expiredCard);
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) throw new IyziFailure(ERRORS.expiredCard);
  if (needCvc && !/^\d{3,4}$/.test(String(card.cvc ?? ''))) throw new IyziFailure(ERRORS.invalidCvc);
  return known;
}

export function cardFacts(number: string, known: KnownCard): CardFacts {
  return { ...known.profile, binNumber: number.slice(0, 6), lastFourDigits: number.slice(-4) };
}

/** Creates the payment record (not yet charged) from a validated request. */
export function newPayment(ctx: ApiContext, threeDS: boolean): Payment {
  const request = validatePaymentRequest(ctx.body, threeDS);
  const { card, outcome } = resolveCard(ctx);
  const ratio = request.paidPrice / request.price;
  let paidLeft = request.paidPrice;
  const items: ItemTransaction[] = request.itemPrices.map((item, i, all) => {
    // paidPrice (with installment interest) is spread over the items; the last takes the rounding rest.
    const paid = i === all.length - 1 ? paidLeft : Math.round(item.price * ratio);
    paidLeft -= paid;
    return { itemId: item.id, paymentTransactionId: ctx.state.newId(), price: item.price, paidPrice: paid, refunded: 0 };
  });
  return {
    paymentId: ctx.state.newId(),
    conversationId: str(ctx.body.conversationId),
    basketId: str(ctx.body.basketId),
    currency: request.currency,
    installment: request.installment,
    price: request.price,
    paidPrice: request.paidPrice,
    status: threeDS ? 'INIT_THREEDS' : 'FAILURE',
    threeDS,
    card,
    outcome,
    items,
    cancelled: false,
    authCode: String(100000 + Math.floor(Math.random() * 899999)),
    hostReference: `mock${Date.now()}iyzihostrfn`,
    callbackUrl: str(ctx.body.callbackUrl),
    createdAt: Date.now(),
  };
}

/** The bank's answer for a charge on this payment; throws the decline as iyzico returns it. */
export function charge(ctx: ApiContext, payment: Payment): void {
  const decline = ctx.forceDecline ? BANK_ERRORS.doNotHonour : payment.outcome.kind === 'error' ? payment.outcome.error : null;
  if (decline) {
    payment.status = 'FAILURE';
    ctx.state.paymentSettled(payment);
    throw new IyziFailure({ httpStatus: 200, ...decline });
  }
  payment.status = 'SUCCESS';
  ctx.state.paymentSettled(payment);
}

/** What iyzico tells of one basket item in a payment answer and in its reports: prices and (zero) commissions. */
export function itemAmounts(item: { itemId: string; price: number; paidPrice: number }): Record<string, unknown> {
  return {
    itemId: item.itemId,
    price: toAmount(item.price),
    paidPrice: toAmount(item.paidPrice),
    merchantCommissionRate: 0,
    merchantCommissionRateAmount: 0,
    iyziCommissionRateAmount: 0,
    iyziCommissionFee: 0,
    blockageRate: 0,
    merchantPayoutAmount: toAmount(item.paidPrice),
  };
}

/** iyzico's payment answer (auth, 3DS auth, detail), signed over its documented fields. */
export function paymentBody(ctx: ApiContext, payment: Payment, conversationId: string | undefined): Record<string, unknown> {
  const price = toAmount(payment.price);
  const paidPrice = toAmount(payment.paidPrice);
  return {
    price,
    paidPrice,
    installment: payment.installment,
    paymentId: payment.paymentId,
    fraudStatus: 1,
    merchantCommissionRate: 0,
    merchantCommissionRateAmount: 0,
    iyziCommissionRateAmount: Math.round(payment.paidPrice * 0.0299) / 100,
    iyziCommissionFee: 0.25,
    cardType: payment.card.cardType,
    cardAssociation: payment.card.cardAssociation,
    cardFamily: payment.card.cardFamily,
    binNumber: payment.card.binNumber,
    lastFourDigits: payment.card.lastFourDigits,
    basketId: payment.basketId,
    currency: payment.currency,
    itemTransactions: payment.items.map((item) => ({
      ...itemAmounts(item),
      paymentTransactionId: item.paymentTransactionId,
      transactionStatus: 2,
      iyziConversionRate: 0,
      iyziConversionRateAmount: 0,
    })),
    authCode: payment.authCode,
    phase: 'AUTH',
    hostReference: payment.hostReference,
    ...(payment.threeDS ? { mdStatus: payment.mdStatus === undefined ? undefined : Number(payment.mdStatus) } : {}),
    signature: responseSignature(ctx.secretKey, [payment.paymentId, payment.currency, payment.basketId, conversationId, paidPrice, price]),
  };
}

/** POST /payment/auth — non-3DS payment. */
export function createPayment(ctx: ApiContext): Record<string, unknown> {
  const payment = ctx.state.addPayment(newPayment(ctx, false));
  charge(ctx, payment);
  return paymentBody(ctx, payment, str(ctx.body.conversationId));
}

/** POST /payment/detail — by paymentId, else by paymentConversationId. */
export function retrievePayment(ctx: ApiContext): Record<string, unknown> {
  const payment = str(ctx.body.paymentId)
    ? ctx.state.payment(ctx.body.paymentId)
    : str(ctx.body.paymentConversationId)
      ? ctx.state.paymentByConversation(ctx.body.paymentConversationId)
      : (() => {
          throw new IyziFailure(ERRORS.required('paymentId'));
        })();
  const refunded = payment.items.reduce((sum, item) => sum + item.refunded, 0);
  return {
    ...paymentBody(ctx, payment, str(ctx.body.conversationId)),
    paymentStatus: payment.status,
    // Not iyzico's: kept apart so a connector cannot come to depend on them.
    _emulator: { refundedPrice: toAmount(refunded), cancelled: payment.cancelled },
  };
}
