// The contract every payment provider (bank) implements. Money is always bigint minor units.
// Results are unions: a provider that answered (even with a refusal) resolves; only a provider
// that did not answer throws ProviderTimeoutError, because then the outcome is unknown. Every call
// answers or throws within 2 minutes: a payment or refund older than 5 minutes without a recorded
// answer is taken for one a crash interrupted, and the bank is asked about it (interrupted.ts).

export type Capability =
  | 'secure'
  | 'non_secure'
  | 'card_storage'
  | 'card_deletion'
  | 'refund'
  | 'cancel'
  | 'hosted_page'
  | 'conversion';

export type Currency = 'TRY' | 'USD' | 'EUR' | 'GBP';

export interface CardData {
  holderName: string;
  number: string;
  securityCode?: string;
  expiryMonth: string;
  expiryYear: string;
}

export type CardScheme =
  | 'visa'
  | 'mastercard'
  | 'american_express'
  | 'troy'
  | 'discover'
  | 'diners_club'
  | 'jcb'
  | 'unionpay'
  | 'maestro';

export interface BinInfo {
  bin: string;
  issuerName: string | null;
  issuerCode: string | null;
  scheme: CardScheme | null;
  type: 'credit' | 'debit' | 'prepaid' | null;
  program: string | null;
  isCommercial: boolean | null;
}

export interface InstallmentOption {
  number: number;
  amount: bigint;
  total: bigint;
}

/** The provider refused the request (card, funds, policy); retrying the same request will not help. */
export interface Declined {
  status: 'declined';
  code: string;
  message: string;
}

/** The provider answered, but with a failure of its own. */
export interface ProviderFailure {
  status: 'error';
  code: string;
  message: string;
}

export interface Succeeded {
  status: 'succeeded';
  providerReference: string;
}

/** Raised when the provider did not answer: the money may or may not have moved. */
export class ProviderTimeoutError extends Error {
  readonly providerId: string;
  readonly operation: string;

  constructor(providerId: string, operation: string) {
    super(`Provider ${providerId} did not answer (${operation})`);
    this.name = 'ProviderTimeoutError';
    this.providerId = providerId;
    this.operation = operation;
  }
}

/** A payment is made either with raw card data or with a card the provider stored earlier. */
export type PaymentSource =
  | { card: CardData; savedCard?: never }
  | { savedCard: { cardReference: string }; card?: never };

export type PaymentInput = {
  idempotencyKey: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
} & PaymentSource;

export type Authorise3DInput = PaymentInput;
export type Authorise3DResult = { status: 'pending'; providerReference: string } | Declined | ProviderFailure;

export interface Complete3DInput {
  idempotencyKey: string;
  providerReference: string;
  outcome: 'approve' | 'decline';
}
export type Complete3DResult = Succeeded | Declined | ProviderFailure;

export type ChargeInput = PaymentInput;
export type ChargeResult = Succeeded | Declined | ProviderFailure;

/**
 * A question about a payment call whose answer never came: the idempotency key of that call, and
 * the provider's reference when an earlier step handed one out (a 3D start does; a charge that
 * timed out did not).
 */
export interface PaymentStatusInput {
  idempotencyKey: string;
  providerReference: string | null;
}
/** `unknown`: the provider has no final outcome to report (never received it, or still deciding). */
export type PaymentStatusResult = Succeeded | Declined | { status: 'unknown' };

export interface RefundInput {
  idempotencyKey: string;
  providerReference: string;
  amount: bigint;
  currency: Currency;
}
export type RefundResult = Succeeded | Declined | ProviderFailure;

/**
 * A question about a refund or cancel whose answer never came (a timeout, or a gateway that
 * stopped before recording it): the idempotency key that call was made with (the gateway's own
 * refund id, `refund:<id>` or `cancel:<id>`) and the payment's provider reference.
 */
export interface RefundStatusInput {
  idempotencyKey: string;
  providerReference: string;
}
/** `unknown`: the provider has no record of that refund or cancel (it never received it). */
export type RefundStatusResult = Succeeded | Declined | { status: 'unknown' };

