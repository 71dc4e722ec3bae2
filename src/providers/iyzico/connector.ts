// The iyzico connector: one payment account's view of iyzico, built from its credentials (API
// key pair) and settings (base URL). Each method builds a request (requests.ts), sends it signed
// (client.ts) and reads the answer (answers.ts). An answer that cannot be trusted (bad signature,
// missing ids, another amount than asked) is treated as no answer: ProviderTimeoutError, so the
// gateway asks payment/detail later instead of guessing. The gateway's idempotency key is the
// conversationId of each call.
import { randomUUID } from 'node:crypto';
import type { ConnectorDeps } from '../registry.ts';
import {
  ALL_CAPABILITIES,
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
  type DeleteCardInput,
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
  type StoreCardInput,
  type StoreCardResult,
  type ThreeDsPayment,
} from '../types.ts';
import {
  binInfoResult,
  cancelResult,
  deleteCardResult,
  installmentOptionsResult,
  paymentDetailResult,
  paymentResult,
  refundResult,
  storeCardResult,
  threeDSStartResult,
} from './answers.ts';
import { judgeThreeDSCallback } from './callback.ts';
import { IYZICO_PROVIDER_ID, IyzicoClient } from './client.ts';
import { PAYMENT_NOT_FOUND_CODES } from './codes.ts';
import { parsePaymentRef } from './references.ts';
import { reversalStatusResult } from './report.ts';
import {
  binCheckRequest,
  cancelRequest,
  deleteCardRequest,
  installmentRequest,
  paymentDetailRequest,
  paymentReportQuery,
  paymentRequest,
  refundRequest,
  storeCardRequest,
  threeDSAuthRequest,
  threeDSInitializeRequest,
  type RequestContext,
} from './requests.ts';
import type { IyzicoCredentials, IyzicoSettings } from './settings.ts';
import {
  IYZICO_PATHS,
  type BinCheckAnswer,
  type CancelAnswer,
  type DeleteCardAnswer,
  type InstallmentAnswer,
  type PaymentAnswer,
  type PaymentReportAnswer,
  type RefundAnswer,
  type StoreCardAnswer,
  type ThreeDSInitializeAnswer,
} from './wire.ts';

/** iyzico does all the contract asks: both payment kinds, card storage, refunds and cancels. */
export const IYZICO_CAPABILITIES: ReadonlySet<Capability> = ALL_CAPABILITIES;

export interface IyzicoConnectorOptions {
  /** How long one call may take (client.ts default: 60 s; at most 2 minutes). */
  timeoutMs?: number;
}

/** English answers: iyzico's messages are kept for support, who read them in the dashboard. */
const CTX: RequestContext = { locale: 'en' };

function unknownOutcome(operation: string): never {
  throw new ProviderTimeoutError(IYZICO_PROVIDER_ID, operation);
}

/** A request the connector cannot build from what it was given (a reference it did not write). */
function notOurs(message: string): ProviderFailure {
  return { status: 'error', code: 'provider_error', message };
}

/** A request body, or the failure to answer when the builder refuses its input (RangeError); nothing is sent then. */
function built<B extends object>(build: () => B): B | ProviderFailure {
  try {
    return build();
  } catch (error) {
    if (error instanceof RangeError) return notOurs(error.message);
    throw error;
  }
}

export class IyzicoConnector implements Connector {
  readonly provider = IYZICO_PROVIDER_ID;
  readonly capabilities = IYZICO_CAPABILITIES;
  /** iyzico's 3DS page only authenticates: the auth call (complete3D) takes the money. */
  readonly chargesAtGate = false;
  readonly #client: IyzicoClient;
  readonly #secretKey: string;

