// The VakıfBank PayFlex (VPOS 7/24 with its MPI, v4) connector: one payment account's view of
// PayFlex, built from its credentials (merchant id, password, terminal) and settings (test or
// production, addresses). A 3-D payment first asks the MPI whether the card is enrolled (the
// gateway sends the card, server to server); the MPI answers the ACS form the shopper's browser
// posts (no card in it); the MPI's result comes back through the browser unsigned and is judged by
// the gateway's own seal (callback.ts, hash.ts); the gateway then sells over the VPOS with the
// result's CAVV, ECI and MpiTransactionId. Every call of one payment names the same order
// (bankOrderId); refunds and cancels name the sale's TransactionId and carry one of ours, by which
// the search finds them again after a lost answer. An answer that cannot be trusted is treated as
// no answer (ProviderTimeoutError), so the gateway asks the search later.
import type { ConnectorDeps } from '../registry.ts';
import { bankOrderId } from '../bank-order-id.ts';
import { isCancelKey } from '../lost-refund.ts';
import { BankPosConnector, notOurs, refused } from '../bank-pos/connector.ts';
import { ISO_NUMERIC_CURRENCY } from '../settings-fields.ts';
import type {
  CallbackCheck,
  CancelInput,
  CancelResult,
  ChargeInput,
  ChargeResult,
  Complete3DInput,
  Complete3DResult,
  PaymentStatusInput,
  PaymentStatusResult,
  RefundInput,
  RefundResult,
  RefundStatusInput,
  RefundStatusResult,
  Start3DInput,
  Start3DResult,
  ThreeDsPayment,
} from '../types.ts';
import { enrollmentResult, reversalResult, reversalStatus, saleResult, searchResult, statusResult } from './answers.ts';
import { judgeCallback } from './callback.ts';
import { PAYFLEX_PROVIDER_ID, payflexClients, type PayflexClients } from './client.ts';
import { newEnrollmentId, sessionSeal, type SealKey } from './hash.ts';
import { formatRef, parseRef, type PayflexRef } from './references.ts';
import { cancelRequest, enrollmentRequest, installmentCount, mpiExpiry, refundRequest, saleRequest, searchRequest, threeDSaleRequest } from './requests.ts';
import { payflexEndpoints, type PayflexCredentials, type PayflexSettings } from './settings.ts';

const NOT_OURS = 'Not a PayFlex payment reference';
const NO_CARD = 'PayFlex stores no cards: a payment needs the card';

/** A sold payment's reference: the order and the sale's TransactionId. */
function soldRef(reference: string): (PayflexRef & { transactionId: string }) | null {
  const ref = parseRef(reference);
  return ref?.transactionId ? { ...ref, transactionId: ref.transactionId } : null;
}

export class PayflexConnector extends BankPosConnector {
  readonly provider = PAYFLEX_PROVIDER_ID;
  /** The MPI only authenticates: money moves on the gateway's own 3-D sale. */
  readonly chargesAtGate = false;
  protected readonly noVault = 'PayFlex stores no cards for the gateway';
  readonly #credentials: PayflexCredentials;
  readonly #clients: PayflexClients;
  readonly #seal: SealKey;

