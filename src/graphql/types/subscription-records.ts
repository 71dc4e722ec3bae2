// Subscriptions (contract: subscription-payment, retrieve-subscription, Subscription object; designed
// in docs/decisions.md: retrieve-subscriptions, cancel-subscription, test clocks); `subscription` and `subscriptions`
// for the dashboard. The record type is named SubscriptionRecord: `Subscription` is GraphQL's
// root type for live updates. Resolvers only call the domain and shape its answer.
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { CustomerInput } from './payments.ts';
import { CustomerRef } from './payment-objects.ts';
import { connectionOf, DateRangeFilter, FILTER_TEXT, listArgs, listWhere, NEWEST_FIRST, page } from '../lists.ts';
import { subscriptionPayment } from '../../domain/subscriptions/create.ts';
import { retrieveSubscription } from '../../domain/subscriptions/retrieve.ts';
import { retrieveSubscriptions, type SubscriptionList } from '../../domain/subscriptions/list.ts';
import { cancelSubscription } from '../../domain/subscriptions/cancel.ts';
import { advanceTestClock, showTestClock, type Advance, type ClockStep, type TestClock } from '../../domain/subscriptions/test-clock.ts';
import { checkoutUrlOf, currentPeriod, type SubscriptionView } from '../../domain/subscriptions/view.ts';
import { formatAmount, formatRate } from '../../domain/money.ts';
import { isUuid } from '../../domain/validation.ts';
import { SubscriptionStatus, type Prisma } from '../../generated/prisma/client.ts';

const CURRENT_PERIOD = { periods: { orderBy: { number: 'desc' as const }, take: 1 } };

builder.prismaObject('SubscriptionItem', {
  name: 'SubscriptionItemRecord',
  fields: (t) => ({
    channelReference: t.string({ description: 'Product identifier', select: { product: true }, resolve: (i) => i.product.channelReference }),
    name: t.string({ description: 'Catalog name', select: { product: true }, resolve: (i) => i.product.name }),
    quantity: t.exposeInt('quantity'),
    unitAmount: t.string({ description: 'Current catalog unit price', select: { product: true }, resolve: (i) => formatAmount(i.product.amount) }),
    taxRate: t.string({ nullable: true, select: { product: true }, resolve: (i) => formatRate(BigInt(i.product.taxRate)) }),
    firstPeriodUnitAmount: t.string({
      nullable: true,
      description: 'unit_amount sent for the first period only',
      resolve: (i) => (i.firstPeriodUnitAmount === null ? null : formatAmount(i.firstPeriodUnitAmount)),
    }),
  }),
});

builder.prismaObject('SubscriptionPeriod', {
  name: 'SubscriptionPeriodRecord',
  fields: (t) => ({
    number: t.exposeInt('number'),
    amount: t.string({ resolve: (p) => formatAmount(p.amount) }),
    status: t.string({ description: 'unpaid, paid, or failed (a renewal that could not be collected)', resolve: (p) => p.status }),
    startsAt: t.expose('startsAt', { type: 'DateTime', nullable: true }),
    endsAt: t.expose('endsAt', { type: 'DateTime', nullable: true }),
    paidAt: t.expose('paidAt', { type: 'DateTime', nullable: true }),
    payments: t.relation('payments', { description: 'Every attempt at the period, oldest first', query: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } }),
  }),
});

