// The contract every connector implements: one provider (a PSP or a bank's virtual POS) as seen by
// one payment account, built from that account's settings and credentials (catalog.ts). Money is
// always bigint minor units.
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

/** Every capability there is; a provider that can do everything declares these. */
export const ALL_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(['secure', 'non_secure', 'card_storage', 'card_deletion', 'refund', 'cancel', 'hosted_page', 'conversion']);

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

/**
 * What the provider itself said, kept on the payment or refund for support: its own code and text
 * (never shown raw to shoppers; the gateway's `code` picks the message they see).
 */
export interface ProviderSaid {
  providerCode?: string;
  providerMessage?: string;
}

/** The provider refused the request (card, funds, policy); retrying the same request will not help. */
export interface Declined extends ProviderSaid {
  status: 'declined';
  /** The gateway's error_code (docs/decisions.md), mapped from the provider's own. */
  code: string;
  message: string;
}

/** The provider answered, but with a failure of its own. */
export interface ProviderFailure extends ProviderSaid {
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

/**
 * The provider was never reached: the connection failed before the request went out (refused, no
 * such host, no connection within the connect deadline). Nothing can have moved, so the gateway
 * may try the payment on another account. A ProviderTimeoutError still, so code that only knows
 * timeouts treats it as an unknown outcome, which is never wrong, only slower.
 */
export class ProviderUnreachableError extends ProviderTimeoutError {
  constructor(providerId: string, operation: string) {
    super(providerId, operation);
    this.message = `Provider ${providerId} could not be reached (${operation})`;
    this.name = 'ProviderUnreachableError';
  }
}

/** A payment is made either with raw card data or with a card the provider stored earlier. */
export type PaymentSource =
  | { card: CardData; savedCard?: never }
  | { savedCard: { cardReference: string }; card?: never };

/** What the gateway knows of the shopper; a provider that needs more fills its own placeholders. */
export interface Shopper {
  id?: string;
  name?: string;
  surname?: string;
  email?: string;
  phone?: string;
  ip?: string;
}

/** One line of what is bought (an order's or a link's items); prices add up to the payment's amount. */
export interface BasketItem {
  id: string;
  name: string;
  price: bigint;
}

export type PaymentInput = {
  idempotencyKey: string;
  amount: bigint;
  currency: Currency;
  installmentNumber: number;
  shopper?: Shopper;
  /** Absent: the provider describes the payment as one item of `amount`. */
  basket?: BasketItem[];
} & PaymentSource;

/**
 * How the shopper's browser reaches the bank's 3D Secure page (ACS): a plain address, a form the
 * gateway's page posts at once (a bank's 3D gate), or the provider's own HTML to show as it is.
 */
export type Redirect =
  | { kind: 'url'; url: string }
  | {
      kind: 'form';
      action: string;
      fields: Record<string, string>;
      /**
       * Fields that carry the card (number, expiry, security code) to the bank's gate. The gateway
       * never stores them: they travel sealed in the redirect address and join the form only in
       * the answer to the shopper's browser.
       */
      cardFields?: Record<string, string>;
      /** As the payment row keeps it: card fields were given, and travel sealed in the address. */
      sealedCard?: boolean;
    }
  | { kind: 'html'; html: string };

/** A bank's 3D gate form, with the named card fields set apart (see Redirect). */
export function gateForm(action: string, fields: Record<string, string>, cardNames: readonly string[]): Redirect {
  const plain = Object.fromEntries(Object.entries(fields).filter(([name]) => !cardNames.includes(name)));
  const card = Object.fromEntries(Object.entries(fields).filter(([name]) => cardNames.includes(name)));
  return { kind: 'form', action, fields: plain, cardFields: card };
}

export type Start3DInput = PaymentInput & {
  /** The gateway's address the bank posts the shopper's result to: one per payment. */
  callbackUrl: string;
  /**
   * Origins whose pages may frame the workspace's hosted pages (an embedded checkout opens the 3D
   * page in that frame). A bank's own page decides its framing itself; a page served on this
   * gateway (the simulator's ACS) allows these and no other.
   */
  frameAncestors?: readonly string[];
};
export type Start3DResult = { status: 'redirect'; providerReference: string; redirect: Redirect } | Declined | ProviderFailure;

/** The 3D payment a callback claims to be about, as the gateway started it. */
export interface ThreeDsPayment {
  /** The idempotency key of the 3D start (Start3DInput). */
  startKey: string;
  providerReference: string;
  /** What the bank was asked to charge. */
  amount: bigint;
  currency: Currency;
  /**
   * The instalment count the start asked for (a bank whose sale after the callback must repeat it
   * reads it here); absent where a caller does not know it, which is taken for 1.
   */
  installmentNumber?: number;
}

/**
 * A callback as the connector judged it, before anything is written. `rejected`: not this
 * provider's answer for this payment (forged, altered, another payment's): the payment stays as
 * it was. `verified`: the bank's answer; `authenticated` false when the shopper failed 3D Secure
 * (then `failure` says why and the payment fails without asking the bank to charge).
 */
export type CallbackCheck =
  | { status: 'verified'; authenticated: true; data: Record<string, string> }
  | { status: 'verified'; authenticated: false; failure: Declined }
  | { status: 'rejected'; cause: CallbackRejection; reason: string };

/**
 * Why a callback was not taken as the bank's, for the payment's timeline, the log, the metric and
 * the account's flag. `unsigned`: no signature at all; `signature`: a signature that does not check
 * with the account's key (a forgery, or a mistyped store key when every callback fails so);
 * `merchant`, `order`, `amount`, `currency`: signed, but about another; `incomplete`: signed but
 * without what the decision needs (fields left unsigned, a model the account does not use, a
 * 3-D Pay answer that does not say how the charge went).
 */
export type CallbackRejection = 'unsigned' | 'signature' | 'merchant' | 'order' | 'amount' | 'currency' | 'incomplete';

export interface Complete3DInput {
  idempotencyKey: string;
  payment: ThreeDsPayment;
  /** What the connector's verifyCallback kept of the callback. */
  data: Record<string, string>;
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
  /** What the bank was asked to charge: an answer for another amount is not this payment's. */
  amount: bigint;
  currency: Currency;
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
 * Banks that keep no id of ours for a refund (EST, GVP) find it by counting the order's credits
 * (lost-refund.ts), with what the gateway knows: the lost call's amount and currency, and the
 * payment's other refunds. Without these they cannot say (ProviderTimeoutError).
 */
export interface RefundStatusInput {
  idempotencyKey: string;
  providerReference: string;
  /** What the lost call returned: the refund's amount (a cancel: the payment's), in the payment's currency. */
  amount?: bigint;
  currency?: Currency;
  /** The payment's other refunds (not cancels): those the bank answered, and earlier ones still unanswered. */
  otherRefunds?: readonly OtherRefund[];
}

/** Another refund of the same payment, as the gateway recorded it. */
export interface OtherRefund {
  amount: bigint;
  /** succeeded / declined: the answer recorded; pending: created before the lost one and not answered yet. */
  status: 'succeeded' | 'declined' | 'pending';
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
  shopper?: Shopper;
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

export interface Connector {
  /** The provider's id in the catalog ('simulator', 'iyzico'). */
  readonly provider: string;
  /** What this provider can do at all; an account may switch capabilities off, never on. */
  readonly capabilities: ReadonlySet<Capability>;
  /**
   * The bank's 3D gate charges the card itself, before the gateway hears anything (a "3D Pay"
   * model): a payment whose answer never came back may still have been charged, so the bank's
   * order inquiry is asked before it is given up. False when the money moves only on complete3D.
   */
  readonly chargesAtGate: boolean;
  /**
   * verifyCallback asks the bank (PosNet has it open the sealed callback): the check is a provider
   * call like the others and is recorded (./recording.ts). Absent or false: the check is the
   * connector's own, no call.
   */
  readonly callbackCheckAsksBank?: boolean;

  /** The bank tells the issuer, scheme, type and program of a card from its first 6 or 8 digits. */
  binLookup(bin: string): Promise<BinInfo>;
  /** The bank quotes the instalment plans (1-12) it offers for this amount and card. */
  installments(input: InstallmentsInput): Promise<InstallmentOption[]>;
  /** The bank starts 3D Secure: where to send the shopper, and its reference for the payment. */
  start3D(input: Start3DInput): Promise<Start3DResult>;
  /**
   * Judges the form the bank's ACS posted to the payment's callback address; no money moves. Most
   * banks sign the form with a key the merchant holds, so the judgement needs no call; a bank that
   * seals it (PosNet) is asked to open it, and a bank that does not answer makes it `rejected`.
   */
  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck | Promise<CallbackCheck>;
  /** The bank takes the money of a 3D payment whose callback was verified and authenticated. */
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
