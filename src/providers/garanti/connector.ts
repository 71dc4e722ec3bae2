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
import {
  gateForm,
  ProviderTimeoutError,
  computeInstallments,
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
import { orderHistoryOf, orderInquiryResult, refundStatusOf, reversalResult, saleResult } from './answers.ts';
import { isCancelKey, judgeLostCancel, judgeLostRefund } from '../lost-refund.ts';
import { judgeCallback } from './callback.ts';
import { GARANTI_PROVIDER_ID, GarantiClient } from './client.ts';
import { APPROVED, paymentFailure } from './codes.ts';
import { formatPaymentRef, parsePaymentRef } from './references.ts';
import { bankOrderId } from '../bank-order-id.ts';
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
export const GARANTI_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(['secure', 'non_secure', 'refund', 'cancel', 'hosted_page', 'conversion']);

export interface GarantiConnectorOptions {
  /** How long one call may take (settings.timeout_ms by default; at most 2 minutes). */
  timeoutMs?: number;
}

function unknownOutcome(operation: string): never {
  throw new ProviderTimeoutError(GARANTI_PROVIDER_ID, operation);
}

function notOurs(message: string): ProviderFailure {
  return { status: 'error', code: 'provider_error', message };
}

/** A payment GVP cannot take as asked (an amount of zero): nothing is sent. */
function refused(error: unknown): ProviderFailure {
  if (error instanceof RangeError) return notOurs(error.message);
  throw error;
}

export class GarantiConnector implements Connector {
  readonly provider = GARANTI_PROVIDER_ID;
  readonly capabilities = GARANTI_CAPABILITIES;
  /** In the "3D Pay" model the gate charges the card before the gateway hears (../three-d-pay.ts). */
  readonly chargesAtGate: boolean;
  readonly #credentials: GarantiCredentials;
  readonly #settings: GarantiSettings;
  readonly #client: GarantiClient;
  readonly #ctx: XmlContext;
  readonly #gateUrl: string;

  constructor(credentials: GarantiCredentials, settings: GarantiSettings, deps: ConnectorDeps, options: GarantiConnectorOptions = {}) {
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

  /** GVP has no BIN service here: the workspace's BIN source answers the facts. */
  binLookup(bin: string): Promise<BinInfo> {
    return Promise.resolve({ bin, issuerName: null, issuerCode: null, scheme: null, type: null, program: null, isCommercial: null });
  }

  /** Banks do not quote instalments: the account's own rate table does. */
  installments(input: InstallmentsInput): Promise<InstallmentOption[]> {
    return Promise.resolve(computeInstallments(input.amount, input.currency, input.monthlyRatesBp));
  }

  /** No call: the shopper's browser posts the signed form to GVP's 3D gate. */
  start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return Promise.resolve(notOurs('GVP stores no cards: a 3D payment needs the card'));
    const orderId = bankOrderId(input.idempotencyKey);
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
    return saleResult(answer, ref.orderId) ?? unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('GVP stores no cards: a payment needs the card');
    const orderId = bankOrderId(input.idempotencyKey);
    let request;
    try {
      request = saleRequest({ orderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card, ...(input.shopper ? { shopper: input.shopper } : {}) }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('charge', request);
    return saleResult(answer, orderId) ?? unknownOutcome('charge');
  }

  /** The order inquiry, by the order id every call of the payment used. */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = (input.providerReference === null ? null : parsePaymentRef(input.providerReference)?.orderId) ?? bankOrderId(input.idempotencyKey);
    const answer = await this.#client.call('paymentStatus', orderInquiryRequest({ orderId, currency: input.currency }, this.#ctx));
    const result = orderInquiryResult(answer, { orderId, amount: input.amount, currency: input.currency });
    return result === 'retry' ? unknownOutcome('paymentStatus') : result;
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
    return reversalResult(answer, ref.orderId) ?? unknownOutcome('refund');
  }

  /** The order's history (orderhistoryinq), judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const orderId = parsePaymentRef(input.providerReference)?.orderId;
    if (orderId === undefined) return unknownOutcome('refundStatus');
    const request = orderInquiryRequest({ orderId, currency: input.currency ?? 'TRY' }, this.#ctx, 'orderhistoryinq');
    const history = orderHistoryOf(await this.#client.call('refundStatus', request), orderId);
    if (history === 'retry') return unknownOutcome('refundStatus');
    const verdict = isCancelKey(input.idempotencyKey) ? judgeLostCancel(history, '') : judgeLostRefund(input, history);
    const result = refundStatusOf(verdict, orderId);
    return result === 'retry' ? unknownOutcome('refundStatus') : result;
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    const ref = parsePaymentRef(input.providerReference);
    if (ref === null) return notOurs('Not a Garanti payment reference');
    const answer = await this.#client.call('cancel', voidRequest({ orderId: ref.orderId, ...(ref.retrefNum === undefined ? {} : { retrefNum: ref.retrefNum }) }, this.#ctx));
    return reversalResult(answer, ref.orderId) ?? unknownOutcome('cancel');
  }

  storeCard(): Promise<StoreCardResult> {
    return Promise.resolve(notOurs('GVP stores no cards for the gateway'));
  }

  deleteCard(): Promise<DeleteCardResult> {
    return Promise.resolve(notOurs('GVP stores no cards for the gateway'));
  }
}

/** The 3D Pay model: GVP charged while the shopper was on its pages; the verified callback says how it went. */
function threeDPayResult(data: Record<string, string>, orderId: string): Complete3DResult {
  const code = data.procreturncode ?? '';
  if (code === APPROVED) return { status: 'succeeded', providerReference: formatPaymentRef({ orderId, ...(data.hostrefnum ? { retrefNum: data.hostrefnum } : {}) }) };
  return paymentFailure({ code: code === '' ? '99' : code, ...(data.errmsg ? { message: data.errmsg } : {}) });
}
