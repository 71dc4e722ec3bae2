// The Akbank virtual POS connector (the bank's new JSON API): one payment account's view of
// Akbank, built from its credentials (merchant and terminal safe ids, secret key) and settings
// (test or production, 3-D model, addresses). A 3-D payment posts a signed form to Akbank's gate
// (requests.ts; the 3D Host model's form carries no card, the bank's own page asks for it); the
// callback is judged with the secret key (callback.ts); the '3d' model then sells over the API
// with the authentication's secure data, the '3d_pay' and '3d_host' models read the charge the
// bank already made from the callback. Every call of one payment names the same Akbank order
// (bankOrderId). Akbank has no status inquiry: a lost answer, refund or cancel is looked up in
// the order's history (txnCode 1010), judged by ../lost-refund.ts for reversals.
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
  type ProviderFailure,
  type RefundInput,
  type RefundResult,
  type RefundStatusInput,
  type RefundStatusResult,
  type Start3DInput,
  type Start3DResult,
  type ThreeDsPayment,
} from '../types.ts';
import { historyOf, refundStatusOf, reversalResult, saleResult, statusResult } from './answers.ts';
import { judgeCallback, type CallbackContext } from './callback.ts';
import { AKBANK_POS_PROVIDER_ID, AkbankPosClient } from './client.ts';
import { APPROVED, paymentFailure } from './codes.ts';
import { installmentsOf, orderIdOf } from './references.ts';
import { AKBANK_CARD_FIELDS, cancelRequest, orderHistoryRequest, refundRequest, saleRequest, threeDFormFields, threeDPaymentRequest, type RequestContext } from './requests.ts';
import { akbankPosEndpoints, type AkbankPosCredentials, type AkbankPosSettings } from './settings.ts';

/** Builds a request, or says why it cannot be sent. */
function build<R>(make: () => R): R | ProviderFailure {
  try {
    return make();
  } catch (error) {
    return refused(error);
  }
}

const isFailure = (value: unknown): value is ProviderFailure => typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'error';

const NOT_OURS = 'Not an Akbank payment reference';

export class AkbankPosConnector extends BankPosConnector {
  readonly provider = AKBANK_POS_PROVIDER_ID;
  readonly chargesAtGate: boolean;
  protected readonly noVault = 'Akbank stores no cards for the gateway';
  readonly #settings: AkbankPosSettings;
  readonly #ctx: RequestContext;
  readonly #client: AkbankPosClient;
  readonly #gateUrl: string;
  readonly #callback: CallbackContext;

  constructor(credentials: AkbankPosCredentials, settings: AkbankPosSettings, deps: ConnectorDeps) {
    super();
    this.#settings = settings;
    this.chargesAtGate = settings.model !== '3d';
    this.#ctx = { credentials, lang: settings.lang, now: deps.now };
    this.#callback = { merchantSafeId: credentials.merchant_safe_id, terminalSafeId: credentials.terminal_safe_id, secretKey: credentials.secret_key, model: settings.model };
    const { gate, api } = akbankPosEndpoints(settings);
    this.#gateUrl = gate;
    this.#client = new AkbankPosClient(credentials.secret_key, {
      apiUrl: api,
      timeoutMs: settings.timeout_ms,
      // The exchange is already scrubbed of card data, randoms and hashes (client.ts).
      onExchange: (exchange) => deps.log('akbank-pos exchange', { ...exchange }),
    });
  }

  /** No call: the shopper's browser posts the signed form to Akbank's gate. */
  start3D(input: Start3DInput): Promise<Start3DResult> {
    const model = this.#settings.model;
    if (input.card === undefined && model !== '3d_host') return Promise.resolve(notOurs('Akbank stores no cards: a 3D payment needs the card'));
    const orderId = this.orderIdOf(input.idempotencyKey);
    const p = { orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, callbackUrl: input.callbackUrl, model, ...(input.card ? { card: input.card } : {}) };
    const fields = build(() => threeDFormFields(p, this.#ctx));
    if (isFailure(fields)) return Promise.resolve(fields);
    return Promise.resolve({ status: 'redirect', providerReference: orderId, redirect: gateForm(this.#gateUrl, fields, AKBANK_CARD_FIELDS) });
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback(this.#callback, payment, fields);
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const orderId = orderIdOf(input.payment.providerReference);
    if (orderId === null || input.data.orderId !== orderId) return notOurs(NOT_OURS);
    if (this.#settings.model !== '3d') return chargedAtGate(input.data, orderId);
    const { amount, currency } = input.payment;
    const secure = { secureId: input.data.secureId ?? '', secureEcomInd: input.data.secureEcomInd ?? '', secureData: input.data.secureData ?? '', secureMd: input.data.secureMd ?? '' };
    const request = build(() => threeDPaymentRequest({ orderId, amount, currency, installmentNumber: input.payment.installmentNumber ?? installmentsOf(input.payment.providerReference), secure }, this.#ctx));
    if (isFailure(request)) return request;
    const answer = await this.#client.call('complete3D', request);
    return saleResult(answer, orderId) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('Akbank stores no cards: a payment needs the card');
    const orderId = this.orderIdOf(input.idempotencyKey);
    const p = { orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card, ...(input.shopper?.ip ? { ip: input.shopper.ip } : {}) };
    const request = build(() => saleRequest(p, this.#ctx));
    if (isFailure(request)) return request;
    const answer = await this.#client.call('charge', request);
    return saleResult(answer, orderId) ?? this.unknownOutcome('charge');
  }

  /** The order history, by the order id every call of the payment used (Akbank has no status inquiry). */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = (input.providerReference === null ? null : orderIdOf(input.providerReference)) ?? this.orderIdOf(input.idempotencyKey);
    const answer = await this.#client.call('paymentStatus', orderHistoryRequest({ orderId }, this.#ctx));
    return this.settled(statusResult(answer, { orderId, amount: input.amount }), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const orderId = orderIdOf(input.providerReference);
    if (orderId === null) return notOurs(NOT_OURS);
    const request = build(() => refundRequest({ orderId, amount: input.amount, currency: input.currency }, this.#ctx));
    if (isFailure(request)) return request;
    const answer = await this.#client.call('refund', request);
    return reversalResult(answer, orderId) ?? this.unknownOutcome('refund');
  }

  /** The order's history, judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const orderId = orderIdOf(input.providerReference);
    if (orderId === null) return this.unknownOutcome('refundStatus');
    const history = historyOf(await this.#client.call('refundStatus', orderHistoryRequest({ orderId }, this.#ctx)), orderId);
    return this.lostReversal(input, history, '', (verdict) => refundStatusOf(verdict, orderId));
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const orderId = orderIdOf(input.providerReference);
    if (orderId === null) return notOurs(NOT_OURS);
    const answer = await this.#client.call('cancel', cancelRequest({ orderId }, this.#ctx));
    return reversalResult(answer, orderId) ?? this.unknownOutcome('cancel');
  }
}

/** The 3D Pay and 3D Host models: Akbank charged while the shopper was on its pages; the verified callback says how it went. */
function chargedAtGate(data: Record<string, string>, orderId: string): Complete3DResult {
  const code = data.responseCode ?? '';
  if (code === APPROVED) return { status: 'succeeded', providerReference: orderId };
  return paymentFailure({ code: code === '' ? 'VPS-9999' : code, ...(data.hostResponseCode ? { hostCode: data.hostResponseCode } : {}), ...(data.message ? { message: data.message } : {}) });
}
