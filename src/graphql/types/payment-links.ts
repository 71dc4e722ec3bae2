// Payment links (contract: create-payment-link, update-payment-link, retrieve-payment-links, the
// Payment link and link Transaction objects) and retrieve-link-payments; `paymentLink` for the
// dashboard (`paymentLink`, and the `paymentLinks` connection). Resolvers only call the domain and
// shape its answer.
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { Conversion } from './payment-objects.ts';
import { createPaymentLink, updatePaymentLink } from '../../domain/payment-links/create.ts';
import { retrieveLinkPayments, retrievePaymentLinks, LATEST_TRANSACTIONS, type LinkList } from '../../domain/payment-links/list.ts';
import { fixedTotals, isOpen, isPayable, linkCheckoutUrl, type LinkView } from '../../domain/payment-links/view.ts';
import { conversionOf } from '../../domain/payments/view.ts';
import { formatAmount, formatRate } from '../../domain/money.ts';
import { isUuid } from '../../domain/validation.ts';
import type { LinkPayment, Payment, Prisma } from '../../generated/prisma/client.ts';
import { connectionOf, DateRangeFilter, FILTER_TEXT, listArgs, NEWEST_FIRST, paymentLinkWhere, page } from '../lists.ts';

// The amounts read the items with the `items` field's own arguments: asked for twice with other
// arguments, the relation would be loaded twice.
const ITEMS_IN_ORDER = { orderBy: { position: 'asc' as const } };

const rateText = (r: number | null) => (r === null ? null : formatRate(BigInt(r)));

const LinkItemRecord = builder.prismaObject('PaymentLinkItem', {
  fields: (t) => ({
    reference: t.exposeString('reference', { nullable: true }),
    name: t.exposeString('name'),
    image: t.exposeString('image', { nullable: true }),
    quantity: t.exposeInt('quantity'),
    unitAmount: t.string({ description: 'Unit price including VAT', resolve: (i) => formatAmount(i.unitAmount) }),
    taxRate: t.string({ nullable: true, resolve: (i) => rateText(i.taxRate) }),
  }),
});
void LinkItemRecord;

type LinkTransactionShape = Payment & { linkPayment: LinkPayment };

const BillingAddress = builder.objectRef<LinkPayment>('LinkBillingAddress').implement({
  fields: (t) => ({
    firstname: t.exposeString('payerFirstname', { nullable: true }),
    lastname: t.exposeString('payerLastname', { nullable: true }),
    email: t.exposeString('payerEmail', { nullable: true }),
  }),
});

const LinkCustomer = builder.objectRef<LinkPayment>('LinkCustomer').implement({
  fields: (t) => ({
    reference: t.string({ nullable: true, resolve: () => null }),
    billingAddress: t.field({ type: BillingAddress, resolve: (lp) => lp }),
  }),
});

const TokenRef = builder.objectRef<{ token: string }>('TokenRef').implement({ fields: (t) => ({ token: t.exposeString('token') }) });

