// Payment records for lists (retrieve-payments) and the dashboard (`payment`, `payments`).
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { Conversion, CustomerRef, SavedCardObject } from './payment-objects.ts';
import { conversionOf, localizedError, type PaymentView } from '../../domain/payments/view.ts';
import { retrievePayments, type PaymentList } from '../../domain/payments/list.ts';
import { formatAmount } from '../../domain/money.ts';
import type { Prisma } from '../../generated/prisma/client.ts';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
    status: t.string({ description: 'started, successful, failed, expired or unresolved', resolve: (p) => p.status }),
    paymentStatus: t.exposeString('paymentStatus', { nullable: true }),
    securityType: t.exposeString('securityType'),
    amount: t.string({ resolve: (p) => formatAmount(p.amount) }),
    baseAmount: t.string({ resolve: (p) => formatAmount(p.baseAmount) }),
    refundedAmount: t.string({ resolve: (p) => formatAmount(p.refundedAmount) }),
    currency: t.exposeString('currency'),
    installmentNumber: t.exposeInt('installmentNumber'),
    isTest: t.exposeBoolean('isTest'),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    errorMessage: t.string({ nullable: true, resolve: (p, _a, ctx) => localizedError(p.errorCode, p.errorMessage, ctx.lang) }),
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
    conversion: t.field({ type: Conversion, nullable: true, resolve: (p) => conversionOf(p) }),
    savedCard: t.field({ type: SavedCardObject, nullable: true, select: { storedCard: true }, resolve: (p) => p.storedCard }),
    refunds: t.relation('refunds', { query: { orderBy: { createdAt: 'asc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    completedAt: t.expose('completedAt', { type: 'DateTime', nullable: true }),
  }),
});
void RefundRecord;

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
    payments: t.field({ type: [PaymentRecord], resolve: (p) => (p.payments ?? []) as PaymentView[] }),
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
      if (!UUID_RE.test(args.token)) return null;
      return ctx.services.db.payment.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);

export const PageInfo = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({ hasNextPage: t.exposeBoolean('hasNextPage'), endCursor: t.exposeString('endCursor', { nullable: true }) }),
});

const PaymentPage = builder.objectRef<{ nodes: PaymentView[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>('PaymentPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [PaymentRecord], resolve: (p) => p.nodes }),
    pageInfo: t.field({ type: PageInfo, resolve: (p) => p.pageInfo }),
  }),
});

builder.queryField('payments', (t) =>
  t.field({
    type: PaymentPage,
    description: 'Newest first; pass pageInfo.endCursor as `after` for the next page',
    args: {
      first: t.arg.int({ defaultValue: 50 }),
      after: t.arg.string(),
      status: t.arg.string(),
      paymentStatus: t.arg.string(),
      channelReference: t.arg.string(),
      createdFrom: t.arg({ type: 'DateTime' }),
      createdTo: t.arg({ type: 'DateTime' }),
      workspaceSlug: t.arg.string({ description: 'Support staff only: limit to one workspace' }),
    },
    resolve: async (_r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      const take = Math.min(Math.max(args.first ?? 50, 1), 200);
      const where: Prisma.PaymentWhereInput = {
        ...(workspaceId ? { workspaceId } : args.workspaceSlug ? { workspace: { slug: args.workspaceSlug } } : {}),
        ...(args.status ? { status: args.status as never } : {}),
        ...(args.paymentStatus ? { paymentStatus: args.paymentStatus as never } : {}),
        ...(args.channelReference ? { channelReference: args.channelReference } : {}),
        ...(args.createdFrom || args.createdTo ? { createdAt: { gte: args.createdFrom ?? undefined, lt: args.createdTo ?? undefined } } : {}),
      };
      const rows = await ctx.services.db.payment.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: take + 1,
        ...(args.after && UUID_RE.test(args.after) ? { cursor: { id: args.after }, skip: 1 } : {}),
        include: { customer: true, storedCard: true, refunds: true, paymentAccount: true },
      });
      const nodes = rows.slice(0, take);
      return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: nodes.at(-1)?.id ?? null } };
    },
  }),
);
