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

/** A failure answer as the contract's Declined or ProviderFailure; iyzico's code and text stay in `message` for support. */
export function failureResult(answer: AnswerBase, family: CallFamily): Declined | ProviderFailure {
  const failure = mapFailure(answer, family);
  const message = failure.providerMessage || `iyzico ${failure.providerCode}`;
  return { status: failure.kind === 'declined' ? 'declined' : 'error', code: failure.code, message };
}

/** payment/auth and payment/3dsecure/auth. iyzico's fraud check refusing it (fraudStatus -1) is a plain decline. */
export function paymentResult(answer: PaymentAnswer, secretKey: string): ChargeResult | null {
  if (answer.status === 'failure') return failureResult(answer, 'payment');
  if (checkPaymentSignature(secretKey, answer) === 'invalid') return null;
  const transaction = answer.itemTransactions?.[0]?.paymentTransactionId;
  if (!answer.paymentId || !transaction) return null;
  if (answer.fraudStatus === -1) return { status: 'declined', code: 'card_declined', message: 'iyzico fraud check' };
  return { status: 'succeeded', providerReference: formatPaymentRef({ paymentId: answer.paymentId, paymentTransactionId: String(transaction) }) };
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