  constructor(credentials: IyzicoCredentials, settings: IyzicoSettings, deps: ConnectorDeps, options: IyzicoConnectorOptions = {}) {
    this.#secretKey = credentials.secret_key;
    this.#client = new IyzicoClient({
      baseUrl: settings.base_url,
      apiKey: credentials.api_key,
      secretKey: credentials.secret_key,
      timeoutMs: options.timeoutMs ?? settings.timeout_ms,
      // The exchange is already scrubbed of card data and carries no credentials (client.ts).
      onExchange: (exchange) => deps.log('iyzico exchange', { ...exchange }),
    });
  }

  async binLookup(bin: string): Promise<BinInfo> {
    const answer = await this.#client.call<BinCheckAnswer>('binLookup', 'POST', IYZICO_PATHS.binCheck, binCheckRequest(bin, { ...CTX, conversationId: lookupId() }));
    return (
      binInfoResult(bin, answer) ?? { bin, issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null }
    );
  }

  /** iyzico's own quote for the card (the account's monthly rates do not apply); instalments are TRY only. */
  async installments(input: InstallmentsInput): Promise<InstallmentOption[]> {
    if (input.currency !== 'TRY') return [];
    const body = installmentRequest({ bin: input.bin, amount: input.amount, currency: input.currency }, { ...CTX, conversationId: lookupId() });
    const answer = await this.#client.call<InstallmentAnswer>('installments', 'POST', IYZICO_PATHS.installments, body);
    return installmentOptionsResult(answer) ?? [];
  }

  async start3D(input: Start3DInput): Promise<Start3DResult> {
    const body = built(() => threeDSInitializeRequest(input, input.callbackUrl, CTX));
    if ('status' in body) return body;
    const answer = await this.#client.call<ThreeDSInitializeAnswer>('start3D', 'POST', IYZICO_PATHS.threeDSInitialize, body);
    const result = threeDSStartResult(answer, this.#secretKey) ?? unknownOutcome('start3D');
    if (result.status !== 'pending') return result;
    return { status: 'redirect', providerReference: result.providerReference, redirect: { kind: 'html', html: result.html } };
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeThreeDSCallback(this.#secretKey, payment, fields);
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const ref = parsePaymentRef(input.payment.providerReference);
    if (ref === null) return notOurs('Not an iyzico payment reference');
    const body = threeDSAuthRequest(
      {
        idempotencyKey: input.idempotencyKey,
        paymentId: ref.paymentId,
        ...(input.data.conversationData === undefined ? {} : { conversationData: input.data.conversationData }),
      },
      CTX,
    );
    const answer = await this.#client.call<PaymentAnswer>('complete3D', 'POST', IYZICO_PATHS.threeDSAuth, body);
    const result = paymentResult(answer, this.#secretKey, input.payment) ?? unknownOutcome('complete3D');
    // A payment answered under another id is not the one this completion was for.
    if (result.status === 'succeeded' && parsePaymentRef(result.providerReference)?.paymentId !== ref.paymentId) return unknownOutcome('complete3D');
    return result;
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    const body = built(() => paymentRequest(input, CTX));
    if ('status' in body) return body;
    const answer = await this.#client.call<PaymentAnswer>('charge', 'POST', IYZICO_PATHS.payment, body);
    return paymentResult(answer, this.#secretKey, input) ?? unknownOutcome('charge');
  }

  /**
   * By iyzico's paymentId when an earlier step handed one out (a 3D payment: the start and the
   * completion are separate calls with separate conversationIds, and the paymentId names them
   * both), else by the lost call's idempotency key, which was its conversationId.
   */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    // A reference this connector did not write names no iyzico payment: the key still names the call.
    const paymentId = input.providerReference === null ? null : (parsePaymentRef(input.providerReference)?.paymentId ?? null);
    const body = paymentDetailRequest({ idempotencyKey: input.idempotencyKey, paymentId }, CTX);
    const answer = await this.#client.call<PaymentAnswer>('paymentStatus', 'POST', IYZICO_PATHS.paymentDetail, body);
    if (answer.status === 'failure') {
      if (PAYMENT_NOT_FOUND_CODES.has(String(answer.errorCode ?? ''))) return { status: 'unknown' };
      return unknownOutcome('paymentStatus');
    }
    const result = paymentDetailResult(answer, this.#secretKey, input);
    return result === 'retry' ? unknownOutcome('paymentStatus') : result;
  }

  /** Refund v2, by paymentId: one call whatever the number of basket items; iyzico spreads it over them. */
  async refund(input: RefundInput): Promise<RefundResult> {
    const payment = parsePaymentRef(input.providerReference);
    if (payment === null) return notOurs('Not an iyzico payment reference');
    const body = refundRequest({ idempotencyKey: input.idempotencyKey, amount: input.amount, currency: input.currency, payment }, CTX);
    const answer = await this.#client.call<RefundAnswer>('refund', 'POST', IYZICO_PATHS.refund, body);
    const expected = { paymentId: payment.paymentId, amount: input.amount, currency: input.currency };
    return refundResult(answer, this.#secretKey, expected) ?? unknownOutcome('refund');
  }

  /**
   * Asks reporting for the payment and finds the refund or cancel sent under the call's key
   * (report.ts). A report that cannot say, or no answer, is ProviderTimeoutError: the gateway asks
   * again at its next sweep.
   */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const payment = parsePaymentRef(input.providerReference);
    // No iyzico payment to ask about: nothing can be known, so keep asking until the gateway's deadline.
    if (payment === null) return unknownOutcome('refundStatus');
    const query = paymentReportQuery(payment, { ...CTX, conversationId: lookupId() });
    const answer = await this.#client.call<PaymentReportAnswer>('refundStatus', 'GET', IYZICO_PATHS.paymentReport, query);
    const result = reversalStatusResult(answer, input.idempotencyKey, payment.paymentId);
    return result === 'retry' ? unknownOutcome('refundStatus') : result;
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const payment = parsePaymentRef(input.providerReference);
    if (payment === null) return notOurs('Not an iyzico payment reference');
    const answer = await this.#client.call<CancelAnswer>('cancel', 'POST', IYZICO_PATHS.cancel, cancelRequest({ idempotencyKey: input.idempotencyKey, payment }, CTX));
    return cancelResult(answer) ?? unknownOutcome('cancel');
  }

  async storeCard(input: StoreCardInput): Promise<StoreCardResult> {
    const body = storeCardRequest(input, { ...CTX, ...(input.shopper ? { shopper: input.shopper } : {}) });
    const answer = await this.#client.call<StoreCardAnswer>('storeCard', 'POST', IYZICO_PATHS.cardStorage, body);
    return storeCardResult(answer) ?? unknownOutcome('storeCard');
  }

  async deleteCard(input: DeleteCardInput): Promise<DeleteCardResult> {
    const body = built(() => deleteCardRequest(input.cardReference, { ...CTX, conversationId: lookupId() }));
    if ('status' in body) return body;
    const answer = await this.#client.call<DeleteCardAnswer>('deleteCard', 'DELETE', IYZICO_PATHS.cardStorage, body);
    return deleteCardResult(answer);
  }
}

/** A conversationId for a call that moves no money (nothing ever looks it up). */
function lookupId(): string {
  return randomUUID();
}