export const SubscriptionRecord = builder.prismaObject('Subscription', {
  name: 'SubscriptionRecord',
  description: 'A subscription (contract: Subscription object); the period fields are those of the current period',
  fields: (t) => ({
    token: t.exposeString('id'),
    channelToken: t.exposeString('channelId'),
    channelReference: t.exposeString('channelReference'),
    status: t.string({ description: 'pending, active, past_due, cancelled or completed', resolve: (s) => s.status }),
    period: t.string({ description: 'monthly or yearly', resolve: (s) => s.period }),
    items: t.relation('items', { query: { orderBy: { position: 'asc' } } }),
    amount: t.string({ description: 'Amount of the current period', select: CURRENT_PERIOD, resolve: (s) => formatAmount(currentPeriod(s).amount) }),
    currency: t.exposeString('currency'),
    isTest: t.exposeBoolean('isTest', { nullable: true, description: 'Whether the first payment was made in test mode; null before it' }),
    startsAt: t.field({ type: 'DateTime', nullable: true, select: CURRENT_PERIOD, resolve: (s) => currentPeriod(s).startsAt }),
    endsAt: t.field({ type: 'DateTime', nullable: true, description: 'Period end and time of the next renewal', select: CURRENT_PERIOD, resolve: (s) => currentPeriod(s).endsAt }),
    paidAt: t.field({ type: 'DateTime', nullable: true, select: CURRENT_PERIOD, resolve: (s) => currentPeriod(s).paidAt }),
    cancelledAt: t.expose('cancelledAt', { type: 'DateTime', nullable: true }),
    checkoutUrl: t.string({ nullable: true, description: 'Where the open period is paid; null when none is open or it is cancelled', resolve: (s, _a, ctx) => checkoutUrlOf(ctx.services.baseUrl, s) }),
    customer: t.field({ type: CustomerRef, select: { customer: true }, resolve: (s) => ({ channelReference: s.customer.channelReference }) }),
    renewalLimit: t.exposeInt('renewalLimit', { nullable: true }),
    successUrl: t.exposeString('successUrl'),
    cancelUrl: t.exposeString('cancelUrl', { nullable: true }),
    webhookUrl: t.exposeString('webhookUrl', { nullable: true }),
    paymentProviderToken: t.exposeString('paymentAccountId', { nullable: true }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    periods: t.relation('periods', { description: 'Every period, oldest first', query: { orderBy: { number: 'asc' } } }),
  }),
});

// ---------------------------------------------------------------- inputs

const SubscriptionItemInput = builder.inputType('SubscriptionItemInput', {
  fields: (t) => ({ channelReference: t.string(), quantity: t.int(), unitAmount: t.field({ type: 'AmountInput' }) }),
});

const SubscriptionFieldsInput = builder.inputType('SubscriptionFieldsInput', {
  fields: (t) => ({
    channelToken: t.string(),
    channelReference: t.string(),
    items: t.field({ type: [SubscriptionItemInput] }),
    successUrl: t.string(),
    cancelUrl: t.string(),
    webhookUrl: t.string(),
    paymentProviderToken: t.string(),
    renewalLimit: t.int(),
  }),
});

const SubscriptionPaymentInput = builder.inputType('SubscriptionPaymentInput', {
  fields: (t) => ({ subscription: t.field({ type: SubscriptionFieldsInput }), customer: t.field({ type: CustomerInput }) }),
});

const SubscriptionTokenInput = builder.inputType('SubscriptionTokenInput', { fields: (t) => ({ token: t.string() }) });
const SubscriptionRefInput = builder.inputType('SubscriptionRefInput', { fields: (t) => ({ subscription: t.field({ type: SubscriptionTokenInput }) }) });

// ---------------------------------------------------------------- operations

type OneShape = { result: ResultShape; errors: UserErrorShape[]; subscription?: SubscriptionView };

const SubscriptionPayload = builder.objectRef<OneShape>('SubscriptionPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    subscription: t.field({ type: SubscriptionRecord, nullable: true, resolve: (p) => p.subscription ?? null }),
    customer: t.field({ type: CustomerRef, nullable: true, resolve: (p) => (p.subscription ? { channelReference: p.subscription.customer.channelReference } : null) }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('subscriptionPayment', (t) =>
  t.field({
    type: SubscriptionPayload,
    description: 'Opens a pending subscription paid first on subscription.checkoutUrl (contract: subscription-payment); no card, no charge',
    args: { input: t.arg({ type: SubscriptionPaymentInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ subscription: await subscriptionPayment(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<OneShape>,
  }),
);

builder.queryField('retrieveSubscription', (t) =>
  t.field({
    type: SubscriptionPayload,
    description: 'One subscription by token (contract: retrieve-subscription)',
    args: { input: t.arg({ type: SubscriptionRefInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ subscription: await retrieveSubscription(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<OneShape>,
  }),
);

builder.mutationField('cancelSubscription', (t) =>
  t.field({
    type: SubscriptionPayload,
    description: 'Cancels a subscription: a paid period runs to its end, otherwise it ends at once; no refund',
    args: { input: t.arg({ type: SubscriptionRefInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ subscription: await cancelSubscription(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<OneShape>,
  }),
);

const RetrieveSubscriptionsInput = builder.inputType('RetrieveSubscriptionsInput', {
  fields: (t) => ({ channelReference: t.string(), createdFrom: t.string(), createdTo: t.string() }),
});

type ListShape = { result: ResultShape; errors: UserErrorShape[] } & Partial<SubscriptionList>;

const RetrieveSubscriptionsPayload = builder.objectRef<ListShape>('RetrieveSubscriptionsPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    byDates: t.boolean({ description: 'Whether the list was selected by dates', resolve: (p) => p.createdFrom != null }),
    createdFrom: t.string({ nullable: true, resolve: (p) => p.createdFrom ?? null }),
    createdTo: t.string({ nullable: true, resolve: (p) => p.createdTo ?? null }),
    subscriptions: t.field({ type: [SubscriptionRecord], resolve: (p) => p.subscriptions ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.queryField('retrieveSubscriptions', (t) =>
  t.field({
    type: RetrieveSubscriptionsPayload,
    description: 'Subscriptions by channelReference or by a date range of at most 7 days (default: the last 7 days)',
    args: { input: t.arg({ type: RetrieveSubscriptionsInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => retrieveSubscriptions(ctx.services, actingWorkspace(ctx), args.input)) as Promise<ListShape>,
  }),
);

// ---------------------------------------------------------------- test clock

const TestClockRef = builder.objectRef<TestClock>('TestClock').implement({
  description: "A workspace's clock: the gateway's plus how far its test clock was moved",
  fields: (t) => ({
    now: t.field({ type: 'DateTime', resolve: (c) => c.now }),
    offsetSeconds: t.float({ description: 'How far ahead of the gateway the workspace runs', resolve: (c) => Number(c.offsetMs) / 1000 }),
    mode: t.string({ description: 'test or live; only test-mode workspaces can move their clock', resolve: (c) => c.workspace.mode }),
    timeZone: t.string({ resolve: (c) => c.workspace.timeZone }),
  }),
});

const ClockStepRef = builder.objectRef<ClockStep>('TestClockStep').implement({
  description: 'Something that fell due while the clock moved, and what came of it',
  fields: (t) => ({
    at: t.field({ type: 'DateTime', resolve: (s) => s.at }),
    kind: t.string({ description: 'period_end or payment_expiry', resolve: (s) => s.kind }),
    token: t.string({ description: 'The subscription or payment', resolve: (s) => s.token }),
    outcome: t.string({ description: 'renewed, past_due, ended, completed, expired or skipped', resolve: (s) => s.outcome }),
  }),
});

type AdvanceShape = { result: ResultShape; errors: UserErrorShape[] } & Partial<Advance>;

const AdvanceTestClockPayload = builder.objectRef<AdvanceShape>('AdvanceTestClockPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    from: t.field({ type: 'DateTime', nullable: true, resolve: (p) => p.from ?? null }),
    testClock: t.field({ type: TestClockRef, nullable: true, resolve: (p) => p.clock ?? null }),
    steps: t.field({ type: [ClockStepRef], resolve: (p) => p.steps ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('advanceTestClock', (t) =>
  t.field({
    type: AdvanceTestClockPayload,
    description: "Moves a test-mode workspace's clock forward (e.g. 31d, 12h, 1y); renewals, period ends and 3D expiries due meanwhile run in order",
    args: { duration: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, () => advanceTestClock(ctx.services, actingWorkspace(ctx), { duration: args.duration })) as Promise<AdvanceShape>,
  }),
);

builder.queryField('testClock', (t) =>
  t.field({
    type: TestClockRef,
    description: "The workspace's clock",
    resolve: (_r, _a, ctx) => showTestClock(ctx.services, actingWorkspace(ctx)),
  }),
);

// ---------------------------------------------------------------- dashboard

builder.queryField('subscription', (t) =>
  t.prismaField({
    type: 'Subscription',
    nullable: true,
    args: { token: t.arg.string({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return null;
      return ctx.services.db.subscription.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);

export const SubscriptionStatusEnum = builder.enumType(SubscriptionStatus, {
  name: 'SubscriptionStatus',
  description: 'pending (first period unpaid), active, past_due, cancelled or completed',
});

const SubscriptionFilter = builder.inputType('SubscriptionFilter', {
  fields: (t) => ({
    status: t.field({ type: [SubscriptionStatusEnum], description: FILTER_TEXT.status }),
    channelReference: t.string({ description: FILTER_TEXT.channelReference }),
    created: t.field({ type: DateRangeFilter, description: FILTER_TEXT.created }),
  }),
});

builder.queryField('subscriptions', (t) =>
  t.prismaConnection(
    {
      type: 'Subscription',
      cursor: 'id',
      nullable: false,
      description: 'Subscriptions of the workspace, newest first',
      args: listArgs(t.arg, SubscriptionFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.subscription.findMany({ ...page(query), where: listWhere<Prisma.SubscriptionWhereInput>(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('Subscription'),
  ),
);
