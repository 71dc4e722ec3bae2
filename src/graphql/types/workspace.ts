// Dashboard and support reads of workspaces, channels and payment accounts.
import { describePlan } from '../../domain/installment-plan.ts';
import { builder } from '../builder.ts';
import { capabilityNames } from '../../domain/accounts.ts';
import { readableWorkspaceId } from '../auth.ts';

export const WorkspaceRecord = builder.prismaObject('Workspace', {
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    active: t.exposeBoolean('active'),
    mode: t.exposeString('mode'),
    timeZone: t.exposeString('timeZone'),
    plan: t.field({
      type: WorkspacePlan,
      resolve: (w) => ({
        orders: w.planOrders,
        savedCards: w.planSavedCards,
        subscriptions: w.planSubscriptions,
        paymentLinks: w.planPaymentLinks,
        payByLink: w.payByLinkEnabled,
      }),
    }),
    defaultPaymentAccount: t.relation('defaultPaymentAccount', { nullable: true }),
    channels: t.relation('channels'),
    paymentAccounts: t.relation('paymentAccounts', { query: { where: { deletedAt: null } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

interface PlanShape {
  orders: boolean;
  savedCards: boolean;
  subscriptions: boolean;
  paymentLinks: boolean;
  payByLink: boolean;
}
const WorkspacePlan = builder.objectRef<PlanShape>('WorkspacePlan').implement({
  fields: (t) => ({
    orders: t.exposeBoolean('orders'),
    savedCards: t.exposeBoolean('savedCards'),
    subscriptions: t.exposeBoolean('subscriptions'),
    paymentLinks: t.exposeBoolean('paymentLinks'),
    payByLink: t.exposeBoolean('payByLink'),
  }),
});

export const ChannelRecord = builder.prismaObject('Channel', {
  fields: (t) => ({
    token: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

export const PaymentAccountRecord = builder.prismaObject('PaymentAccount', {
  fields: (t) => ({
    token: t.exposeID('id'),
    name: t.exposeString('name'),
    provider: t.exposeString('provider'),
    mode: t.exposeString('mode'),
    currencies: t.stringList({ resolve: (a) => a.currencies }),
    capabilities: t.stringList({ resolve: (a) => capabilityNames(a) }),
    installmentPlan: t.field({
      type: 'JSON',
      description: 'Installment counts offered with their total surcharge in percent, and the card programs allowed (empty: every count, any card)',
      resolve: (a) => describePlan(a),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.queryField('workspaces', (t) =>
  t.prismaField({
    type: ['Workspace'],
    description: 'The caller’s workspace; every workspace for support staff',
    resolve: (query, _root, _args, ctx) => {
      const id = readableWorkspaceId(ctx);
      return ctx.services.db.workspace.findMany({ ...query, where: id ? { id } : {}, orderBy: { createdAt: 'asc' } });
    },
  }),
);

builder.queryField('workspace', (t) =>
  t.prismaField({
    type: 'Workspace',
    nullable: true,
    description: 'One workspace by slug (support staff: any; others: their own, which is also the default)',
    args: { slug: t.arg.string({ description: 'Required for support staff; another workspace’s slug is not found (null) for others' }) },
    resolve: (query, _root, args, ctx) => {
      const id = readableWorkspaceId(ctx);
      // Isolation: a slug outside the caller's workspace reads as "not found", never as an error.
      if (id) return ctx.services.db.workspace.findFirst({ ...query, where: args.slug ? { id, slug: args.slug } : { id } });
      if (!args.slug) return null;
      return ctx.services.db.workspace.findUnique({ ...query, where: { slug: args.slug } });
    },
  }),
);
