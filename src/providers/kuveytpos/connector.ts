// The Kuveyt Türk KuveytPOS connector: one payment account's view of KuveytPOS, built from its
// credentials (shop and customer numbers, API user and password) and settings (test or
// production, addresses). KuveytPOS has one 3-D model: start3D posts the card to the bank's 3-D
// gate server to server (the enrollment) and hands the shopper's browser the form the bank
// answered (to the issuer's ACS); the callback is judged with the password's hash (callback.ts);
// complete3D then asks for the provision with the authentication's MD. Sales without 3-D go to
// Non3DPayGate; refunds, cancels and the order inquiry are SOAP calls (requests.ts). Every call of
// one payment names the same order (bankOrderId). An answer that cannot be trusted is treated as
// no answer (ProviderTimeoutError), so the gateway asks the order inquiry later; a refund or
// cancel whose answer was lost is judged from the order's totals (answers.ts historyOf).
import type { ConnectorDeps } from '../registry.ts';
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
import { historyOf, refundStatusOf, reversalResult, saleResult, statusResult, type ExpectedSale } from './answers.ts';
import { judgeCallback } from './callback.ts';
import { KUVEYTPOS_PROVIDER_ID, KuveytClient } from './client.ts';
import { APPROVED, paymentFailure } from './codes.ts';
import { parseRef, startRef, type SaleRef } from './references.ts';
import { cancelRequest, currencyCode, enrollmentRequest, provisionRequest, refundRequest, saleRequest, statusRequest, type RequestContext } from './requests.ts';
import { kuveytEndpoints, type KuveytCredentials, type KuveytSettings } from './settings.ts';
import { authenticationResponseOf, type KuveytAnswer, type KuveytRequest } from './xml.ts';

const NOT_OURS = 'Not a KuveytPOS payment reference';

type Gate = 'gate' | 'sale' | 'provision' | 'query';

export class KuveytPosConnector extends BankPosConnector {
  readonly provider = KUVEYTPOS_PROVIDER_ID;
  /** One model, 3D: no money moves before the gateway's own provision. */
  readonly chargesAtGate = false;
  protected readonly noVault = 'KuveytPOS stores no cards for the gateway';
  readonly #ctx: RequestContext;
  readonly #clients: Readonly<Record<Gate, KuveytClient>>;
  readonly #now: () => Date;

  constructor(credentials: KuveytCredentials, settings: KuveytSettings, deps: ConnectorDeps) {
    super();
    this.#ctx = { credentials };
    this.#now = () => deps.now();
    const urls = kuveytEndpoints(settings);
    const client = (apiUrl: string) =>
      new KuveytClient({
        apiUrl,
        timeoutMs: settings.timeout_ms,
        // The exchange is already scrubbed of card data, the MD and hashes (client.ts).
        onExchange: (exchange) => deps.log('kuveytpos exchange', { ...exchange }),
      });
    this.#clients = { gate: client(urls.gate), sale: client(`${urls.payment}/Non3DPayGate`), provision: client(`${urls.payment}/ThreeDModelProvisionGate`), query: client(urls.query) };
  }

