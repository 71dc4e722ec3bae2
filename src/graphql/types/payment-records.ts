// Payment records for lists (retrieve-payments) and the dashboard (`payment`, `payments`).
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { connectionOf, DateRangeFilter, FILTER_TEXT, listArgs, listWhere, NEWEST_FIRST, page, PaymentMoneyStatusEnum, PaymentStatusEnum } from '../lists.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { Conversion, CustomerRef, SavedCardObject } from './payment-objects.ts';
import { ProviderAttemptRecord } from './provider-attempts.ts';
import { chargedOf, conversionOf, localizedError } from '../../domain/payments/view.ts';
import { refundableAmount } from '../../domain/payments/refunds.ts';
import { retrievePayments, type PaymentList } from '../../domain/payments/list.ts';
import { formatAmount } from '../../domain/money.ts';
import { isUuid } from '../../domain/validation.ts';
import type { Prisma } from '../../generated/prisma/client.ts';


const RefundRecord = builder.prismaObject('Refund', {
  fields: (t) => ({
    type: t.exposeString('type'),
    status: t.exposeString('status'),
    amount: t.string({ resolve: (r) => formatAmount(r.amount) }),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const PaymentRecord = builder.prismaObject('Payment', {
  description: 'A payment as the dashboard and retrieve-payments show it',
  fields: (t) => ({
    token: t.exposeString('id'),
    channelToken: t.exposeString('channelId', { nullable: true }),
    channelReference: t.exposeString('channelReference', { nullable: true }),
    source: t.exposeString('source'),
    status: t.expose('status', { type: PaymentStatusEnum }),
    paymentStatus: t.expose('paymentStatus', { type: PaymentMoneyStatusEnum, nullable: true }),
    securityType: t.exposeString('securityType'),
    amount: t.string({ resolve: (p) => formatAmount(p.amount) }),
    baseAmount: t.string({ resolve: (p) => formatAmount(p.baseAmount) }),
    refundedAmount: t.string({ resolve: (p) => formatAmount(p.refundedAmount) }),
    refundableAmount: t.string({
      nullable: false,
      description: 'What is left to refund, in refundCurrency: the charged amount less refunds (settled or in progress) and cancels; 0.00 unless the payment succeeded',
      resolve: (p) => formatAmount(refundableAmount(p)),
    }),
    refundCurrency: t.string({ nullable: false, description: 'The currency refunds are counted in: the one the card was charged in', resolve: (p) => chargedOf(p).currency }),
    currency: t.exposeString('currency'),
    installmentNumber: t.exposeInt('installmentNumber'),
    isTest: t.exposeBoolean('isTest'),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    errorMessage: t.string({ nullable: true, resolve: (p, _a, ctx) => localizedError(p.errorCode, p.errorMessage, ctx.lang) }),
    providerErrorCode: t.exposeString('providerErrorCode', { nullable: true, description: "The provider's own code of a failure, for support (not in the REST answers)" }),
    providerErrorMessage: t.exposeString('providerErrorMessage', { nullable: true, description: "The provider's own text of a failure, for support (not in the REST answers)" }),
    cardFirstDigits: t.exposeString('cardFirstDigits', { nullable: true }),
    cardLastFourDigits: t.exposeString('cardLastFourDigits', { nullable: true }),
    cardScheme: t.exposeString('cardScheme', { nullable: true }),
    cardHolderName: t.exposeString('cardHolderName', { nullable: true }),
    paymentProviderToken: t.exposeString('paymentAccountId', { nullable: true }),
    customer: t.field({
      type: CustomerRef,
      nullable: true,
      select: { customer: true },
      resolve: (p) => (p.customer ? { channelReference: p.customer.channelReference } : null),
    }),
    customerRecord: t.relation('customer', {
      nullable: true,
      description: "The customer's record (name, e-mail, the token of its page); `customer` is the contract's reference only",
    }),
    conversion: t.field({ type: Conversion, nullable: true, resolve: (p) => conversionOf(p) }),
    savedCard: t.field({ type: SavedCardObject, nullable: true, select: { storedCard: true }, resolve: (p) => p.storedCard }),
    refunds: t.relation('refunds', { query: { orderBy: { createdAt: 'asc' } } }),
    providerAttempts: t.prismaField({
      type: ['ProviderAttempt'],
      description: "Every call made to a provider for this payment and its refunds, in the order they started",
      select: { id: true },
      // Calls started in the same millisecond in the contract's order (a 3D start before its completion).
      resolve: (query, p, _args, ctx) => ctx.services.db.providerAttempt.findMany({ ...query, where: { paymentId: p.id }, orderBy: [{ startedAt: 'asc' }, { operation: 'asc' }, { id: 'asc' }] }),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});
void RefundRecord;
void ProviderAttemptRecord;

// ---------------------------------------------------------------- retrieve-payments

const RetrievePaymentsInput = builder.inputType('RetrievePaymentsInput', {
  fields: (t) => ({ channelReference: t.string(), createdFrom: t.string(), createdTo: t.string() }),
});

type ListShape = { result: ResultShape; errors: UserErrorShape[] } & Partial<PaymentList>;

const RetrievePaymentsPayload = builder.objectRef<ListShape>('RetrievePaymentsPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    byDates: t.boolean({ description: 'Whether the list was selected by dates', resolve: (p) => p.createdFrom != null }),
    createdFrom: t.string({ nullable: true, resolve: (p) => p.createdFrom ?? null }),
    createdTo: t.string({ nullable: true, resolve: (p) => p.createdTo ?? null }),
    payments: t.field({ type: [PaymentRecord], resolve: (p) => p.payments ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.queryField('retrievePayments', (t) =>
  t.field({
    type: RetrievePaymentsPayload,
    description: 'Payments by channel_reference or by a date range of at most 7 days (default: the last 7 days)',
    args: { input: t.arg({ type: RetrievePaymentsInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => retrievePayments(ctx.services, actingWorkspace(ctx), args.input)) as Promise<ListShape>,
  }),
);

// ---------------------------------------------------------------- dashboard

builder.queryField('payment', (t) =>
  t.prismaField({
    type: 'Payment',
    nullable: true,
    args: { token: t.arg.string({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return null;
      return ctx.services.db.payment.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);

const PaymentFilter = builder.inputType('PaymentFilter', {
  fields: (t) => ({
    status: t.field({ type: [PaymentStatusEnum], description: FILTER_TEXT.status }),
    paymentStatus: t.field({ type: [PaymentMoneyStatusEnum], description: 'Any of these money statuses (omitted or empty: any)' }),
    channelReference: t.string({ description: FILTER_TEXT.channelReference }),
    cardLastFour: t.string({ description: FILTER_TEXT.cardLastFour }),
    created: t.field({ type: DateRangeFilter, description: FILTER_TEXT.created }),
  }),
});

builder.queryField('payments', (t) =>
  t.prismaConnection(
    {
      type: 'Payment',
      cursor: 'id',
      nullable: false,
      description: 'Payments of the workspace, newest first',
      args: listArgs(t.arg, PaymentFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.payment.findMany({ ...page(query), where: listWhere<Prisma.PaymentWhereInput>(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('Payment'),
  ),
);
