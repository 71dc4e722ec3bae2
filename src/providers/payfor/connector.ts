// The QNB Finansbank PayFor connector: one payment account's view of PayFor, built from its
// credentials (merchant id, API user and password, store key) and settings (test or production,
// 3D model, addresses). A 3D payment posts a signed form to PayFor's 3D gate (requests.ts); the
// callback is judged with the store key (callback.ts); the '3d' model then sells over XML with the
// authentication's RequestGuid, the '3d_pay' model reads the charge the bank already made from the
// callback. Every call of one payment names the same PayFor order (bankOrderId). An answer that
// cannot be trusted is treated as no answer (ProviderTimeoutError), so the gateway asks the order
// inquiry later; a refund or void whose answer was lost is looked up in the order's history
// report (../lost-refund.ts).
import type { ConnectorDeps } from '../registry.ts';
import { BankPosConnector, notOurs, refused } from '../bank-pos/connector.ts';
import {
  gateForm,
  type CallbackCheck,
  type CancelInput,
  type CancelResult,
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
import { historyOf, refundStatusOf, reversalResult, saleResult, statusResult } from './answers.ts';
import { judgeCallback } from './callback.ts';
import { PAYFOR_PROVIDER_ID, PayforClient } from './client.ts';
import { APPROVED, paymentFailure } from './codes.ts';
import { orderIdOf } from './references.ts';
import { historyRequest, PAYFOR_CARD_FIELDS, refundRequest, saleRequest, statusRequest, threeDFormFields, threeDPaymentRequest, voidRequest, type RequestContext } from './requests.ts';
import { payforEndpoints, type PayforCredentials, type PayforSettings } from './settings.ts';

const NOT_OURS = 'Not a PayFor payment reference';

export class PayforConnector extends BankPosConnector {
  readonly provider = PAYFOR_PROVIDER_ID;
  readonly chargesAtGate: boolean;
  protected readonly noVault = 'PayFor stores no cards for the gateway';
  readonly #settings: PayforSettings;
  readonly #ctx: RequestContext;
  readonly #client: PayforClient;
  readonly #gateUrl: string;
  readonly #signer: { merchantId: string; userCode: string; storeKey: string };

  constructor(credentials: PayforCredentials, settings: PayforSettings, deps: ConnectorDeps) {
    super();
    this.#settings = settings;
    this.chargesAtGate = settings.model === '3d_pay';
    this.#ctx = { credentials, lang: settings.lang };
    this.#signer = { merchantId: credentials.merchant_id, userCode: credentials.user_code, storeKey: credentials.store_key };
    const { gate, api } = payforEndpoints(settings);
    this.#gateUrl = gate;
    this.#client = new PayforClient({
      apiUrl: api,
      timeoutMs: settings.timeout_ms,
      // The exchange is already scrubbed of card data, passwords and hashes (client.ts).
      onExchange: (exchange) => deps.log('payfor exchange', { ...exchange }),
    });
  }

  /** No call: the shopper's browser posts the signed form to PayFor's 3D gate. */
  start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return Promise.resolve(notOurs('PayFor stores no cards: a 3D payment needs the card'));
    const orderId = this.orderIdOf(input.idempotencyKey);
    let fields: Record<string, string>;
    try {
      fields = threeDFormFields({ orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card, callbackUrl: input.callbackUrl, model: this.#settings.model }, this.#ctx);
    } catch (error) {
      return Promise.resolve(refused(error));
    }
    return Promise.resolve({ status: 'redirect', providerReference: orderId, redirect: gateForm(this.#gateUrl, fields, PAYFOR_CARD_FIELDS) });
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback({ account: this.#signer, model: this.#settings.model }, payment, fields);
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const orderId = orderIdOf(input.payment.providerReference);
    if (orderId === null || input.data.orderId !== orderId) return notOurs(NOT_OURS);
    if (this.#settings.model === '3d_pay') return threeDPayResult(input.data, orderId);
    const answer = await this.#client.call('complete3D', threeDPaymentRequest({ requestGuid: input.data.requestGuid ?? '', orderId }, this.#ctx));
    return saleResult(answer, orderId) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('PayFor stores no cards: a payment needs the card');
    const orderId = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = saleRequest({ orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('charge', request);
    return saleResult(answer, orderId) ?? this.unknownOutcome('charge');
  }

  /** The order inquiry, by the order id every call of the payment used. */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = (input.providerReference === null ? null : orderIdOf(input.providerReference)) ?? this.orderIdOf(input.idempotencyKey);
    const answer = await this.#client.call('paymentStatus', statusRequest({ orderId }, this.#ctx));
    return this.settled(statusResult(answer, { orderId, amount: input.amount }), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const orderId = orderIdOf(input.providerReference);
    if (orderId === null) return notOurs(NOT_OURS);
    let request;
    try {
      request = refundRequest({ orderId, amount: input.amount, currency: input.currency }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('refund', request);
    return reversalResult(answer, orderId) ?? this.unknownOutcome('refund');
  }

  /** The order's history report, judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const orderId = orderIdOf(input.providerReference);
    if (orderId === null) return this.unknownOutcome('refundStatus');
    const history = historyOf(await this.#client.call('refundStatus', historyRequest({ orderId }, this.#ctx)), orderId);
    return this.lostReversal(input, history, '', (verdict) => refundStatusOf(verdict, orderId));
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const orderId = orderIdOf(input.providerReference);
    if (orderId === null) return notOurs(NOT_OURS);
    const answer = await this.#client.call('cancel', voidRequest({ orderId }, this.#ctx));
    return reversalResult(answer, orderId) ?? this.unknownOutcome('cancel');
  }
}

/** The 3D Pay model: PayFor charged while the shopper was on its pages; the verified callback says how it went. */
function threeDPayResult(data: Record<string, string>, orderId: string): Complete3DResult {
  const code = data.procReturnCode ?? '';
  if (code === APPROVED) return { status: 'succeeded', providerReference: orderId };
  return paymentFailure({ code: code === '' ? '96' : code, ...(data.errMsg ? { message: data.errMsg } : {}) });
}
