// The catalog (spec: save-product, Product). Resolvers only call the domain and shape its answer.
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { PageInfo } from './payment-records.ts';
import { saveProduct } from '../../domain/products.ts';
import { formatAmount, formatRate } from '../../domain/money.ts';
import type { Product, Prisma } from '../../generated/prisma/client.ts';

export const ProductRecord = builder.prismaObject('Product', {
  description: 'A catalog product of a channel, unique by (channelToken, channelReference)',
  fields: (t) => ({
    channelToken: t.exposeString('channelId'),
    channelReference: t.exposeString('channelReference'),
    name: t.exposeString('name'),
    type: t.string({ description: 'simple or recurring', resolve: (p) => p.type }),
    amount: t.string({ description: 'Unit price including VAT', resolve: (p) => formatAmount(p.amount) }),
    currency: t.exposeString('currency'),
    taxRate: t.string({ description: 'VAT rate contained in the price', resolve: (p) => formatRate(BigInt(p.taxRate)) }),
    period: t.string({ nullable: true, description: 'monthly or yearly for recurring products; null for simple', resolve: (p) => p.period }),
    isActive: t.exposeBoolean('isActive'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

// Every field optional here: the domain reports a missing one with its path and message.
const ProductFields = builder.inputType('ProductFieldsInput', {
  fields: (t) => ({
    channelToken: t.string(),
    channelReference: t.string(),
    name: t.string(),
    type: t.string(),
    amount: t.field({ type: 'AmountInput' }),
    taxRate: t.field({ type: 'AmountInput' }),
    period: t.string(),
    currency: t.string(),
    isActive: t.boolean(),
  }),
});

const SaveProductInput = builder.inputType('SaveProductInput', { fields: (t) => ({ product: t.field({ type: ProductFields }) }) });

type SaveShape = { result: ResultShape; errors: UserErrorShape[]; product?: Product };

const SaveProductPayload = builder.objectRef<SaveShape>('SaveProductPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    product: t.field({ type: ProductRecord, nullable: true, resolve: (p) => p.product ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('saveProduct', (t) =>
  t.field({
    type: SaveProductPayload,
    description: 'Creates or replaces a catalog product (spec: save-product); there is no delete, send isActive false',
    args: { input: t.arg({ type: SaveProductInput, required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ product: await saveProduct(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<SaveShape>,
  }),
);

const ProductPage = builder.objectRef<{ nodes: Product[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>('ProductPage').implement({
  fields: (t) => ({
    nodes: t.field({ type: [ProductRecord], resolve: (p) => p.nodes }),
    pageInfo: t.field({ type: PageInfo, resolve: (p) => p.pageInfo }),
  }),
});

builder.queryField('products', (t) =>
  t.field({
    type: ProductPage,
    description: 'Catalog products, newest first; pass pageInfo.endCursor as `after` for the next page',
    args: {
      first: t.arg.int({ defaultValue: 50 }),
      after: t.arg.string(),
      channelToken: t.arg.string(),
      channelReference: t.arg.string(),
      isActive: t.arg.boolean(),
      workspaceSlug: t.arg.string({ description: 'Support staff only: limit to one workspace' }),
    },
    resolve: async (_r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      const take = Math.min(Math.max(args.first ?? 50, 1), 200);
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
      if ((args.channelToken && !uuid.test(args.channelToken)) || (args.after && !uuid.test(args.after))) {
        return { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };
      }
      const where: Prisma.ProductWhereInput = {
        ...(workspaceId ? { workspaceId } : args.workspaceSlug ? { workspace: { slug: args.workspaceSlug } } : {}),
        ...(args.channelToken ? { channelId: args.channelToken } : {}),
        ...(args.channelReference ? { channelReference: args.channelReference } : {}),
        ...(args.isActive != null ? { isActive: args.isActive } : {}),
      };
      const rows = await ctx.services.db.product.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: take + 1,
        ...(args.after ? { cursor: { id: args.after }, skip: 1 } : {}),
      });
      const nodes = rows.slice(0, take);
      return { nodes, pageInfo: { hasNextPage: rows.length > take, endCursor: nodes.at(-1)?.id ?? null } };
    },
  }),
);
