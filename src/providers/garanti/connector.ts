// The Garanti BBVA virtual POS (GVP) connector: one payment account's view of GVP, built from its
// credentials (merchant and terminal ids, the PROVAUT and PROVRFN users, the store key) and
// settings (test or production, 3D model, addresses). A 3D payment posts a signed form to GVP's 3D
// gate (requests.ts); the callback is judged with the store key (callback.ts); the '3d' model then
// authorises with an XML sale carrying the ACS's proof, the '3d_pay' model reads the charge the
// bank already made from the callback. Every payment call of one payment names the same GVP order
// (bankOrderId). An answer that cannot be trusted (no Code, another order, another amount) is treated
// as no answer: ProviderTimeoutError, so the gateway asks the order inquiry later. A refund or void
// whose answer was lost is looked up in the order's history (orderhistoryinq, ../lost-refund.ts).
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
import { orderHistoryOf, orderInquiryResult, refundStatusOf, reversalResult, saleResult } from './answers.ts';
import { judgeCallback } from './callback.ts';
import { GARANTI_PROVIDER_ID, GarantiClient } from './client.ts';
import { APPROVED, paymentFailure } from './codes.ts';
import { formatPaymentRef, parsePaymentRef } from './references.ts';
import {
  orderInquiryRequest,
  refundRequest,
  saleRequest,
  GARANTI_CARD_FIELDS,
  threeDFormFields,
  threeDSaleRequest,
  voidRequest,
  type XmlContext,
} from './requests.ts';
import { garantiEndpoints, garantiMode, type GarantiCredentials, type GarantiSettings } from './settings.ts';

/** GVP takes cards with and without 3D Secure, refunds and voids; it stores no cards for the gateway. */
export const GARANTI_CAPABILITIES: ReadonlySet<Capability> = BANK_POS_CAPABILITIES;

export interface GarantiConnectorOptions {
  /** How long one call may take (settings.timeout_ms by default; at most 2 minutes). */
  timeoutMs?: number;
}

export class GarantiConnector extends BankPosConnector {
  readonly provider = GARANTI_PROVIDER_ID;
  readonly chargesAtGate: boolean;
  protected readonly noVault = 'GVP stores no cards for the gateway';
  readonly #credentials: GarantiCredentials;
  readonly #settings: GarantiSettings;
  readonly #client: GarantiClient;
  readonly #ctx: XmlContext;
  readonly #gateUrl: string;

  constructor(credentials: GarantiCredentials, settings: GarantiSettings, deps: ConnectorDeps, options: GarantiConnectorOptions = {}) {
    super();
    this.#credentials = credentials;
    this.#settings = settings;
    this.chargesAtGate = settings.model === '3d_pay';
    const { gate, api } = garantiEndpoints(settings);
    this.#gateUrl = gate;
    this.#ctx = { credentials, mode: garantiMode(settings) };
    this.#client = new GarantiClient({
      apiUrl: api,
      timeoutMs: options.timeoutMs ?? settings.timeout_ms,
      // The exchange is already scrubbed of card data, hashes and personal details (client.ts).
      onExchange: (exchange) => deps.log('garanti exchange', { ...exchange }),
    });
  }

  /** No call: the shopper's browser posts the signed form to GVP's 3D gate. */
  start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return Promise.resolve(notOurs('GVP stores no cards: a 3D payment needs the card'));
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
          card: input.card,
          ...(input.shopper ? { shopper: input.shopper } : {}),
        },
        { credentials: this.#credentials, mode: this.#ctx.mode, securityLevel: this.#settings.model === '3d_pay' ? '3D_PAY' : '3D', lang: this.#settings.lang },
      );
    } catch (error) {
      return Promise.resolve(refused(error));
    }
    return Promise.resolve({ status: 'redirect', providerReference: orderId, redirect: gateForm(this.#gateUrl, fields, GARANTI_CARD_FIELDS) });
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback({ storeKey: this.#credentials.store_key, terminalId: this.#credentials.terminal_id, model: this.#settings.model }, payment, fields);
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const ref = parsePaymentRef(input.payment.providerReference);
    if (ref === null || input.data.orderId !== ref.orderId) return notOurs('Not a Garanti payment reference');
    if (this.#settings.model === '3d_pay') return threeDPayResult(input.data, ref.orderId);
    const d = input.data;
    const request = threeDSaleRequest(
      {
        orderId: ref.orderId,
        amount: input.payment.amount,
        currency: input.payment.currency,
        installment: d.installment ?? '',
        ip: d.ip === undefined || d.ip === '' ? '127.0.0.1' : d.ip,
        cavv: d.cavv ?? '',
        eci: d.eci ?? '',
        xid: d.xid ?? '',
        md: d.md ?? '',
      },
      this.#ctx,
    );
    const answer = await this.#client.call('complete3D', request);
    return saleResult(answer, ref.orderId) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('GVP stores no cards: a payment needs the card');
    const orderId = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = saleRequest({ orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card, ...(input.shopper ? { shopper: input.shopper } : {}) }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('charge', request);
    return saleResult(answer, orderId) ?? this.unknownOutcome('charge');
  }

  /** The order inquiry, by the order id every call of the payment used. */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = (input.providerReference === null ? null : parsePaymentRef(input.providerReference)?.orderId) ?? this.orderIdOf(input.idempotencyKey);
    const answer = await this.#client.call('paymentStatus', orderInquiryRequest({ orderId, currency: input.currency }, this.#ctx));
    return this.settled(orderInquiryResult(answer, { orderId, amount: input.amount, currency: input.currency }), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const ref = parsePaymentRef(input.providerReference);
    if (ref === null) return notOurs('Not a Garanti payment reference');
    let request;
    try {
      request = refundRequest({ orderId: ref.orderId, amount: input.amount, currency: input.currency }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('refund', request);
    return reversalResult(answer, ref.orderId) ?? this.unknownOutcome('refund');
  }

  /** The order's history (orderhistoryinq), judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const orderId = parsePaymentRef(input.providerReference)?.orderId;
    if (orderId === undefined) return this.unknownOutcome('refundStatus');
    const request = orderInquiryRequest({ orderId, currency: input.currency ?? 'TRY' }, this.#ctx, 'orderhistoryinq');
    const history = orderHistoryOf(await this.#client.call('refundStatus', request), orderId);
    return this.lostReversal(input, history, '', (verdict) => refundStatusOf(verdict, orderId));
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const ref = parsePaymentRef(input.providerReference);
    if (ref === null) return notOurs('Not a Garanti payment reference');
    const answer = await this.#client.call('cancel', voidRequest({ orderId: ref.orderId, ...(ref.retrefNum === undefined ? {} : { retrefNum: ref.retrefNum }) }, this.#ctx));
    return reversalResult(answer, ref.orderId) ?? this.unknownOutcome('cancel');
  }
}

/** The 3D Pay model: GVP charged while the shopper was on its pages; the verified callback says how it went. */
function threeDPayResult(data: Record<string, string>, orderId: string): Complete3DResult {
  const code = data.procreturncode ?? '';
  if (code === APPROVED) return { status: 'succeeded', providerReference: formatPaymentRef({ orderId, ...(data.hostrefnum ? { retrefNum: data.hostrefnum } : {}) }) };
  return paymentFailure({ code: code === '' ? '99' : code, ...(data.errmsg ? { message: data.errmsg } : {}) });
}
