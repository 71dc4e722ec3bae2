// The shape every bank virtual POS connector shares (EST, Garanti BBVA, Yapı Kredi PosNet...). A
// bank's connector extends BankPosConnector and brings its own parts, each in its own folder:
// its crypt (hash.ts), its request mapping (requests.ts), its answer mapping (answers.ts, with
// codes.ts for its error codes), its serialiser (xml.ts) and its settings. What every bank does
// alike lives here and beside it: no BIN service and no instalment quote (the account's own rate
// table quotes), no card vault, an answer that cannot be trusted taken for no answer
// (ProviderTimeoutError: the gateway asks the order inquiry later), the order id derived from the
// payment's key (../bank-order-id.ts), the 3-D Pay rule (../three-d-pay.ts), a lost refund or
// cancel judged from the order's history (../lost-refund.ts) and the API call with its scrubbed
// exchange log (client.ts). docs/providers.md ("Adding a bank") lists what a new bank brings.
import { bankOrderId } from '../bank-order-id.ts';
import { isCancelKey, judgeLostCancel, judgeLostRefund, type BankOrderHistory, type LostReversalVerdict } from '../lost-refund.ts';
import {
  computeInstallments,
  ProviderTimeoutError,
  type BinInfo,
  type CallbackCheck,
  type CancelInput,
  type CancelResult,
  type Capability,
  type ChargeInput,
  type ChargeResult,
  type Complete3DInput,
  type Complete3DResult,
  type Connector,
  type DeleteCardResult,
  type InstallmentOption,
  type InstallmentsInput,
  type PaymentStatusInput,
  type PaymentStatusResult,
  type ProviderFailure,
  type RefundInput,
  type RefundResult,
  type RefundStatusInput,
  type RefundStatusResult,
  type Start3DInput,
  type Start3DResult,
  type StoreCardResult,
  type ThreeDsPayment,
} from '../types.ts';

/** Both payment kinds, refunds, cancels and the gate's page; conversion because the gateway converts before the call. No card storage. */
export const BANK_POS_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(['secure', 'non_secure', 'refund', 'cancel', 'hosted_page', 'conversion']);

/** An answer the bank gave that is not about this call (or a request it cannot take): nothing moved. */
export function notOurs(message: string): ProviderFailure {
  return { status: 'error', code: 'provider_error', message };
}

/**
 * A payment the bank cannot take as asked (an amount of zero, a currency it does not take), which
 * its request mapping reports with a RangeError: nothing is sent. Any other error is rethrown.
 */
export function refused(error: unknown): ProviderFailure {
  if (error instanceof RangeError) return notOurs(error.message);
  throw error;
}

/** A reading of an answer that cannot say: the connector keeps the question open. */
export type Reading<R> = R | 'retry';

export abstract class BankPosConnector implements Connector {
  abstract readonly provider: string;
  readonly capabilities: ReadonlySet<Capability> = BANK_POS_CAPABILITIES;
  /** In a "3D Pay" model the gate charges the card before the gateway hears (../three-d-pay.ts). */
  abstract readonly chargesAtGate: boolean;
  /** Whether verifyCallback asks the bank (then it is recorded as a provider call); most banks sign the callback and the check is ours alone. */
  readonly callbackCheckAsksBank: boolean = false;
  /** What storeCard and deleteCard answer: the bank keeps no cards for the gateway. */
  protected abstract readonly noVault: string;

  /** The order id every call about one payment names (../bank-order-id.ts). */
  protected orderIdOf(idempotencyKey: string): string {
    return bankOrderId(idempotencyKey);
  }

  /** No answer, or one that cannot be trusted: the outcome is unknown, the gateway asks later. */
  protected unknownOutcome(operation: string): never {
    throw new ProviderTimeoutError(this.provider, operation);
  }

  /** The reading, or no answer when it cannot say. */
  protected settled<R>(reading: Reading<R>, operation: string): R {
    return reading === 'retry' ? this.unknownOutcome(operation) : reading;
  }

  /**
   * A lost refund or cancel, from the order's history: a cancel is the order's sale, a refund is
   * found by counting (../lost-refund.ts). `toResult` reads the verdict in the bank's terms.
   */
  protected lostReversal(input: RefundStatusInput, history: Reading<BankOrderHistory>, cancelReference: string, toResult: (verdict: LostReversalVerdict) => Reading<RefundStatusResult>): RefundStatusResult {
    const known = this.settled(history, 'refundStatus');
    const verdict = isCancelKey(input.idempotencyKey) ? judgeLostCancel(known, cancelReference) : judgeLostRefund(input, known);
    return this.settled(toResult(verdict), 'refundStatus');
  }

  /** Banks have no BIN service here: the BIN with no facts (the workspace's BIN source answers them). */
  binLookup(bin: string): Promise<BinInfo> {
    return Promise.resolve({ bin, issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null });
  }

  /** Banks do not quote instalments: the account's own monthly rates do (computeInstallments). */
  installments(input: InstallmentsInput): Promise<InstallmentOption[]> {
    return Promise.resolve(computeInstallments(input.amount, input.currency, input.monthlyRatesBp));
  }

  storeCard(): Promise<StoreCardResult> {
    return Promise.resolve(notOurs(this.noVault));
  }

  deleteCard(): Promise<DeleteCardResult> {
    return Promise.resolve(notOurs(this.noVault));
  }

  abstract start3D(input: Start3DInput): Promise<Start3DResult>;
  abstract verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck | Promise<CallbackCheck>;
  abstract complete3D(input: Complete3DInput): Promise<Complete3DResult>;
  abstract charge(input: ChargeInput): Promise<ChargeResult>;
  abstract paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult>;
  abstract refund(input: RefundInput): Promise<RefundResult>;
  abstract refundStatus(input: RefundStatusInput): Promise<RefundStatusResult>;
  abstract cancel(input: CancelInput): Promise<CancelResult>;
}
