// The Yapı Kredi PosNet connector on the bank POS skeleton (../bank-pos/connector.ts). 3-D Secure
// is PosNet's "OOS" flow: start3D sends the card to the bank server to server (oosRequestData) and
// hands the shopper's browser the sealed form the bank answered, so the card never passes through
// the browser; the bank's 3-D service posts sealed packets back, which verifyCallback has the bank
// open (oosResolveMerchantData, callback.ts); complete3D charges with them (oosTranData). Direct
// sales, returns (refunds), reverses (cancels) and the agreement inquiry (every transaction on an
// order: lost answers, lost refunds and cancels) are XML requests too (requests.ts).
import { BankPosConnector, notOurs, refused } from '../bank-pos/connector.ts';
import { bankOrderId } from '../bank-order-id.ts';
import type { ConnectorDeps } from '../registry.ts';
import {
  ProviderTimeoutError,
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
import { orderHistory, paymentStatusResult, refundStatusOf, reversalResult, saidOf, saleResult } from './answers.ts';
import { judgeResolution, packetsOf } from './callback.ts';
import { POSNET_PROVIDER_ID, PosnetClient } from './client.ts';
import { paymentFailure } from './codes.ts';
import {
  agreementRequest,
  isThreeDRef,
  macKeyOf,
  oosRequestData,
  oosResolveMerchantData,
  oosTranData,
  orderRef,
  returnRequest,
  reverseRequest,
  saleRequest,
  threeDFormFields,
  xidOf,
} from './requests.ts';
import { posnetEndpoints, type PosnetCredentials, type PosnetSettings } from './settings.ts';
import { textAt } from './xml.ts';

export class PosnetConnector extends BankPosConnector {
  readonly provider = POSNET_PROVIDER_ID;
  /** One model, "3D": the money moves on complete3D only. */
  readonly chargesAtGate = false;
  protected readonly noVault = 'PosNet stores no cards for the gateway';
  readonly #credentials: PosnetCredentials;
  readonly #settings: PosnetSettings;
  readonly #client: PosnetClient;
  readonly #gateUrl: string;

  constructor(credentials: PosnetCredentials, settings: PosnetSettings, deps: ConnectorDeps) {
    super();
    this.#credentials = credentials;
    this.#settings = settings;
    const { gate, api } = posnetEndpoints(settings);
    this.#gateUrl = gate;
    // The exchange is already scrubbed of card data and macs (client.ts).
    this.#client = new PosnetClient({ apiUrl: api, timeoutMs: settings.timeout_ms, onExchange: (exchange) => deps.log('posnet exchange', { ...exchange }) });
  }

  /** PosNet's XID: 20 characters, the first 20 of the payment's bank order id. */
  protected override orderIdOf(idempotencyKey: string): string {
    return bankOrderId(idempotencyKey).slice(0, 20);
  }

  async start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return notOurs('PosNet stores no cards: a 3D payment needs the card');
    const xid = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = oosRequestData(this.#credentials, { xid, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber }, input.card);
    } catch (error) {
      return refused(error);
    }
    // Nothing is charged yet: a lost answer leaves nothing to look up, the payment fails on its timer.
    const answer = await this.#client.call('start3D', request);
    const said = saidOf(answer);
    if (said === null) return this.unknownOutcome('start3D');
    if (said.approved !== '1') return paymentFailure(said);
    const at = (name: string) => textAt(answer, 'oosRequestDataResponse', name) ?? '';
    const sealed = { data1: at('data1'), data2: at('data2'), sign: at('sign') };
    if (!sealed.data1 || !sealed.sign) return this.unknownOutcome('start3D');
    const fields = threeDFormFields(this.#credentials, sealed, input.callbackUrl, this.#settings.lang);
    return { status: 'redirect', providerReference: orderRef(xid, true), redirect: { kind: 'form', action: this.#gateUrl, fields } };
  }

  override readonly callbackCheckAsksBank = true;

  /** The bank opens the sealed callback (callback.ts); no answer from it rejects the callback, nothing is written. */
  async verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): Promise<CallbackCheck> {
    const packets = packetsOf(fields);
    if (packets === null) return { status: 'rejected', cause: 'unsigned', reason: 'callback carries no sealed packets' };
    const xid = xidOf(payment.providerReference);
    if (xid === null || !isThreeDRef(payment.providerReference)) return { status: 'rejected', cause: 'order', reason: 'not a PosNet 3-D payment' };
    const request = oosResolveMerchantData(this.#credentials, { xid, amount: payment.amount, currency: payment.currency }, packets);
    try {
      return judgeResolution(macKeyOf(this.#credentials), payment, xid, packets, await this.#client.call('verifyCallback', request));
    } catch (error) {
      if (!(error instanceof ProviderTimeoutError)) throw error;
      return { status: 'rejected', cause: 'incomplete', reason: 'the bank did not answer the callback check' };
    }
  }

  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const reference = input.payment.providerReference;
    const xid = xidOf(reference);
    const packets = packetsOf({ BankPacket: input.data.bankData ?? '', MerchantPacket: input.data.merchantData ?? '', Sign: input.data.sign ?? '' });
    if (xid === null || packets === null || input.data.xid !== xid) return notOurs('Not a PosNet 3-D payment');
    const answer = await this.#client.call('complete3D', oosTranData(this.#credentials, { xid, amount: input.payment.amount, currency: input.payment.currency }, packets));
    return saleResult(answer, reference) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('PosNet stores no cards: a payment needs the card');
    const xid = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = saleRequest(this.#credentials, { xid, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber }, input.card);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('charge', request);
    return saleResult(answer, orderRef(xid, false)) ?? this.unknownOutcome('charge');
  }

  /** The agreement inquiry, by the order the lost call named (the 3-D start's reference, else the sale's). */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const reference = input.providerReference !== null && xidOf(input.providerReference) !== null ? input.providerReference : orderRef(this.orderIdOf(input.idempotencyKey), false);
    const answer = await this.#client.call('paymentStatus', agreementRequest(this.#credentials, reference));
    return this.settled(paymentStatusResult(answer, reference, input), 'paymentStatus');
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    if (xidOf(input.providerReference) === null) return notOurs('Not a PosNet payment reference');
    let request;
    try {
      request = returnRequest(this.#credentials, input.providerReference, input.amount, input.currency);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#client.call('refund', request);
    return reversalResult(answer, input.providerReference) ?? this.unknownOutcome('refund');
  }

  /** The order's transactions (agreement), judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const reference = input.providerReference;
    if (xidOf(reference) === null) return this.unknownOutcome('refundStatus');
    const answer = await this.#client.call('refundStatus', agreementRequest(this.#credentials, reference));
    return this.lostReversal(input, orderHistory(answer), reference, (verdict) => refundStatusOf(verdict, reference));
  }

  async cancel(input: CancelInput): Promise<CancelResult> {
    if (xidOf(input.providerReference) === null) return notOurs('Not a PosNet payment reference');
    const answer = await this.#client.call('cancel', reverseRequest(this.#credentials, input.providerReference));
    return reversalResult(answer, input.providerReference) ?? this.unknownOutcome('cancel');
  }
}