  #call(gate: Gate, operation: string, request: KuveytRequest): Promise<KuveytAnswer> {
    return this.#clients[gate].call(operation, request);
  }

  get #password(): string {
    return this.#ctx.credentials.password;
  }

  /** The enrollment: the bank answers the form that takes the shopper to the ACS, or refuses at once. */
  async start3D(input: Start3DInput): Promise<Start3DResult> {
    if (input.card === undefined) return notOurs('KuveytPOS stores no cards: a 3D payment needs the card');
    const merchantOrderId = this.orderIdOf(input.idempotencyKey);
    let request;
    try {
      request = enrollmentRequest({ merchantOrderId, amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber, card: input.card, okUrl: input.callbackUrl, failUrl: input.callbackUrl, clientIp: input.shopper?.ip ?? '' }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    // Nothing is charged yet: a lost answer leaves nothing to look up, the payment fails on its timer.
    const answer = await this.#call('gate', 'start3D', request);
    if (answer.kind === 'contract') return refusalOf(answer.fields) ?? this.unknownOutcome('start3D');
    if (answer.kind !== 'form' || !/^https?:\/\//i.test(answer.action)) return this.unknownOutcome('start3D');
    const atOnce = answer.inputs.AuthenticationResponse;
    if (atOnce !== undefined) {
      // A form carrying the bank's answer: a refusal sends the shopper straight back to FailUrl (read
      // here, from the bank's own answer); an enrollment that went through goes on to the bank.
      const contract = authenticationResponseOf(atOnce);
      if (contract === null) return this.unknownOutcome('start3D');
      const refusal = refusalOf(contract.fields);
      if (refusal !== null) return refusal;
    }
    return { status: 'redirect', providerReference: startRef(merchantOrderId, input.installmentNumber), redirect: { kind: 'form', action: answer.action, fields: { ...answer.inputs } } };
  }

  verifyCallback(payment: ThreeDsPayment, fields: Record<string, string>): CallbackCheck {
    return judgeCallback({ merchantId: this.#ctx.credentials.merchant_id, password: this.#password }, payment, fields);
  }

  /** The provision with the callback's MD, for the payment's own amount, currency and instalments. */
  async complete3D(input: Complete3DInput): Promise<Complete3DResult> {
    const ref = parseRef(input.payment.providerReference);
    if (ref?.kind !== 'started' || input.data.merchantOrderId !== ref.merchantOrderId) return notOurs(NOT_OURS);
    const p = { merchantOrderId: ref.merchantOrderId, amount: input.payment.amount, currency: input.payment.currency, installmentNumber: ref.installments };
    let request;
    try {
      request = provisionRequest({ ...p, md: input.data.md ?? '', clientIp: '' }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#call('provision', 'complete3D', request);
    return saleResult(answer, expectedSale(p), this.#password) ?? this.unknownOutcome('complete3D');
  }

  async charge(input: ChargeInput): Promise<ChargeResult> {
    if (input.card === undefined) return notOurs('KuveytPOS stores no cards: a payment needs the card');
    const p = { merchantOrderId: this.orderIdOf(input.idempotencyKey), amount: input.amount, currency: input.currency, installmentNumber: input.installmentNumber };
    let request;
    try {
      request = saleRequest({ ...p, card: input.card }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#call('sale', 'charge', request);
    return saleResult(answer, expectedSale(p), this.#password) ?? this.unknownOutcome('charge');
  }

  /** The order inquiry by the order id every call of the payment used. */
  async paymentStatus(input: PaymentStatusInput): Promise<PaymentStatusResult> {
    const ref = input.providerReference === null ? null : parseRef(input.providerReference);
    const merchantOrderId = ref?.merchantOrderId ?? this.orderIdOf(input.idempotencyKey);
    let code;
    try {
      code = currencyCode(input.currency);
    } catch {
      return { status: 'unknown' }; // a currency KuveytPOS does not take was never sent
    }
    const answer = await this.#call('query', 'paymentStatus', statusRequest({ merchantOrderId, currencyCode: code, now: this.#now() }, this.#ctx));
    return this.settled(statusResult(answer, expectedSale({ merchantOrderId, amount: input.amount, currency: input.currency })), 'paymentStatus');
  }

  /** DrawBack for the sale's whole amount, PartialDrawback for part of it. */
  async refund(input: RefundInput): Promise<RefundResult> {
    const sale = saleOf(input.providerReference);
    if (sale === null) return notOurs(NOT_OURS);
    let request;
    try {
      request = refundRequest({ sale, amount: input.amount, currencyCode: `0${sale.currency}`, whole: input.amount === sale.amount }, this.#ctx);
    } catch (error) {
      return refused(error);
    }
    const answer = await this.#call('query', 'refund', request);
    return reversalResult(answer, sale.merchantOrderId) ?? this.unknownOutcome('refund');
  }

  /** The order inquiry's totals, judged by the lost-refund rule (../lost-refund.ts). */
  async refundStatus(input: RefundStatusInput): Promise<RefundStatusResult> {
    const sale = saleOf(input.providerReference);
    if (sale === null) return this.unknownOutcome('refundStatus');
    const answer = await this.#call('query', 'refundStatus', statusRequest({ merchantOrderId: sale.merchantOrderId, currencyCode: `0${sale.currency}`, now: this.#now() }, this.#ctx));
    return this.lostReversal(input, historyOf(answer, sale.merchantOrderId, input), sale.merchantOrderId, (verdict) => refundStatusOf(verdict, sale.merchantOrderId));
  }

  /** SaleReversal of the whole sale (KuveytPOS cancels on the sale's day only: a later one is refused, refund it instead). */
  async cancel(input: CancelInput): Promise<CancelResult> {
    const sale = saleOf(input.providerReference);
    if (sale === null) return notOurs(NOT_OURS);
    const answer = await this.#call('query', 'cancel', cancelRequest({ sale, amount: sale.amount, currencyCode: `0${sale.currency}` }, this.#ctx));
    return reversalResult(answer, sale.merchantOrderId) ?? this.unknownOutcome('cancel');
  }
}

const expectedSale = (p: { merchantOrderId: string; amount: bigint; currency: keyof typeof ISO_NUMERIC_CURRENCY }): ExpectedSale => ({ merchantOrderId: p.merchantOrderId, amount: p.amount, currency: ISO_NUMERIC_CURRENCY[p.currency] });

function saleOf(reference: string): SaleRef | null {
  const ref = parseRef(reference);
  return ref?.kind === 'sale' ? ref : null;
}

/** A refusal the bank answered before any ACS (a contract, or the AuthenticationResponse it sends back at once); null when it is not one. */
function refusalOf(fields: Readonly<Record<string, string>>): Start3DResult | null {
  const code = fields.ResponseCode ?? '';
  if (code === '' || code === APPROVED) return null;
  return paymentFailure({ code, ...(fields.ResponseMessage ? { message: fields.ResponseMessage } : {}) });
}
