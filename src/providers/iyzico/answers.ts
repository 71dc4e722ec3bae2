// iyzico's answers read into the provider contract's results (src/providers/types.ts). A
// `failure` answer becomes a decline or a provider failure through codes.ts. A `success` answer
// whose signature does not check, or that lacks the ids the gateway must keep, is not trusted:
// the reader returns null and the caller treats it like no answer (the outcome is unknown, and
// payment/detail is asked later), never as a success or a refusal.
import type {
  BinInfo,
  CancelResult,
  CardScheme,
  ChargeResult,
  Declined,
  DeleteCardResult,
  InstallmentOption,
  PaymentStatusResult,
  ProviderFailure,
  RefundResult,
  StoreCardResult,
} from '../types.ts';
import { fromIyzicoPrice } from './amount.ts';
import { mapFailure, type CallFamily } from './codes.ts';
import { formatCardRef, formatPaymentRef } from './references.ts';
import { checkPaymentSignature, checkThreeDSInitializeSignature } from './signature.ts';
import type {
  AnswerBase,
  BinCheckAnswer,
  CancelAnswer,
  DeleteCardAnswer,
  InstallmentAnswer,
  PaymentAnswer,
  RefundAnswer,
  StoreCardAnswer,
  ThreeDSInitializeAnswer,
} from './wire.ts';

/**
 * A failure answer as the contract's Declined or ProviderFailure: `code` is the gateway's, and
 * iyzico's own errorCode and errorMessage stay in providerCode / providerMessage for support.
 */
export function failureResult(answer: AnswerBase, family: CallFamily): Declined | ProviderFailure {
  const failure = mapFailure(answer, family);
  const message = failure.providerMessage || `iyzico ${failure.providerCode}`;
  return {
    status: failure.kind === 'declined' ? 'declined' : 'error',
    code: failure.code,
    message,
    ...(failure.providerCode === '' ? {} : { providerCode: failure.providerCode }),
    ...(failure.providerMessage === '' ? {} : { providerMessage: failure.providerMessage }),
  };
}

/** What the gateway asked iyzico to charge: an answer for anything else is not this payment's. */
export interface ExpectedCharge {
  amount: bigint;
  currency: string;
}

/** Whether a payment answer charged exactly what was asked (paidPrice, instalment surcharge included, and currency). */
export function chargedAsAsked(answer: PaymentAnswer, expected: ExpectedCharge): boolean {
  return fromIyzicoPrice(answer.paidPrice) === expected.amount && answer.currency === expected.currency;
}

/**
 * The payment's reference: its id and its basket items' transaction ids (a refund names one
 * transaction; several are joined by ','). null when the answer lacks them.
 */
function paidReference(answer: PaymentAnswer): string | null {
  const transactions = (answer.itemTransactions ?? []).map((t) => (t?.paymentTransactionId === undefined ? '' : String(t.paymentTransactionId)));
  if (!answer.paymentId || transactions.length === 0 || transactions.some((t) => !/^[^:,\s]+$/.test(t))) return null;
  return formatPaymentRef({ paymentId: String(answer.paymentId), paymentTransactionId: transactions.join(',') });
}

/**
 * payment/auth and payment/3dsecure/auth. iyzico's fraud check refusing it (fraudStatus -1) is a
 * plain decline. With `expected`, a paid answer for another amount or currency reads as null
 * (untrusted, like a bad signature).
 */
export function paymentResult(answer: PaymentAnswer, secretKey: string, expected?: ExpectedCharge): ChargeResult | null {
  if (answer.status === 'failure') return failureResult(answer, 'payment');
  if (checkPaymentSignature(secretKey, answer) === 'invalid') return null;
  const reference = paidReference(answer);
  if (reference === null) return null;
  if (expected !== undefined && !chargedAsAsked(answer, expected)) return null;
  if (answer.fraudStatus === -1) return { status: 'declined', code: 'card_declined', message: 'iyzico fraud check', providerCode: 'fraudStatus:-1' };
  return { status: 'succeeded', providerReference: reference };
}

/**
 * payment/detail for a call whose answer was lost. Only a SUCCESS whose signature checks and whose
 * amount and currency are the ones asked is a success; FAILURE is a decline; a payment still
 * waiting for its 3D steps (INIT_THREEDS, CALLBACK_THREEDS) or one for another amount has no
 * outcome to report ('unknown'). 'retry': the answer cannot be trusted or read, ask again later.
 * A failure answer is the caller's to read (payment not found, or iyzico's own trouble).
 */
