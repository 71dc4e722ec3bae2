// The Denizbank InterPOS connector: one payment account's view of InterPOS, built from its
// credentials (ShopCode, API user, store key) and settings (test or production, 3D model,
// addresses). A 3D payment posts a signed form to InterPOS's gate (requests.ts); the callback is
// judged with the store key (callback.ts); the '3d' model then authorises with an API sale carrying
// the ACS's proof, the '3d_pay' and '3d_host' models read the charge the bank already made from
// the callback. Every call of one payment names the same order (orderIdOf). An answer that cannot
// be trusted (no ProcReturnCode, another order) is no answer: ProviderTimeoutError, so the gateway
// asks the status inquiry later. InterPOS keeps no order history; its StatusHistory inquiry gives
// the sale, whether it was voided and the total refunded, from which a lost refund or cancel is
// judged (answers.ts historyOf, ../lost-refund.ts).
import type { ConnectorDeps } from '../registry.ts';
import { BANK_POS_CAPABILITIES, BankPosConnector, notOurs, refused } from '../bank-pos/connector.ts';
import {
  gateForm,
  type CallbackCheck,
  type CancelInput,
  type CancelResult,
  type Capability,
  type ChargeInput,
  type ChargeResult,
  type Complete3DInput,
  type Complete3DResult,
  type PaymentStatusInput,
  type PaymentStatusResult,
  type RefundInput,
  type RefundResult,
  type RefundStatusInput,
  type RefundStatusResult,
  type Start3DInput,
  type Start3DResult,
  type ThreeDsPayment,
} from '../types.ts';
import { historyOf, orderStatusOf, paymentStatusOf, refundStatusOf, reversalResult, saleResult } from './answers.ts';
import { judgeCallback } from './callback.ts';
import { INTERPOS_PROVIDER_ID, InterPosClient } from './client.ts';
import { APPROVED, paymentFailure } from './codes.ts';
import { formatPaymentRef, parsePaymentRef } from './references.ts';
import { INTERPOS_CARD_FIELDS, refundRequest, saleRequest, statusRequest, threeDFormFields, threeDSaleRequest, voidRequest, type RequestContext } from './requests.ts';
import { interPosEndpoints, type InterPosCredentials, type InterPosSettings } from './settings.ts';

/** InterPOS takes cards with and without 3D Secure, refunds and voids; it stores no cards for the gateway. */
export const INTERPOS_CAPABILITIES: ReadonlySet<Capability> = BANK_POS_CAPABILITIES;

export interface InterPosConnectorOptions {
  /** How long one call may take (settings.timeout_ms by default; at most 2 minutes). */
  timeoutMs?: number;
}

const NOT_OURS = 'Not an InterPOS payment reference';

export class InterPosConnector extends BankPosConnector {
  readonly provider = INTERPOS_PROVIDER_ID;
  readonly chargesAtGate: boolean;
  protected readonly noVault = 'InterPOS stores no cards for the gateway';
  readonly #credentials: InterPosCredentials;
  readonly #settings: InterPosSettings;
  readonly #client: InterPosClient;
  readonly #ctx: RequestContext;
  readonly #gateUrl: string;

