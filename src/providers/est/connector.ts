// The EST connector: one payment account's view of its bank's EST (Payten) virtual POS. 3-D
// Secure goes through the bank's 3D gate: start3D hands the gateway a signed form to post
// (requests.ts), verifyCallback judges what the gate posts back (callback.ts), and complete3D
// authorises over the XML API ("3D" model) or reads the charge the gate already made ("3D Pay").
// Direct charges, refunds (Credit), cancels (Void), the order inquiry (ORDERSTATUS) and the
// order history (ORDERHISTORY, for lost refunds and cancels) are CC5Requests (client.ts). What
// every bank POS does alike (order id, no vault, instalments from the account's rates, the
// lost-refund rule) comes from ../bank-pos/connector.ts.
import { randomBytes } from 'node:crypto';
import type { ConnectorDeps } from '../registry.ts';
import { BANK_POS_CAPABILITIES, BankPosConnector, notOurs } from '../bank-pos/connector.ts';
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
import { orderHistory, paymentResult, paymentStatusResult, refundResult, refundStatusOf, threeDPayResult } from './answers.ts';
import { judgeCallback } from './callback.ts';
import { EST_PROVIDER_ID, EstClient } from './client.ts';
import { isOrderId } from './order-id.ts';
import { cancelRequest, chargeRequest, EST_CARD_FIELDS, historyRequest, refundRequest, statusRequest, threeDAuthRequest, threeDForm } from './requests.ts';
import { endpointsOf, type EstCredentials, type EstSettings } from './settings.ts';

/**
 * Both payment kinds, refunds, cancels and the gate's own page; conversion because the gateway
 * converts before the call (EST is asked in the payment's currency). No card storage.
 */
export const EST_CAPABILITIES: ReadonlySet<Capability> = BANK_POS_CAPABILITIES;

export interface EstConnectorOptions {
  /** The 3D form's random salt (rnd); tests fix it to reproduce a hash. */
  rnd?: () => string;
}

/** 20 random hex characters, as EST's own samples salt the form. */
function randomSalt(): string {
  return randomBytes(10).toString('hex').toUpperCase();
}

export class EstConnector extends BankPosConnector {
  readonly provider = EST_PROVIDER_ID;
  readonly chargesAtGate: boolean;
  protected readonly noVault = 'EST keeps no cards in this gateway';
  readonly #credentials: EstCredentials;
  readonly #settings: EstSettings;
  readonly #gateUrl: string;
  readonly #client: EstClient;
  readonly #rnd: () => string;

  constructor(credentials: EstCredentials, settings: EstSettings, deps: ConnectorDeps, options: EstConnectorOptions = {}) {
    super();
    this.#credentials = credentials;
    this.#settings = settings;
    this.chargesAtGate = settings.model === '3d_pay';
    const endpoints = endpointsOf(settings);
    this.#gateUrl = endpoints.gate3d;
    this.#rnd = options.rnd ?? randomSalt;
    this.#client = new EstClient({
      apiUrl: endpoints.api,
      timeoutMs: settings.timeout_ms,
      // The exchange is already scrubbed of card data and the password (client.ts).
      onExchange: (exchange) => deps.log('est exchange', { ...exchange }),
    });
  }

  /** Nothing is sent: the shopper's browser posts the signed card form to the bank's 3D gate. */
  start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return Promise.resolve(notOurs('EST takes 3D payments with card data only'));
    const orderId = this.orderIdOf(input.idempotencyKey);
    const fields = threeDForm(this.#credentials, {
      orderId,
      amount: input.amount,
      currency: input.currency,
      installmentNumber: input.installmentNumber,
      callbackUrl: input.callbackUrl,
      card: input.card,
      storetype: this.#settings.model,
      lang: this.#settings.lang,
      rnd: this.#rnd(),
    });
    return Promise.resolve({ status: 'redirect', providerReference: orderId, redirect: gateForm(this.#gateUrl, fields, EST_CARD_FIELDS) });
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback(this.#credentials.client_id, this.#credentials.store_key, payment, fields);
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const orderId = input.payment.providerReference;
    if (!isOrderId(orderId)) return notOurs('Not an EST order id');
    if (input.data.model === '3d_pay') return threeDPayResult(input.data, orderId);
    const { md, xid, eci, cavv, taksit } = input.data;
    if (!md) return notOurs('The callback gave no card token (md)');
    const order = {
      orderId,
      amount: input.payment.amount,
      currency: input.payment.currency,
      installmentNumber: taksit && /^\d+$/.test(taksit) ? Number(taksit) : 1,
    };
    const body = threeDAuthRequest(this.#credentials, order, { md, xid: xid ?? '', eci: eci ?? '', cavv: cavv ?? '' });
    const answer = await this.#client.call('complete3D', body);
    return paymentResult(answer, orderId) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('EST charges card data only');
    const orderId = this.orderIdOf(input.idempotencyKey);
    const order = {
      orderId,
      amount: input.amount,
      currency: input.currency,
      installmentNumber: input.installmentNumber,
      ...(input.shopper?.ip ? { ip: input.shopper.ip } : {}),
    };
    const answer = await this.#client.call('charge', chargeRequest(this.#credentials, order, input.card));
    return paymentResult(answer, orderId) ?? this.unknownOutcome('charge');
  }

  /** The order inquiry, by the order id the lost call used (the key's payment, or the 3D start's reference). */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const orderId = input.providerReference !== null && isOrderId(input.providerReference) ? input.providerReference : this.orderIdOf(input.idempotencyKey);
    const answer = await this.#client.call('paymentStatus', statusRequest(this.#credentials, orderId));
    return this.settled(paymentStatusResult(answer, orderId, input.amount), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    if (!isOrderId(input.providerReference)) return notOurs('Not an EST order id');
    const answer = await this.#client.call('refund', refundRequest(this.#credentials, input.providerReference, input.amount, input.currency));
    return refundResult(answer, input.providerReference) ?? this.unknownOutcome('refund');
  }

  /** The order's history (ORDERHISTORY), judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const orderId = input.providerReference;
    if (!isOrderId(orderId)) return this.unknownOutcome('refundStatus');
    const answer = await this.#client.call('refundStatus', historyRequest(this.#credentials, orderId));
    return this.lostReversal(input, orderHistory(answer, orderId), orderId, (verdict) => refundStatusOf(verdict, orderId));
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    if (!isOrderId(input.providerReference)) return notOurs('Not an EST order id');
    const answer = await this.#client.call('cancel', cancelRequest(this.#credentials, input.providerReference));
    return refundResult(answer, input.providerReference) ?? this.unknownOutcome('cancel');
  }
}