export interface CancelInput {
  idempotencyKey: string;
  providerReference: string;
}
export type CancelResult = Succeeded | Declined | ProviderFailure;

export interface StoreCardInput {
  idempotencyKey: string;
  card: CardData;
}
export type StoreCardResult =
  | { status: 'stored'; cardReference: string; scheme: CardScheme | null }
  | Declined
  | ProviderFailure;

export interface DeleteCardInput {
  cardReference: string;
}
export type DeleteCardResult = { status: 'deleted' } | Declined | ProviderFailure;

export interface InstallmentsInput {
  bin: string;
  amount: bigint;
  currency: Currency;
  monthlyRatesBp?: number[];
}

export interface PaymentProvider {
  readonly id: string;
  /** What this provider can do at all; an account may switch capabilities off, never on. */
  readonly capabilities: ReadonlySet<Capability>;

  /** The bank tells the issuer, scheme, type and program of a card from its first 6 or 8 digits. */
  binLookup(bin: string): Promise<BinInfo>;
  /** The bank quotes the instalment plans (1-12) it offers for this amount and card. */
  installments(input: InstallmentsInput): Promise<InstallmentOption[]>;
  /** The bank starts a 3D Secure authentication and holds the payment until it completes. */
  authorise3D(input: Authorise3DInput): Promise<Authorise3DResult>;
  /** The bank finishes a 3D payment after the cardholder approved or declined at the ACS. */
  complete3D(input: Complete3DInput): Promise<Complete3DResult>;
  /** The bank charges the card directly, without 3D Secure. */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /** The bank reports what became of a payment call whose answer was lost (reconciliation). */
  paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult>;
  /** The bank returns part or all of a captured payment to the card. */
  refund(input: RefundInput): Promise<RefundResult>;
  /** The bank reports what became of a refund or cancel call whose answer was lost. */
  refundStatus(input: RefundStatusInput): Promise<RefundStatusResult>;
  /** The bank voids a payment (same day, before settlement) so nothing is charged. */
  cancel(input: CancelInput): Promise<CancelResult>;
  /** The bank vaults the card and hands back a reference to charge it later. */
  storeCard(input: StoreCardInput): Promise<StoreCardResult>;
  /** The bank removes a vaulted card so its reference can no longer be charged. */
  deleteCard(input: DeleteCardInput): Promise<DeleteCardResult>;
}

export const INSTALLMENT_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

const BP_SCALE = 10_000n;

/** The default surcharge: nothing for a single payment, 1.5 % for each extra month. */
export function defaultRateBp(installmentNumber: number): number {
  return 150 * (installmentNumber - 1);
}

/** Integer division of non-negative numerator by positive divisor, rounding halves up. */
function divideHalfUp(numerator: bigint, divisor: bigint): bigint {
  return (numerator * 2n + divisor) / (divisor * 2n);
}

/**
 * The instalment plans for an amount. Only TRY has instalments (Turkish card schemes), so any
 * other currency gets none. `ratesBp[n-1]` is the total surcharge for n instalments; a missing
 * entry falls back to the default. The provider's own books make the last instalment absorb
 * the rounding remainder, so `amount * number` may differ from `total` by a few minor units.
 */
export function computeInstallments(amount: bigint, currency: Currency, ratesBp?: number[]): InstallmentOption[] {
  if (amount <= 0n) throw new RangeError('Installment amount must be positive');
  if (currency !== 'TRY') return [];
  return INSTALLMENT_NUMBERS.map((number) => {
    const bp = ratesBp?.[number - 1] ?? defaultRateBp(number);
    if (!Number.isInteger(bp) || bp < 0) throw new RangeError(`Invalid installment rate for ${number}: ${bp}`);
    const total = divideHalfUp(amount * (BP_SCALE + BigInt(bp)), BP_SCALE);
    return { number, amount: divideHalfUp(total, BigInt(number)), total };
  });
}