  constructor(credentials: InterPosCredentials, settings: InterPosSettings, deps: ConnectorDeps, options: InterPosConnectorOptions = {}) {
    super();
    this.#credentials = credentials;
    this.#settings = settings;
    this.chargesAtGate = settings.model !== '3d';
    const { gate, api } = interPosEndpoints(settings);
    this.#gateUrl = gate;
    this.#ctx = { credentials, lang: settings.lang };
    this.#client = new InterPosClient({
      apiUrl: api,
      timeoutMs: options.timeoutMs ?? settings.timeout_ms,
      // The exchange is already scrubbed of card data, passwords and hashes (client.ts).
      onExchange: (exchange) => deps.log('interpos exchange', { ...exchange }),
    });
  }

  /** No call: the shopper's browser posts the signed form to InterPOS's gate (in 3D Host, without the card: InterPOS asks for it). */
  start3D(input: Start3DInput): Promise<Start3DResult> {
    const host = this.#settings.model === '3d_host';
    if (input.card === undefined && !host) return Promise.resolve(notOurs('InterPOS stores no cards: a 3D payment needs the card'));
    const orderId = this.orderIdOf(input.idempotencyKey);
    let fields: Record<string, string>;
    try {
      fields = threeDFormFields(
        {
          orderId,
          amount: input.amount,
          currency: input.currency,
          installmentNumber: input.installmentNumber,
          callbackUrl: input.callbackUrl,
          model: this.#settings.model,
          ...(input.card === undefined || host ? {} : { card: input.card }),
        },
        this.#ctx,
      );
    } catch (error) {
      return Promise.resolve(refused(error));
    }
    const providerReference = formatPaymentRef({ orderId, installments: input.installmentNumber });
    return Promise.resolve({ status: 'redirect', providerReference, redirect: gateForm(this.#gateUrl, fields, INTERPOS_CARD_FIELDS) });
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback({ storeKey: this.#credentials.store_key, shopCode: this.#credentials.shop_code, model: this.#settings.model }, payment, fields);
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const ref = parsePaymentRef(input.payment.providerReference);
    if (ref === null || input.data.orderId !== ref.orderId) return notOurs(NOT_OURS);
    if (this.chargesAtGate) return chargedAtGate(input.data, ref.orderId);
    const d = input.data;
    const request = threeDSaleRequest(
      {
        orderId: ref.orderId,
        amount: input.payment.amount,
        currency: input.payment.currency,
        installmentNumber: ref.installments,
        md: d.md ?? '',
        payerTxnId: d.payerTxnId ?? '',
        eci: d.eci ?? '',
        payerAuthenticationCode: d.payerAuthenticationCode ?? '',
      },
      this.#ctx,
    );
    const answer = await this.#client.call('complete3D', request);
    return saleResult(answer, ref.orderId, ref.orderId) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('InterPOS stores no cards: a payment needs the card');
    const orderId = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = saleRequest({ orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('charge', request);
    return saleResult(answer, orderId, orderId) ?? this.unknownOutcome('charge');
  }

  /** The StatusHistory inquiry, by the order id every call of the payment used. */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = (input.providerReference === null ? null : parsePaymentRef(input.providerReference)?.orderId) ?? this.orderIdOf(input.idempotencyKey);
    const answer = await this.#client.call('paymentStatus', statusRequest({ orderId }, this.#ctx));
    return this.settled(paymentStatusOf(orderStatusOf(answer), { amount: input.amount, reference: orderId }), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const ref = parsePaymentRef(input.providerReference);
    if (ref === null) return notOurs(NOT_OURS);
    let request;
    try {
      request = refundRequest({ orderId: ref.orderId, amount: input.amount }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('refund', request);
    return reversalResult(answer, ref.orderId) ?? this.unknownOutcome('refund');
  }

  /** The StatusHistory inquiry read as the order's history (answers.ts historyOf), judged by the lost-refund rule. */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const orderId = parsePaymentRef(input.providerReference)?.orderId;
    if (orderId === undefined) return this.unknownOutcome('refundStatus');
    const status = orderStatusOf(await this.#client.call('refundStatus', statusRequest({ orderId }, this.#ctx)));
    return this.lostReversal(input, historyOf(status, input), orderId, (verdict) => refundStatusOf(verdict, orderId));
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const ref = parsePaymentRef(input.providerReference);
    if (ref === null) return notOurs(NOT_OURS);
    const answer = await this.#client.call('cancel', voidRequest({ orderId: ref.orderId }, this.#ctx));
    return reversalResult(answer, ref.orderId) ?? this.unknownOutcome('cancel');
  }
}

/** The 3D Pay and 3D Host models: InterPOS charged while the shopper was on its pages; the verified callback says how it went. */
function chargedAtGate(data: Record<string, string>, orderId: string): Complete3DResult {
  const code = data.procReturnCode ?? '';
  if (code === APPROVED) return { status: 'succeeded', providerReference: orderId };
  return paymentFailure({ code, ...(data.errorCode ? { errorCode: data.errorCode } : {}), ...(data.errorMessage ? { message: data.errorMessage } : {}) });
}
