// Card payments (contract: secure-payment, regular-payment, retrieve-payment, refund-payment,
// cancel-payment). Resolvers only call the domain and shape its answer.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, PaymentStartResultRef, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { Conversion, CustomerRef, SavedCardObject, TransactionRef } from './payment-objects.ts';
import { securePayment, regularPayment, type StartResult } from '../../domain/payments/start.ts';
import { retrievePayment, type RetrievedPayment } from '../../domain/payments/retrieve.ts';
import { cancelPayment, refundableAmount, refundPayment, type RefundOutcome } from '../../domain/payments/refunds.ts';
import { PaymentMoneyStatusEnum, PaymentStatusEnum } from '../lists.ts';
import { conversionOf, retrieveResult, settledResult, type PaymentView } from '../../domain/payments/view.ts';
import { formatAmount } from '../../domain/money.ts';
import type { GraphQLContext } from '../context.ts';

// ---------------------------------------------------------------- inputs

export const CustomerInput = builder.inputType('CustomerInput', {
  fields: (t) => ({
    channelReference: t.string(),
    firstname: t.string(),
    lastname: t.string(),
    email: t.string(),
    phone: t.string(),
    address: t.string(),
    district: t.string(),
    province: t.string(),
    country: t.string(),
  }),
});

const CardInput = builder.inputType('CardInput', {
  fields: (t) => ({
    holderName: t.string(),
    number: t.string(),
    securityCode: t.string(),
    expiryMonth: t.string(),
    expiryYear: t.string(),
    shouldSave: t.boolean(),
  }),
});

const PaymentTransactionInput = builder.inputType('PaymentTransactionInput', {
  fields: (t) => ({
    channelToken: t.string(),
    channelReference: t.string(),
    amount: t.field({ type: 'AmountInput' }),
    baseAmount: t.field({ type: 'AmountInput' }),
    currency: t.string(),
    installmentNumber: t.int(),
    ip: t.string(),
    callbackUrl: t.string({ description: 'secure-payment only' }),
    paymentProviderToken: t.string(),
    savedCardToken: t.string(),
  }),
});

const PaymentInput = builder.inputType('PaymentInput', {
  fields: (t) => ({
    transaction: t.field({ type: PaymentTransactionInput }),
    customer: t.field({ type: CustomerInput }),
    card: t.field({ type: CardInput }),
  }),
});

const TokenInput = builder.inputType('TransactionTokenInput', { fields: (t) => ({ token: t.string() }) });
const RetrievePaymentInput = builder.inputType('RetrievePaymentInput', { fields: (t) => ({ transaction: t.field({ type: TokenInput }) }) });
const RefundPaymentInput = builder.inputType('RefundPaymentInput', {
  fields: (t) => ({ transaction: t.field({ type: TokenInput }), amount: t.field({ type: 'AmountInput' }) }),
});
const CancelPaymentInput = builder.inputType('CancelPaymentInput', { fields: (t) => ({ transaction: t.field({ type: TokenInput }) }) });

// ---------------------------------------------------------------- payloads

interface PaymentPayloadShape {
  result: ResultShape & { redirectUrl?: string | null };
  errors: UserErrorShape[];
  view?: PaymentView;
  refund?: RefundOutcome['refund'];
}

const RefundRef = builder.objectRef<RefundOutcome['refund']>('RefundResult').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    amount: t.string({ resolve: (r) => formatAmount(r.amount) }),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

function paymentFields<S extends PaymentPayloadShape>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, S>) {
  return {
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      resolve: (p) => (p.view ? { token: p.view.id, channelToken: p.view.channelId, channelReference: p.view.channelReference } : null),
    }),
    customer: t.field({
      type: CustomerRef,
      nullable: true,
      resolve: (p) => (p.view?.customer ? { channelReference: p.view.customer.channelReference } : null),
    }),
    conversion: t.field({ type: Conversion, nullable: true, resolve: (p) => (p.view ? conversionOf(p.view) : null) }),
    savedCard: t.field({ type: SavedCardObject, nullable: true, resolve: (p) => p.view?.storedCard ?? null }),
    savedCardRequested: t.boolean({ description: 'Whether the payment was started with card.shouldSave', resolve: (p) => p.view?.shouldSave ?? false }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  };
}

type RetrievedRefund = RetrievedPayment['refunds'][number];
const PaymentStateRefund = builder.objectRef<RetrievedRefund>('PaymentStateRefund').implement({
  description: 'A refund or cancel of the payment, in the currency the card was charged in',
  fields: (t) => ({
    type: t.exposeString('type', { nullable: false, description: '`refund` or `cancel`' }),
    status: t.exposeString('status', { nullable: false, description: '`pending` (sent to the provider), `succeeded` or `failed`' }),
    amount: t.string({ nullable: false, resolve: (r) => formatAmount(r.amount) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: false }),
  }),
});

