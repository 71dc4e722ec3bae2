// The catalog (contract: save-product, Product). Resolvers only call the domain and shape its answer.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { connectionOf, DateRangeFilter, FILTER_TEXT, listArgs, listWhere, NEWEST_FIRST, page } from '../lists.ts';
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
    description: 'Creates or replaces a catalog product (contract: save-product); there is no delete, send isActive false',
    args: { input: t.arg({ type: SaveProductInput, required: true }) },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ product: await saveProduct(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<SaveShape>,
  }),
);

const ProductFilter = builder.inputType('ProductFilter', {
  fields: (t) => ({
    channelToken: t.string({ description: FILTER_TEXT.channelToken }),
    channelReference: t.string({ description: FILTER_TEXT.channelReference }),
    isActive: t.boolean({ description: 'Only products on sale (true) or off sale (false)' }),
    created: t.field({ type: DateRangeFilter, description: FILTER_TEXT.created }),
  }),
});

builder.queryField('products', (t) =>
  t.prismaConnection(
    {
      type: 'Product',
      cursor: 'id',
      nullable: false,
      description: 'Catalog products of the workspace, newest first',
      args: listArgs(t.arg, ProductFilter),
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.product.findMany({ ...page(query), where: listWhere<Prisma.ProductWhereInput>(ctx, args), orderBy: NEWEST_FIRST }),
    },
    ...connectionOf('Product'),
  ),
);
