// iyzico's request and answer bodies for the calls the gateway makes, as the official client
// (iyzipay-node lib/requests, lib/resources) and iyzico's API reference describe them. Field
// names are iyzico's own. Amounts are decimal strings in major units (amount.ts converts them);
// answers keep fractional JSON numbers as their source text, so an answer's amount is a string
// (or a JSON integer). Answers list only the fields the gateway reads; iyzico sends more.

/** Paths after the base URL; they are also what the IYZWSv2 signature covers. */
export const IYZICO_PATHS = {
  payment: '/payment/auth',
  threeDSInitialize: '/payment/3dsecure/initialize',
  threeDSAuth: '/payment/3dsecure/auth',
  paymentDetail: '/payment/detail',
  refund: '/payment/refund',
  cancel: '/payment/cancel',
  binCheck: '/payment/bin/check',
  installments: '/payment/iyzipos/installment',
  cardStorage: '/cardstorage/card',
} as const;
export type IyzicoPath = (typeof IYZICO_PATHS)[keyof typeof IYZICO_PATHS];

export type Locale = 'tr' | 'en';
/** A decimal in major units as iyzico writes it: "10.5". */
export type Price = string;
/** An amount in an answer: the decimal's text, or a JSON integer. */
export type AnswerPrice = string | number;

/** Every request carries these; conversationId comes back in the answer unchanged. */
export interface BaseRequest {
  locale: Locale;
  conversationId: string;
}

// ------------------------------------------------------------------ requests

export interface RawPaymentCard {
  cardHolderName: string;
  cardNumber: string;
  expireYear: string;
  expireMonth: string;
  cvc?: string;
  registerCard?: 0 | 1;
}
export interface SavedPaymentCard {
  cardUserKey: string;
  cardToken: string;
}
export type PaymentCard = RawPaymentCard | SavedPaymentCard;

export interface Buyer {
  id: string;
  name: string;
  surname: string;
  identityNumber: string;
  email: string;
  registrationAddress: string;
  city: string;
  country: string;
  ip: string;
  gsmNumber?: string;
  zipCode?: string;
}

export interface Address {
  contactName: string;
  city: string;
  country: string;
  address: string;
  zipCode?: string;
}

export interface BasketItem {
  id: string;
  name: string;
  category1: string;
  itemType: 'PHYSICAL' | 'VIRTUAL';
  price: Price;
}

/** payment/auth (non-3D) and, with callbackUrl, payment/3dsecure/initialize. */
export interface PaymentRequest extends BaseRequest {
  price: Price;
  paidPrice: Price;
  currency: string;
  installment: number;
  basketId: string;
  paymentChannel: 'WEB';
  paymentGroup: 'PRODUCT';
  paymentCard: PaymentCard;
  buyer: Buyer;
  billingAddress: Address;
  shippingAddress?: Address;
  basketItems: BasketItem[];
}
export interface ThreeDSInitializeRequest extends PaymentRequest {
  callbackUrl: string;
}
/** payment/3dsecure/auth, after iyzico posted the cardholder's 3D result to callbackUrl. */
export interface ThreeDSAuthRequest extends BaseRequest {
  paymentId: string;
  conversationData?: string;
}
/** payment/detail: by iyzico's paymentId, or by the conversationId the payment was sent with. */
export type PaymentDetailRequest = BaseRequest & ({ paymentId: string } | { paymentConversationId: string });
/** payment/refund: refunds one basket item's transaction (the gateway sends one item per payment). */
export interface RefundRequest extends BaseRequest {
  paymentTransactionId: string;
  price: Price;
  currency: string;
  ip: string;
}
export interface CancelRequest extends BaseRequest {
  paymentId: string;
  ip: string;
}
export interface BinCheckRequest extends BaseRequest {
  binNumber: string;
}
export interface InstallmentRequest extends BaseRequest {
  binNumber: string;
  price: Price;
  currency?: string;
}
/** cardstorage/card POST: a new card user (email) or another card for a cardUserKey. */
export interface StoreCardRequest extends BaseRequest {
  email?: string;
  externalId?: string;
  cardUserKey?: string;
  card: { cardAlias: string; cardNumber: string; expireYear: string; expireMonth: string; cardHolderName: string };
}
/** cardstorage/card DELETE. */
export interface DeleteCardRequest extends BaseRequest {
  cardUserKey: string;
  cardToken: string;
}

// ------------------------------------------------------------------ answers

/** What every answer carries: `failure` answers add the error fields. */
export interface AnswerBase {
  status: 'success' | 'failure';
  locale?: string;
  systemTime?: number;
  conversationId?: string;
  errorCode?: string;
  errorMessage?: string;
  errorGroup?: string;
}

export interface ItemTransaction {
  itemId: string;
  paymentTransactionId: string;
  transactionStatus?: number;
  price: AnswerPrice;
  paidPrice: AnswerPrice;
}

/** payment/auth, payment/3dsecure/auth and payment/detail. */
export interface PaymentAnswer extends AnswerBase {
  paymentId?: string;
  price?: AnswerPrice;
  paidPrice?: AnswerPrice;
  currency?: string;
  installment?: number;
  basketId?: string;
  /** 1 approved, 0 under review, -1 refused by iyzico's fraud checks. */
  fraudStatus?: number;
  /** SUCCESS / FAILURE / INIT_THREEDS / CALLBACK_THREEDS / ... on payment/detail. */
  paymentStatus?: string;
  mdStatus?: number;
  cardAssociation?: string;
  cardType?: string;
  binNumber?: string;
  lastFourDigits?: string;
  cardUserKey?: string;
  cardToken?: string;
  authCode?: string;
  itemTransactions?: ItemTransaction[];
  signature?: string;
}

export interface ThreeDSInitializeAnswer extends AnswerBase {
  paymentId?: string;
  /** base64 HTML that takes the shopper to the issuer's ACS page. */
  threeDSHtmlContent?: string;
  signature?: string;
}

export interface RefundAnswer extends AnswerBase {
  paymentId?: string;
  paymentTransactionId?: string;
  price?: AnswerPrice;
  currency?: string;
}

export interface CancelAnswer extends AnswerBase {
  paymentId?: string;
  price?: AnswerPrice;
  currency?: string;
}

export interface BinCheckAnswer extends AnswerBase {
  binNumber?: string;
  cardType?: 'CREDIT_CARD' | 'DEBIT_CARD' | 'PREPAID_CARD' | string;
  cardAssociation?: 'VISA' | 'MASTER_CARD' | 'AMERICAN_EXPRESS' | 'TROY' | string;
  cardFamily?: string;
  bankName?: string;
  bankCode?: number;
  commercial?: number;
}

export interface InstallmentPrice {
  installmentNumber: number;
  installmentPrice: AnswerPrice;
  totalPrice: AnswerPrice;
}
export interface InstallmentAnswer extends AnswerBase {
  installmentDetails?: Array<{
    binNumber: string;
    price: AnswerPrice;
    cardType?: string;
    cardAssociation?: string;
    cardFamilyName?: string;
    bankName?: string;
    bankCode?: number;
    force3ds?: number;
    commercial?: number;
    installmentPrices: InstallmentPrice[];
  }>;
}

export interface StoreCardAnswer extends AnswerBase {
  externalId?: string;
  email?: string;
  cardUserKey?: string;
  cardToken?: string;
  cardAlias?: string;
  binNumber?: string;
  lastFourDigits?: string;
  cardType?: string;
  cardAssociation?: string;
  cardFamily?: string;
  cardBankName?: string;
}

export type DeleteCardAnswer = AnswerBase;