export function paymentDetailResult(answer: PaymentAnswer, secretKey: string, expected: ExpectedCharge): PaymentStatusResult | 'retry' {
  if (answer.paymentStatus === 'FAILURE') {
    return { status: 'declined', code: 'card_declined', message: 'iyzico reports the payment failed', providerCode: 'paymentStatus:FAILURE' };
  }
  if (answer.paymentStatus !== 'SUCCESS') return { status: 'unknown' };
  if (checkPaymentSignature(secretKey, answer) !== 'valid') return 'retry';
  if (!chargedAsAsked(answer, expected)) return { status: 'unknown' };
  const reference = paidReference(answer);
  return reference === null ? 'retry' : { status: 'succeeded', providerReference: reference };
}

/** payment/3dsecure/initialize: the payment waits for the shopper; `html` is the page to show them (base64 decoded). */
export function threeDSStartResult(
  answer: ThreeDSInitializeAnswer,
  secretKey: string,
): { status: 'pending'; providerReference: string; html: string } | Declined | ProviderFailure | null {
  if (answer.status === 'failure') return failureResult(answer, 'payment');
  if (checkThreeDSInitializeSignature(secretKey, answer) === 'invalid') return null;
  if (!answer.paymentId || !answer.threeDSHtmlContent) return null;
  return {
    status: 'pending',
    providerReference: formatPaymentRef({ paymentId: answer.paymentId, paymentTransactionId: null }),
    html: Buffer.from(answer.threeDSHtmlContent, 'base64').toString('utf8'),
  };
}

export function refundResult(answer: RefundAnswer): RefundResult | null {
  if (answer.status === 'failure') return failureResult(answer, 'refund');
  if (!answer.paymentTransactionId) return null;
  return { status: 'succeeded', providerReference: String(answer.paymentTransactionId) };
}

export function cancelResult(answer: CancelAnswer): CancelResult | null {
  if (answer.status === 'failure') return failureResult(answer, 'refund');
  if (!answer.paymentId) return null;
  return { status: 'succeeded', providerReference: String(answer.paymentId) };
}

const SCHEMES: Readonly<Record<string, CardScheme>> = {
  VISA: 'visa',
  MASTER_CARD: 'mastercard',
  AMERICAN_EXPRESS: 'american_express',
  TROY: 'troy',
};
const TYPES: Readonly<Record<string, NonNullable<BinInfo['type']>>> = {
  CREDIT_CARD: 'credit',
  DEBIT_CARD: 'debit',
  PREPAID_CARD: 'prepaid',
};

/** iyzico's card association (VISA, MASTER_CARD, ...) as the gateway's scheme; null when unknown. */
export function schemeOf(association: string | undefined): CardScheme | null {
  return (association && SCHEMES[association]) || null;
}

export function storeCardResult(answer: StoreCardAnswer): StoreCardResult | null {
  if (answer.status === 'failure') return failureResult(answer, 'card_storage');
  if (!answer.cardUserKey || !answer.cardToken) return null;
  return { status: 'stored', cardReference: formatCardRef({ cardUserKey: answer.cardUserKey, cardToken: answer.cardToken }), scheme: schemeOf(answer.cardAssociation) };
}

export function deleteCardResult(answer: DeleteCardAnswer): DeleteCardResult {
  return answer.status === 'failure' ? failureResult(answer, 'card_storage') : { status: 'deleted' };
}

/** payment/bin/check; null on a failure answer (the contract's binLookup has no failure result). */
export function binInfoResult(bin: string, answer: BinCheckAnswer): BinInfo | null {
  if (answer.status === 'failure') return null;
  return {
    bin,
    issuerName: answer.bankName ?? null,
    issuerCode: answer.bankCode === undefined ? null : String(answer.bankCode),
    scheme: schemeOf(answer.cardAssociation),
    type: (answer.cardType && TYPES[answer.cardType]) || null,
    program: answer.cardFamily ?? null,
    isCommercial: answer.commercial === undefined ? null : answer.commercial === 1,
  };
}

/** payment/iyzipos/installment: iyzico's plans for the card; null when the answer is a failure or its amounts are not exact. */
export function installmentOptionsResult(answer: InstallmentAnswer): InstallmentOption[] | null {
  if (answer.status === 'failure') return null;
  const prices = answer.installmentDetails?.[0]?.installmentPrices ?? [];
  const options: InstallmentOption[] = [];
  for (const p of prices) {
    const amount = fromIyzicoPrice(p.installmentPrice);
    const total = fromIyzicoPrice(p.totalPrice);
    if (amount === null || total === null || !Number.isInteger(p.installmentNumber)) return null;
    options.push({ number: p.installmentNumber, amount, total });
  }
  return options;
}
