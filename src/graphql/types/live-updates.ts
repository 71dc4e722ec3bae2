// Live updates for the dashboard: GraphQL subscription fields over graphql-ws (/graphql) and Yoga's
// SSE. Named apart from the contract's subscription resource (recurring payments), which has its own
// file. A subscriber sees only its own workspace's events (support staff: every workspace's).
import { GraphQLError } from 'graphql';
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import type { GraphQLContext } from '../context.ts';
import type { EventSignal } from '../../domain/events.ts';

const LiveEvent = builder.objectRef<EventSignal>('LiveEvent').implement({
  description: 'A committed domain event (the same kinds webhooks carry)',
  fields: (t) => ({
    id: t.exposeString('id'),
    kind: t.exposeString('kind'),
    recordToken: t.exposeString('recordToken'),
    transactionToken: t.exposeString('transactionToken', { nullable: true }),
  }),
});

builder.subscriptionType({});

function stream(ctx: GraphQLContext, matches: (s: EventSignal) => boolean): AsyncIterable<EventSignal> {
  const workspaceId = readableWorkspaceId(ctx);
  if (!ctx.live) throw new GraphQLError('Subscriptions are not available on this transport');
  return ctx.live.stream((s) => (workspaceId === null || s.workspaceId === workspaceId) && matches(s));
}

const touches = (token: string) => (s: EventSignal) => s.recordToken === token || s.transactionToken === token;

// Each record field answers with the record itself, read when an event about it commits. The
// stream already keeps to the subscriber's workspace; the read names the record by its token.
builder.subscriptionField('paymentUpdated', (t) =>
  t.prismaField({
    type: 'Payment',
    nullable: true,
    description: 'The payment, each time an event about it is committed',
    args: { token: t.arg.string({ required: true }) },
    subscribe: (_root, args, ctx) => stream(ctx, touches(args.token)),
    resolve: (query, _signal, args, ctx) => ctx.services.db.payment.findFirst({ ...query, where: { id: args.token } }),
  }),
);

builder.subscriptionField('orderUpdated', (t) =>
  t.prismaField({
    type: 'Order',
    nullable: true,
    description: 'The order, each time an event about it is committed (paid, a refund or cancel of its payment)',
    args: { token: t.arg.string({ required: true }) },
    subscribe: (_root, args, ctx) => stream(ctx, (s) => s.recordToken === args.token),
    resolve: (query, _signal, args, ctx) => ctx.services.db.order.findFirst({ ...query, where: { id: args.token } }),
  }),
);

builder.subscriptionField('subscriptionUpdated', (t) =>
  t.prismaField({
    type: 'Subscription',
    nullable: true,
    description: 'The subscription, each time an event about it is committed (active, past_due, cancelled, ended, completed, refunds)',
    args: { token: t.arg.string({ required: true }) },
    subscribe: (_root, args, ctx) => stream(ctx, (s) => s.recordToken === args.token),
    resolve: (query, _signal, args, ctx) => ctx.services.db.subscription.findFirst({ ...query, where: { id: args.token } }),
  }),
);

builder.subscriptionField('paymentLinkUpdated', (t) =>
  t.prismaField({
    type: 'PaymentLink',
    nullable: true,
    description: 'The payment link, each time an event about it is committed (a payment, a refund or cancel)',
    args: { token: t.arg.string({ required: true }) },
    subscribe: (_root, args, ctx) => stream(ctx, (s) => s.recordToken === args.token),
    resolve: (query, _signal, args, ctx) => ctx.services.db.paymentLink.findFirst({ ...query, where: { id: args.token } }),
  }),
);

builder.subscriptionField('events', (t) =>
  t.field({
    type: LiveEvent,
    description: 'Every event of the workspace, or only the given kinds',
    args: { kinds: t.arg.stringList() },
    subscribe: (_root, args, ctx) => stream(ctx, (s) => !args.kinds?.length || args.kinds.includes(s.kind)),
    resolve: (signal) => signal as EventSignal,
  }),
);
