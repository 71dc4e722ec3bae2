// Customers for the dashboard: `customers` (a list with paging) and `customer` (one, with its
// payments, saved cards and subscriptions). Customers are written by payments, orders,
// subscriptions and save-card (src/domain/customers.ts); here they are only read.
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import { connectionOf, FILTER_TEXT, listArgs, listWhere, NEWEST_FIRST, page } from '../lists.ts';
import { SavedCardObject } from './payment-objects.ts';
import { isUuid } from '../../domain/validation.ts';
import type { Prisma } from '../../generated/prisma/client.ts';

/** A customer page shows this many of its newest payments; `paymentCount` says how many there are. */
const CUSTOMER_PAYMENTS = 50;

export const CustomerRecord = builder.prismaObject('Customer', {
  name: 'CustomerRecord',
  description: "A merchant's customer as the requests described it, keyed by channel and channel reference",
  fields: (t) => ({
    token: t.exposeString('id'),
    channelToken: t.exposeString('channelId'),
    channelReference: t.exposeString('channelReference'),
    firstname: t.exposeString('firstname', { nullable: true }),
    lastname: t.exposeString('lastname', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true }),
    address: t.exposeString('address', { nullable: true }),
    district: t.exposeString('district', { nullable: true }),
    province: t.exposeString('province', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    paymentCount: t.relationCount('payments', { description: 'Every payment attempt of the customer, failed ones included' }),
    payments: t.relation('payments', { description: `The newest ${CUSTOMER_PAYMENTS} payments`, query: { orderBy: NEWEST_FIRST, take: CUSTOMER_PAYMENTS } }),
    savedCards: t.field({
      type: [SavedCardObject],
      description: 'Cards stored for the customer: first digits and last four only',
      select: { savedCards: { orderBy: { createdAt: 'asc' } } },
      resolve: (c) => c.savedCards,
    }),
    subscriptions: t.relation('subscriptions', { query: { orderBy: NEWEST_FIRST } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CustomerFilter = builder.inputType('CustomerFilter', {
  fields: (t) => ({
    channelToken: t.string({ description: FILTER_TEXT.channelToken }),
    channelReference: t.string({ description: FILTER_TEXT.channelReference }),
  }),
});

builder.queryField('customers', (t) =>
  t.prismaConnection(
    {
      type: 'Customer',
      cursor: 'id',
      nullable: false,
      description: 'Customers of the workspace, newest first',
      args: listArgs(t.arg, CustomerFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.customer.findMany({ ...page(query), where: listWhere<Prisma.CustomerWhereInput>(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('Customer'),
  ),
);

builder.queryField('customer', (t) =>
  t.prismaField({
    type: 'Customer',
    nullable: true,
    args: { token: t.arg.string({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return null;
      return ctx.services.db.customer.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);