  constructor(credentials: PayflexCredentials, settings: PayflexSettings, deps: ConnectorDeps) {
    super();
    this.#credentials = credentials;
    this.#seal = { key: deps.key('payflex 3-D seal'), merchantId: credentials.merchant_id };
    this.#clients = payflexClients(payflexEndpoints(settings), {
      timeoutMs: settings.timeout_ms,
      // The exchange is already scrubbed of card data, passwords and the seal (client.ts).
      onExchange: (exchange) => deps.log('payflex exchange', { ...exchange }),
    });
  }

  /** The MPI's enrollment check; an enrolled card answers the ACS form the shopper's browser posts. */
  async start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return notOurs(NO_CARD);
    const orderId = this.orderIdOf(input.idempotencyKey);
    const enrollmentId = newEnrollmentId();
    let request;
    try {
      const sealed = { enrollmentId, pan: input.card.number, expiry: mpiExpiry(input.card), amount: input.amount, currency: ISO_NUMERIC_CURRENCY[input.currency], installments: installmentCount(input.installmentNumber) };
      request = enrollmentRequest({ ...input, card: input.card, enrollmentId, sessionInfo: sessionSeal(this.#seal, sealed) }, this.#credentials);
    } catch (error) {
      return refused(error);
    }
    const answer = enrollmentResult(await this.#clients.enrollment.call('start3D', request), enrollmentId);
    if (answer === null) return this.unknownOutcome('start3D');
    if ('status' in answer) return answer;
    return { status: 'redirect', providerReference: formatRef(orderId, enrollmentId), redirect: answer };
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback(this.#seal, payment, fields);
  }

  /** The 3-D sale with the MPI's result and the card it authenticated. */
  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const ref = parseRef(input.payment.providerReference);
    const d = input.data;
    if (ref === null || d.orderId !== ref.orderId) return notOurs(NOT_OURS);
    let request;
    try {
      request = threeDSaleRequest(
        { orderId: ref.orderId, amount: input.payment.amount, currency: input.payment.currency, installmentNumber: Number(d.installments ?? '0'), eci: d.eci ?? '', cavv: d.cavv ?? '', enrollmentId: d.enrollmentId ?? '', pan: d.pan ?? '', expiry: d.expiry ?? '' },
        this.#credentials,
      );
    } catch (error) {
      return refused(error);
    }
    return saleResult(await this.#clients.vpos.call('complete3D', request), ref.orderId) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs(NO_CARD);
    const orderId = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = saleRequest({ ...input, card: input.card, orderId, ...(input.shopper?.ip ? { clientIp: input.shopper.ip } : {}) }, this.#credentials);
    } catch (error) {
      return refused(error);
    }
    return saleResult(await this.#clients.vpos.call('charge', request), orderId) ?? this.unknownOutcome('charge');
  }

  /** The search by the order id every call of the payment used. */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = (input.providerReference === null ? null : parseRef(input.providerReference)?.orderId) ?? this.orderIdOf(input.idempotencyKey);
    const answer = await this.#clients.search.call('paymentStatus', searchRequest({ orderId }, this.#credentials));
    return this.settled(statusResult(searchResult(answer), { orderId, amount: input.amount }), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const ref = soldRef(input.providerReference);
    if (ref === null) return notOurs(NOT_OURS);
    let request;
    try {
      request = refundRequest({ saleTransactionId: ref.transactionId, transactionId: bankOrderId(input.idempotencyKey), amount: input.amount }, this.#credentials);
    } catch (error) {
      return refused(error);
    }
    return reversalResult(await this.#clients.vpos.call('refund', request), ref.orderId, ref.transactionId) ?? this.unknownOutcome('refund');
  }

  /** The search by the TransactionId the refund or cancel was sent with. */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const ref = parseRef(input.providerReference);
    if (ref === null) return this.unknownOutcome('refundStatus');
    const transactionId = bankOrderId(input.idempotencyKey);
    const answer = await this.#clients.search.call('refundStatus', searchRequest({ orderId: ref.orderId, transactionId }, this.#credentials));
    const expected = { orderId: ref.orderId, transactionId, type: isCancelKey(input.idempotencyKey) ? ('Cancel' as const) : ('Refund' as const), ...(input.amount !== undefined ? { amount: input.amount } : {}) };
    return this.settled(reversalStatus(searchResult(answer), expected), 'refundStatus');
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const ref = soldRef(input.providerReference);
    if (ref === null) return notOurs(NOT_OURS);
    const request = cancelRequest({ saleTransactionId: ref.transactionId, transactionId: bankOrderId(input.idempotencyKey) }, this.#credentials);
    return reversalResult(await this.#clients.vpos.call('cancel', request), ref.orderId, ref.transactionId) ?? this.unknownOutcome('cancel');
  }
}
