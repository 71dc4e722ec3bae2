// Orders (contract: order-payment, Order, order.* events) and retrieve-orders; `order` and `orders`
// for the dashboard. Resolvers only call the domain and shape its answer.
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { CustomerInput } from './payments.ts';
import { CustomerRef } from './payment-objects.ts';
import { PaymentRecord } from './payment-records.ts';
import { connectionOf, DateRangeFilter, FILTER_TEXT, listArgs, listWhere, NEWEST_FIRST, OrderStatusEnum, page } from '../lists.ts';
import { orderPayment } from '../../domain/orders/create.ts';
import { retrieveOrders, type OrderList } from '../../domain/orders/list.ts';
import { checkoutUrlOf, orderInclude, orderTotals, paidWith, type OrderView } from '../../domain/orders/view.ts';
import { formatAmount, formatRate } from '../../domain/money.ts';
import { isUuid } from '../../domain/validation.ts';
import type { Prisma } from '../../generated/prisma/client.ts';


const OrderItemRecord = builder.prismaObject('OrderItem', {
  description: 'An item as sold: a copy taken when the order was opened',
  fields: (t) => ({
    channelReference: t.exposeString('channelReference'),
    name: t.exposeString('name'),
    quantity: t.exposeInt('quantity'),
    unitAmount: t.string({ description: 'Unit price including VAT', resolve: (i) => formatAmount(i.unitAmount) }),
    taxRate: t.string({ nullable: true, resolve: (i) => (i.taxRate === null ? null : formatRate(BigInt(i.taxRate))) }),
  }),
});

export const OrderRecord = builder.prismaObject('Order', {
  description: 'An order paid on the hosted checkout page',
  fields: (t) => ({
    token: t.exposeString('id'),
    channelToken: t.exposeString('channelId'),
    channelReference: t.exposeString('channelReference'),
    status: t.expose('status', { type: OrderStatusEnum }),
    amount: t.string({ description: 'Sum of unit_amount x quantity of the items', resolve: (o) => formatAmount(o.amount) }),
    // Relations are selected with the arguments of the `items` and `payments` fields (the domain's
    // orderInclude): a relation asked for twice with other arguments would be loaded twice.
    subtotal: t.string({
      description: 'Amount excluding VAT',
      select: { items: orderInclude.items },
      resolve: (o) => formatAmount(orderTotals(o.items).subtotal),
    }),
    taxAmount: t.string({
      description: 'VAT contained in the amount',
      select: { items: orderInclude.items },
      resolve: (o) => formatAmount(orderTotals(o.items).taxAmount),
    }),
    currency: t.exposeString('currency'),
    description: t.exposeString('description', { nullable: true }),
    successUrl: t.exposeString('successUrl'),
    cancelUrl: t.exposeString('cancelUrl', { nullable: true }),
    paymentProviderToken: t.exposeString('paymentAccountId', { nullable: true }),
    checkoutUrl: t.string({ resolve: (o, _a, ctx) => checkoutUrlOf(ctx.services.baseUrl, o.id) }),
    customer: t.field({ type: CustomerRef, select: { customer: true }, resolve: (o) => ({ channelReference: o.customer.channelReference }) }),
    items: t.relation('items', { query: orderInclude.items }),
    transaction: t.field({
      type: PaymentRecord,
      nullable: true,
      description: 'The payment that paid the order (also after a refund or cancel); null while open',
      // The payment's own fields are planned into the same query (nestedSelection), not fetched again.
      select: (_args, _ctx, nestedSelection) => ({ payments: nestedSelection(orderInclude.payments) }),
      resolve: (o) => paidWith(o.payments),
    }),
    payments: t.relation('payments', { description: 'Every payment attempt, oldest first', query: orderInclude.payments }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
void OrderItemRecord;

// ---------------------------------------------------------------- order-payment

const OrderItemInput = builder.inputType('OrderItemInput', {
  fields: (t) => ({
    channelReference: t.string(),
    name: t.string(),
    quantity: t.int(),
    unitAmount: t.field({ type: 'AmountInput' }),
    taxRate: t.field({ type: 'AmountInput' }),
  }),
});

const OrderFieldsInput = builder.inputType('OrderFieldsInput', {
  fields: (t) => ({
    channelToken: t.string(),
    channelReference: t.string(),
    successUrl: t.string(),
    cancelUrl: t.string(),
    items: t.field({ type: [OrderItemInput] }),
    description: t.string(),
    currency: t.string(),
    paymentProviderToken: t.string(),
  }),
});

const OrderPaymentInput = builder.inputType('OrderPaymentInput', {
  fields: (t) => ({ order: t.field({ type: OrderFieldsInput }), customer: t.field({ type: CustomerInput }) }),
});

type OrderShape = { result: ResultShape; errors: UserErrorShape[]; order?: OrderView };

const OrderPaymentPayload = builder.objectRef<OrderShape>('OrderPaymentPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    order: t.field({ type: OrderRecord, nullable: true, resolve: (p) => p.order ?? null }),
    customer: t.field({ type: CustomerRef, nullable: true, resolve: (p) => (p.order ? { channelReference: p.order.customer.channelReference } : null) }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('orderPayment', (t) =>
  t.field({
    type: OrderPaymentPayload,
    description: 'Opens an order paid on order.checkoutUrl (contract: order-payment); no card, no charge',
    args: { input: t.arg({ type: OrderPaymentInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ order: await orderPayment(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<OrderShape>,
  }),
);

// ---------------------------------------------------------------- retrieve-orders

const RetrieveOrdersInput = builder.inputType('RetrieveOrdersInput', {
  fields: (t) => ({ token: t.string(), channelReference: t.string(), createdFrom: t.string(), createdTo: t.string() }),
});

type ListShape = { result: ResultShape; errors: UserErrorShape[] } & Partial<OrderList>;

const RetrieveOrdersPayload = builder.objectRef<ListShape>('RetrieveOrdersPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    byDates: t.boolean({ description: 'Whether the list was selected by dates', resolve: (p) => p.createdFrom != null }),
    createdFrom: t.string({ nullable: true, resolve: (p) => p.createdFrom ?? null }),
    createdTo: t.string({ nullable: true, resolve: (p) => p.createdTo ?? null }),
    orders: t.field({ type: [OrderRecord], resolve: (p) => p.orders ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.queryField('retrieveOrders', (t) =>
  t.field({
    type: RetrieveOrdersPayload,
    description: 'Orders by token, by channelReference, or by a date range of at most 7 days (default: the last 7 days)',
    args: { input: t.arg({ type: RetrieveOrdersInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => retrieveOrders(ctx.services, actingWorkspace(ctx), args.input)) as Promise<ListShape>,
  }),
);

// ---------------------------------------------------------------- dashboard

builder.queryField('order', (t) =>
  t.prismaField({
    type: 'Order',
    nullable: true,
    args: { token: t.arg.string({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return null;
      return ctx.services.db.order.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);

const OrderFilter = builder.inputType('OrderFilter', {
  fields: (t) => ({
    status: t.field({ type: [OrderStatusEnum], description: FILTER_TEXT.status }),
    channelReference: t.string({ description: FILTER_TEXT.channelReference }),
    created: t.field({ type: DateRangeFilter, description: FILTER_TEXT.created }),
  }),
});

builder.queryField('orders', (t) =>
  t.prismaConnection(
    {
      type: 'Order',
      cursor: 'id',
      nullable: false,
      description: 'Orders of the workspace, newest first',
      args: listArgs(t.arg, OrderFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.order.findMany({ ...page(query), where: listWhere<Prisma.OrderWhereInput>(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('Order'),
  ),
);
