// iyzico's request and answer bodies for the calls the gateway makes, as the official client
// (iyzipay-node lib/requests, lib/resources) and iyzico's API reference describe them. Field
// names are iyzico's own. Amounts are decimal strings in major units (amount.ts converts them);
// answers keep fractional JSON numbers as their source text, so an answer's amount is a string
// (or a JSON integer). Answers list only the fields the gateway reads; iyzico sends more.

/** Paths after the base URL; they are also what the IYZWSv2 signature covers (never the query). */
export const IYZICO_PATHS = {
  payment: '/payment/auth',
  threeDSInitialize: '/payment/3dsecure/initialize',
  threeDSAuth: '/payment/3dsecure/auth',
  paymentDetail: '/payment/detail',
  /** Refund v2: by paymentId; iyzico spreads the amount over the payment's item transactions. */
  refund: '/v2/payment/refund',
  cancel: '/payment/cancel',
  binCheck: '/payment/bin/check',
  installments: '/payment/iyzipos/installment',
  cardStorage: '/cardstorage/card',
  /** Reporting's transaction detail: a GET whose fields go in the query string. */
  paymentReport: '/v2/reporting/payment/details',
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
/** v2/payment/refund: refunds part or all of a payment, whatever its basket items. */
export interface RefundRequest extends BaseRequest {
  paymentId: string;
  price: Price;
  currency: string;
  ip: string;
}
/** v2/reporting/payment/details, sent as the query string: one payment by its id, or by its conversationId. */
export type PaymentReportQuery = BaseRequest & ({ paymentId: string } | { paymentConversationId: string });
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

/** v2/payment/refund; signed over paymentId, price, currency, conversationId. */
export interface RefundAnswer extends AnswerBase {
  paymentId?: string | number;
  price?: AnswerPrice;
  currency?: string;
  authCode?: string;
  hostReference?: string;
  refundHostReference?: string;
  signature?: string;
}

export interface CancelAnswer extends AnswerBase {
  paymentId?: string;
  price?: AnswerPrice;
  currency?: string;
}

/**
 * A refund or cancel as reporting lists it. refundStatus: iyzico's public docs give no values; 1
 * (done) and 0 (refused) follow its paymentStatus table (FAILURE(0), SUCCESS(1)) and are to be
 * confirmed on the sandbox. A refused one carries the bank's error fields.
 */
export interface ReportedReversal {
  refundStatus?: number;
  refundPrice?: AnswerPrice;
  errorCode?: string;
  errorMessage?: string;
  errorGroup?: string;
}
export interface ReportedRefund extends ReportedReversal {
  refundTxId?: number | string;
  refundConversationId?: string | null;
}
export interface ReportedCancel extends ReportedReversal {
  refundId?: number | string;
  cancelConversationId?: string | null;
}
export interface ReportedPayment {
  /** A JSON number in iyzico's reports. */
  paymentId?: number | string;
  /** FAILURE(0), SUCCESS(1), INIT_THREEDS(2), CALLBACK_THREEDS(3), ... */
  paymentStatus?: number;
  paymentRefundStatus?: string;
  paymentConversationId?: string | null;
  currency?: string;
  cancels?: ReportedCancel[];
  itemTransactions?: Array<{ paymentTransactionId?: number | string; refunds?: ReportedRefund[] }>;
}
/** v2/reporting/payment/details (unsigned). */
export interface PaymentReportAnswer extends AnswerBase {
  payments?: ReportedPayment[];
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