const PaymentState = builder.objectRef<RetrievedPayment>('PaymentState').implement({
  description: "The payment's state and money, beyond the contract's fields of retrieve-payment",
  fields: (t) => ({
    status: t.expose('status', { type: PaymentStatusEnum, nullable: false, description: 'started, successful, failed, expired or unresolved (the outcome could not be learned yet)' }),
    paymentStatus: t.expose('paymentStatus', { type: PaymentMoneyStatusEnum, nullable: true, description: 'For a successful payment: paid, partially_refunded, refunded or cancelled; else null' }),
    amount: t.string({ nullable: false, description: 'The amount asked, in currency', resolve: (p) => formatAmount(p.amount) }),
    currency: t.exposeString('currency', { nullable: false }),
    refundedAmount: t.string({ nullable: false, description: 'Refunded or cancelled so far, in the currency charged (conversion.currency when converted)', resolve: (p) => formatAmount(p.refundedAmount) }),
    refundableAmount: t.string({ nullable: false, description: 'What refund-payment may still refund, in the currency charged', resolve: (p) => formatAmount(refundableAmount(p)) }),
    refunds: t.field({ type: [PaymentStateRefund], nullable: false, description: 'Refunds and cancels, oldest first', resolve: (p) => p.refunds }),
  }),
});

const RetrievePaymentPayload = builder.objectRef<PaymentPayloadShape & { record?: RetrievedPayment }>('RetrievePaymentPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    ...paymentFields(t),
    payment: t.field({
      type: PaymentState,
      nullable: true,
      description: "Not among the contract's fields: the payment's status, money status, amounts and refunds, for deciding from this one answer",
      resolve: (p) => p.record ?? null,
    }),
  }),
});

const SecurePaymentPayload = builder.objectRef<PaymentPayloadShape>('SecurePaymentPayload').implement({
  fields: (t) => ({ result: t.field({ type: PaymentStartResultRef, resolve: (p) => p.result }), ...paymentFields(t) }),
});
const PaymentPayload = builder.objectRef<PaymentPayloadShape>('PaymentPayload').implement({
  fields: (t) => ({ result: t.field({ type: ResultRef, resolve: (p) => p.result }), ...paymentFields(t) }),
});
const RefundPaymentPayload = builder.objectRef<PaymentPayloadShape>('RefundPaymentPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    ...paymentFields(t),
    refund: t.field({ type: RefundRef, nullable: true, resolve: (p) => p.refund ?? null }),
  }),
});

function startPayload(ctx: GraphQLContext, run: () => Promise<StartResult>) {
  return payload(ctx, async () => {
    const r = await run();
    return { view: r.view, result: { ...settledResult(r.successful, r.failure, ctx.lang), redirectUrl: r.redirectUrl } };
  }) as Promise<PaymentPayloadShape>;
}

function refundPayload(ctx: GraphQLContext, run: () => Promise<RefundOutcome>) {
  return payload(ctx, async () => {
    const r = await run();
    return { view: r.view, refund: r.refund, result: settledResult(r.successful, r.failure, ctx.lang) };
  }) as Promise<PaymentPayloadShape>;
}

// ---------------------------------------------------------------- operations

builder.mutationField('securePayment', (t) =>
  t.field({
    type: SecurePaymentPayload,
    description: 'Starts a 3D Secure payment; the customer is sent to result.redirectUrl',
    args: { input: t.arg({ type: PaymentInput, required: true }) },
    resolve: (_r, args, ctx) => startPayload(ctx, () => securePayment(ctx.services, actingWorkspace(ctx), args.input)),
  }),
);

builder.mutationField('regularPayment', (t) =>
  t.field({
    type: PaymentPayload,
    description: 'Charges a card without 3D Secure',
    args: { input: t.arg({ type: PaymentInput, required: true }) },
    resolve: (_r, args, ctx) => startPayload(ctx, () => regularPayment(ctx.services, actingWorkspace(ctx), args.input)),
  }),
);

builder.queryField('retrievePayment', (t) =>
  t.field({
    type: RetrievePaymentPayload,
    description: "The result of a payment by token (contract: retrieve-payment), with its state and refunds in `payment`",
    args: { input: t.arg({ type: RetrievePaymentInput, required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const record = await retrievePayment(ctx.services, actingWorkspace(ctx), args.input);
        return { view: record, record, result: retrieveResult(record, ctx.lang) };
      }) as Promise<PaymentPayloadShape & { record?: RetrievedPayment }>,
  }),
);

builder.mutationField('refundPayment', (t) =>
  t.field({
    type: RefundPaymentPayload,
    description: 'Refunds all or part of a successful payment',
    args: { input: t.arg({ type: RefundPaymentInput, required: true }) },
    resolve: (_r, args, ctx) => refundPayload(ctx, () => refundPayment(ctx.services, actingWorkspace(ctx), args.input)),
  }),
);

builder.mutationField('cancelPayment', (t) =>
  t.field({
    type: RefundPaymentPayload,
    description: 'Cancels the whole of a successful payment without earlier refunds',
    args: { input: t.arg({ type: CancelPaymentInput, required: true }) },
    resolve: (_r, args, ctx) => refundPayload(ctx, () => cancelPayment(ctx.services, actingWorkspace(ctx), args.input)),
  }),
);