/** A payment attempt of a link, as the contract's Transaction object inside payment link records. */
export const LinkTransaction = builder.objectRef<LinkTransactionShape>('LinkTransaction').implement({
  fields: (t) => ({
    token: t.exposeString('id'),
    reference: t.string({ description: 'The link payment reference, LINKPAY<n>', resolve: (p) => p.linkPayment.reference }),
    status: t.string({ description: 'successful, failed, expired (pending while 3D is open)', resolve: (p) => (p.status === 'started' ? 'pending' : p.status) }),
    paymentStatus: t.string({ nullable: true, resolve: (p) => p.paymentStatus }),
    securityType: t.string({ resolve: (p) => p.securityType }),
    amount: t.string({ resolve: (p) => formatAmount(p.amount) }),
    baseAmount: t.string({ resolve: (p) => formatAmount(p.baseAmount) }),
    currency: t.string({ resolve: (p) => p.currency }),
    installmentNumber: t.exposeInt('installmentNumber'),
    isTest: t.exposeBoolean('isTest'),
    errorCode: t.exposeString('errorCode', { nullable: true }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    customer: t.field({ type: LinkCustomer, resolve: (p) => p.linkPayment }),
    conversion: t.field({ type: Conversion, nullable: true, resolve: (p) => conversionOf(p) }),
    order: t.field({ type: TokenRef, nullable: true, resolve: () => null }),
    subscription: t.field({ type: TokenRef, nullable: true, resolve: () => null }),
    paymentLink: t.field({ type: TokenRef, resolve: (p) => ({ token: p.linkPayment.linkId }) }),
    linkPayment: t.field({ type: TokenRef, resolve: (p) => ({ token: p.linkPayment.id }) }),
  }),
});

export const PaymentLinkRecord = builder.prismaObject('PaymentLink', {
  description: 'A link paid repeatedly on its hosted page',
  fields: (t) => ({
    token: t.exposeString('id'),
    reference: t.exposeString('reference'),
    description: t.exposeString('description', { nullable: true }),
    paymentProviderToken: t.exposeString('paymentAccountId', { nullable: true }),
    amountType: t.string({ resolve: (l) => l.amountType }),
    itemName: t.exposeString('itemName', { nullable: true }),
    predefinedAmounts: t.stringList({
      nullable: true,
      resolve: (l) => (l.amountType === 'predefined' || l.amountType === 'predefined_and_custom' ? l.predefinedAmounts.map(formatAmount) : null),
    }),
    taxRate: t.string({ nullable: true, resolve: (l) => (l.amountType === 'fixed' ? null : rateText(l.taxRate)) }),
    taxMode: t.string({ resolve: (l) => l.taxMode }),
    items: t.relation('items', { query: ITEMS_IN_ORDER }),
    subtotal: t.string({ nullable: true, select: { items: ITEMS_IN_ORDER }, resolve: (l) => amountOf(l as LinkView, 'subtotal') }),
    taxAmount: t.string({ nullable: true, select: { items: ITEMS_IN_ORDER }, resolve: (l) => amountOf(l as LinkView, 'taxAmount') }),
    amount: t.string({ nullable: true, select: { items: ITEMS_IN_ORDER }, resolve: (l) => amountOf(l as LinkView, 'amount') }),
    currency: t.string({ resolve: (l) => l.currency }),
    currencyType: t.string({ resolve: (l) => l.currencyType }),
    currencies: t.stringList({ nullable: true, resolve: (l) => (l.currencyType === 'selectable' ? l.currencies : null) }),
    emailsCustomer: t.exposeBoolean('emailsCustomer'),
    isActive: t.boolean({ description: 'Open and its last valid day not over', resolve: (l, _a, ctx) => isOpen(l, ctx.services.clock.now()) }),
    isTest: t.boolean({ description: 'The workspace is in test mode now', select: { workspace: true }, resolve: (l) => l.workspace.mode === 'test' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    checkoutUrl: t.string({
      nullable: true,
      description: 'Only while the link can be paid',
      select: { workspace: true },
      resolve: (l, _a, ctx) => (isPayable(l, l.workspace, ctx.services.clock.now()) ? linkCheckoutUrl(ctx.services.baseUrl, l.id) : null),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    transactionsCount: t.int({
      description: 'Every payment attempt of the link',
      resolve: (l, _a, ctx) => ctx.services.db.payment.count({ where: { linkPayment: { linkId: l.id } } }),
    }),
    transactions: t.field({
      type: [LinkTransaction],
      description: `The latest ${LATEST_TRANSACTIONS} attempts, newest first, rejected ones included`,
      resolve: (l, _a, ctx) =>
        ctx.services.db.payment.findMany({
          where: { linkPayment: { linkId: l.id } },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: LATEST_TRANSACTIONS,
          include: { linkPayment: true },
        }) as Promise<LinkTransactionShape[]>,
    }),
  }),
});

function amountOf(link: LinkView, field: 'subtotal' | 'taxAmount' | 'amount'): string | null {
  const totals = fixedTotals(link);
  return totals ? formatAmount(totals[field]) : null;
}

// ---------------------------------------------------------------- create / update

const LinkItemInput = builder.inputType('PaymentLinkItemInput', {
  fields: (t) => ({ reference: t.string(), name: t.string(), quantity: t.int(), unitAmount: t.field({ type: 'AmountInput' }), taxRate: t.field({ type: 'AmountInput' }) }),
});

const PaymentLinkFieldsInput = builder.inputType('PaymentLinkFieldsInput', {
  fields: (t) => ({
    currency: t.string(),
    amountType: t.string(),
    items: t.field({ type: [LinkItemInput] }),
    itemName: t.string(),
    predefinedAmounts: t.field({ type: ['AmountInput'] }),
    taxRate: t.field({ type: 'AmountInput' }),
    taxMode: t.string(),
    currencyType: t.string(),
    currencies: t.stringList(),
    reference: t.string(),
    description: t.string(),
    paymentProviderToken: t.string(),
    emailsCustomer: t.boolean(),
    expiresAt: t.string(),
    isActive: t.boolean(),
  }),
});
const CreatePaymentLinkInput = builder.inputType('CreatePaymentLinkInput', { fields: (t) => ({ paymentLink: t.field({ type: PaymentLinkFieldsInput }) }) });
const UpdatePaymentLinkInput = builder.inputType('UpdatePaymentLinkInput', {
  fields: (t) => ({ token: t.string({ description: 'The link token (REST: in the path)' }), paymentLink: t.field({ type: PaymentLinkFieldsInput }) }),
});

type LinkShape = { result: ResultShape; errors: UserErrorShape[]; paymentLink?: LinkView };

const PaymentLinkPayload = builder.objectRef<LinkShape>('PaymentLinkPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    paymentLink: t.field({ type: PaymentLinkRecord, nullable: true, resolve: (p) => p.paymentLink ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('createPaymentLink', (t) =>
  t.field({
    type: PaymentLinkPayload,
    description: 'Opens a payment link (contract: create-payment-link)',
    args: { input: t.arg({ type: CreatePaymentLinkInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ paymentLink: await createPaymentLink(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<LinkShape>,
  }),
);

builder.mutationField('updatePaymentLink', (t) =>
  t.field({
    type: PaymentLinkPayload,
    description: 'Changes a link: fields sent replace the stored ones under the create rules',
    args: { input: t.arg({ type: UpdatePaymentLinkInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ paymentLink: await updatePaymentLink(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<LinkShape>,
  }),
);

// ---------------------------------------------------------------- retrieve

const RetrievePaymentLinksInput = builder.inputType('RetrievePaymentLinksInput', {
  fields: (t) => ({ token: t.string(), reference: t.string(), createdFrom: t.string(), createdTo: t.string() }),
});

type ListShape = { result: ResultShape; errors: UserErrorShape[] } & Partial<LinkList>;

const RetrievePaymentLinksPayload = builder.objectRef<ListShape>('RetrievePaymentLinksPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    byDates: t.boolean({ resolve: (p) => p.createdFrom != null }),
    createdFrom: t.string({ nullable: true, resolve: (p) => p.createdFrom ?? null }),
    createdTo: t.string({ nullable: true, resolve: (p) => p.createdTo ?? null }),
    paymentLinks: t.field({ type: [PaymentLinkRecord], resolve: (p) => p.paymentLinks ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.queryField('retrievePaymentLinks', (t) =>
  t.field({
    type: RetrievePaymentLinksPayload,
    description: 'Links by token, by reference, or by a date range of at most 7 days (default: the last 7 days)',
    args: { input: t.arg({ type: RetrievePaymentLinksInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => retrievePaymentLinks(ctx.services, actingWorkspace(ctx), args.input)) as Promise<ListShape>,
  }),
);

const LinkPaymentItem = builder.objectRef<{ name: string; quantity: number; unitAmount: string; taxRate: string | null }>('LinkPaymentItem').implement({
  fields: (t) => ({ name: t.exposeString('name'), quantity: t.exposeInt('quantity'), unitAmount: t.exposeString('unitAmount'), taxRate: t.exposeString('taxRate', { nullable: true }) }),
});

type LinkPaymentShape = LinkPayment & { payment: Payment | null };

const LinkPaymentRecord = builder.objectRef<LinkPaymentShape>('LinkPayment').implement({
  description: 'One payment made through a link: items and amounts as paid, the payer, and its transaction',
  fields: (t) => ({
    token: t.exposeString('id'),
    reference: t.exposeString('reference'),
    paymentLink: t.field({ type: TokenRef, resolve: (lp) => ({ token: lp.linkId }) }),
    status: t.string({ description: 'pending, paid or failed', resolve: (lp) => lp.status }),
    paymentStatus: t.string({ nullable: true, resolve: (lp) => lp.payment?.paymentStatus ?? null }),
    items: t.field({ type: [LinkPaymentItem], resolve: (lp) => lp.items as never }),
    subtotal: t.string({ resolve: (lp) => formatAmount(lp.subtotal) }),
    taxAmount: t.string({ resolve: (lp) => formatAmount(lp.taxAmount) }),
    amount: t.string({ resolve: (lp) => formatAmount(lp.amount) }),
    currency: t.string({ resolve: (lp) => lp.currency }),
    customer: t.field({ type: LinkCustomer, resolve: (lp) => lp }),
    transaction: t.field({ type: TokenRef, nullable: true, resolve: (lp) => (lp.payment ? { token: lp.payment.id } : null) }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const RetrieveLinkPaymentsInput = builder.inputType('RetrieveLinkPaymentsInput', { fields: (t) => ({ token: t.string(), linkPaymentToken: t.string() }) });

type LinkPaymentsShape = { result: ResultShape; errors: UserErrorShape[]; linkPayments?: LinkPaymentShape[] };

const RetrieveLinkPaymentsPayload = builder.objectRef<LinkPaymentsShape>('RetrieveLinkPaymentsPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    linkPayments: t.field({ type: [LinkPaymentRecord], resolve: (p) => p.linkPayments ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.queryField('retrieveLinkPayments', (t) =>
  t.field({
    type: RetrieveLinkPaymentsPayload,
    description: 'The payments of a link (token), or one link payment (linkPaymentToken)',
    args: { input: t.arg({ type: RetrieveLinkPaymentsInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ linkPayments: await retrieveLinkPayments(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<LinkPaymentsShape>,
  }),
);

// ---------------------------------------------------------------- dashboard

builder.queryField('paymentLink', (t) =>
  t.prismaField({
    type: 'PaymentLink',
    nullable: true,
    args: { token: t.arg.string({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return null;
      return ctx.services.db.paymentLink.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);

builder.queryField('linkPayments', (t) =>
  t.field({
    type: [LinkPaymentRecord],
    description: "The payments made through a link, oldest first (empty for another workspace's link or a malformed token)",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return [];
      return ctx.services.db.linkPayment.findMany({
        where: { linkId: args.token, ...(workspaceId ? { workspaceId } : {}) },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        include: { payment: true },
      });
    },
  }),
);

const PaymentLinkFilter = builder.inputType('PaymentLinkFilter', {
  fields: (t) => ({
    isActive: t.boolean({ description: 'Only open links (switched on and the last valid day not over: true) or closed ones (false)' }),
    reference: t.string({ description: FILTER_TEXT.reference }),
    created: t.field({ type: DateRangeFilter, description: FILTER_TEXT.created }),
  }),
});

builder.queryField('paymentLinks', (t) =>
  t.prismaConnection(
    {
      type: 'PaymentLink',
      cursor: 'id',
      nullable: false,
      description: 'Payment links of the workspace, newest first',
      args: listArgs(t.arg, PaymentLinkFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.paymentLink.findMany({ ...page(query), where: paymentLinkWhere(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('PaymentLink'),
  ),
);
