// `search(q)`: the dashboard's search box (src/domain/search.ts), results grouped by kind.
import { GraphQLError } from 'graphql';
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import type { GraphQLContext } from '../context.ts';
import { PaymentRecord } from './payment-records.ts';
import { OrderRecord } from './orders.ts';
import { SubscriptionRecord } from './subscription-records.ts';
import { PaymentLinkRecord } from './payment-links.ts';
import { CustomerRecord } from './customers.ts';
import { search, SEARCH_LIMIT, SEARCH_MAX_LENGTH, type SearchHits } from '../../domain/search.ts';

const SearchResults = builder.objectRef<SearchHits>('SearchResults').implement({
  description: `At most ${SEARCH_LIMIT} records of each kind, newest first`,
  fields: (t) => ({
    payments: t.field({ type: [PaymentRecord], resolve: (h) => h.payments }),
    orders: t.field({ type: [OrderRecord], resolve: (h) => h.orders }),
    subscriptions: t.field({ type: [SubscriptionRecord], resolve: (h) => h.subscriptions }),
    paymentLinks: t.field({ type: [PaymentLinkRecord], resolve: (h) => h.paymentLinks }),
    customers: t.field({ type: [CustomerRecord], resolve: (h) => h.customers }),
  }),
});

const NOTHING: SearchHits = { payments: [], orders: [], subscriptions: [], paymentLinks: [], customers: [] };

builder.queryField('search', (t) =>
  t.field({
    type: SearchResults,
    description:
      'Records whose token, channel reference (payment link: reference), customer name or e-mail (any part, any case, 3 characters or more), card last four digits or amount ("100", "100.50") is the text',
    args: {
      q: t.arg.string({ required: true }),
      workspaceSlug: t.arg.string({ description: 'Support staff only: search this workspace (else every workspace)' }),
    },
    resolve: async (_r, args, ctx) => {
      if (args.q.length > SEARCH_MAX_LENGTH) throw tooLong(ctx);
      const workspaceId = await searchedWorkspace(ctx, args.workspaceSlug);
      if (workspaceId === undefined) return NOTHING;
      return search(ctx.services.db, workspaceId, args.q);
    },
  }),
);

/** The caller's workspace; for support, the named one (undefined: no such workspace) or all (null). */
async function searchedWorkspace(ctx: GraphQLContext, slug: string | null | undefined): Promise<string | null | undefined> {
  const own = readableWorkspaceId(ctx);
  if (own || !slug) return own;
  const workspace = await ctx.services.db.workspace.findUnique({ where: { slug }, select: { id: true } });
  return workspace?.id;
}

function tooLong(ctx: GraphQLContext): GraphQLError {
  const text = ctx.lang === 'en' ? `q: at most ${SEARCH_MAX_LENGTH} characters` : `q: en fazla ${SEARCH_MAX_LENGTH} karakter`;
  return new GraphQLError(text, { extensions: { code: 'BAD_USER_INPUT', field: 'q', http: { status: 400 } } });
}
