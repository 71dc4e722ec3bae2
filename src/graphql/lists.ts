// What every dashboard list shares. Paging is the Prisma plugin's `prismaConnection` (Relay
// connections, cursor on the row id, relations planned from the selection); this file holds the
// rest: the filter vocabulary (one input or enum per notion, the same key meaning the same
// condition on every list), the one helper turning it into a Prisma `where` within the readable
// workspace, and the one order. A value outside an enum is refused by GraphQL validation, before
// any resolver runs.
import { GraphQLError } from 'graphql';
import type { ArgBuilder, InputObjectRef, SchemaTypes } from '@pothos/core';
import { builder } from './builder.ts';
import { readableWorkspaceId } from './auth.ts';
import type { GraphQLContext } from './context.ts';
import { createdWithin } from '../domain/date-range.ts';
import { isUuid } from '../domain/validation.ts';
import { NotificationStatus, OrderStatus, PaymentMoneyStatus, PaymentStatus } from '../generated/prisma/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { openLinksWhere } from '../domain/payment-links/view.ts';

// ---------------------------------------------------------------- vocabulary

export const PaymentStatusEnum = builder.enumType(PaymentStatus, {
  name: 'PaymentStatus',
  description: 'Where a payment attempt stands: started (3D page not completed), successful, failed, expired, unresolved (no provider answer)',
});

export const PaymentMoneyStatusEnum = builder.enumType(PaymentMoneyStatus, {
  name: 'PaymentMoneyStatus',
  description: 'What happened to the money of a successful payment',
});

export const OrderStatusEnum = builder.enumType(OrderStatus, { name: 'OrderStatus', description: 'open (unpaid) or paid' });

export const NotificationStatusEnum = builder.enumType(NotificationStatus, {
  name: 'NotificationStatus',
  description: 'pending (attempts scheduled), delivered, failed (attempts ended) or dropped (its address was disabled or deleted)',
});

export const DateRangeFilter = builder.inputType('DateRangeFilter', {
  description: 'Instants from `from` (inclusive) to `to` (exclusive); either end may be left open',
  fields: (t) => ({ from: t.field({ type: 'DateTime' }), to: t.field({ type: 'DateTime' }) }),
});

/** Every key a list filter may have; each list's input type offers the ones its rows carry. */
export interface ListFilter {
  status?: readonly string[] | null;
  paymentStatus?: readonly string[] | null;
  channelToken?: string | null;
  channelReference?: string | null;
  recordToken?: string | null;
  isActive?: boolean | null;
  reference?: string | null;
  cardLastFour?: string | null;
  created?: { from?: Date | null; to?: Date | null } | null;
}

export const FILTER_TEXT = {
  status: 'Any of these statuses (omitted or empty: every status)',
  channelToken: 'Rows of this channel (a malformed token matches none)',
  channelReference: 'Exactly this channel reference',
  reference: 'Exactly this reference',
  recordToken: 'Rows of this record: order, payment link, subscription or payment token (a malformed token matches none)',
  created: 'Creation time within this range',
  cardLastFour: 'Paid with a card ending in these four digits (anything else matches none)',
} as const;

// ---------------------------------------------------------------- arguments and where

export interface ListArgs {
  filter?: ListFilter | null;
  workspaceSlug?: string | null;
}

/** The arguments every list takes besides the connection's own first/after/last/before. */
export function listArgs<Types extends SchemaTypes, Filter extends ListFilter>(arg: ArgBuilder<Types>, filter: InputObjectRef<Types, Filter>) {
  return {
    filter: arg({ type: filter }),
    workspaceSlug: arg.string({ description: 'Support staff only: limit to one workspace' }),
  };
}

/** Newest first; the id breaks ties so a cursor names one position. */
export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

const anyOf = (values: readonly string[] | null | undefined) => (values?.length ? { in: [...values] } : undefined);
// Matching nothing, not failing: a token that cannot exist lists no rows, as a query for it would.
const token = (value: string | null | undefined) => (value ? (isUuid(value) ? value : { in: [] }) : undefined);
// The same for last four digits: only four digits can match a stored card (first digits and last four only).
const lastFour = (value: string | null | undefined) => (value ? (/^\d{4}$/.test(value.trim()) ? value.trim() : { in: [] }) : undefined);

/**
 * The Prisma `where` of a list: the caller's readable workspace (support staff: every workspace, or
 * the one named by `workspaceSlug`) and the filter. `Where` is the model's where input; each list's
 * filter type only carries keys of its model.
 */
export function listWhere<Where>(ctx: GraphQLContext, args: ListArgs): Where {
  const workspaceId = readableWorkspaceId(ctx);
  const f = args.filter ?? {};
  const conditions: Record<string, unknown> = {
    ...(workspaceId ? { workspaceId } : args.workspaceSlug ? { workspace: { slug: args.workspaceSlug } } : {}),
    status: anyOf(f.status),
    paymentStatus: anyOf(f.paymentStatus),
    channelId: token(f.channelToken),
    channelReference: f.channelReference || undefined,
    recordToken: token(f.recordToken),
    isActive: f.isActive ?? undefined,
    reference: f.reference || undefined,
    cardLastFourDigits: lastFour(f.cardLastFour),
    ...(f.created ? createdWithin({ start: f.created.from, end: f.created.to }) : {}),
  };
  return Object.fromEntries(Object.entries(conditions).filter(([, v]) => v !== undefined)) as Where;
}

/**
 * A payment links list's `where`: `isActive` means open, as the link's `is_active` does (switched
 * on and its last day not over), not the stored switch alone.
 */
export function paymentLinkWhere(ctx: GraphQLContext, args: ListArgs): Prisma.PaymentLinkWhereInput {
  const { isActive, ...filter } = args.filter ?? {};
  const where = listWhere<Prisma.PaymentLinkWhereInput>(ctx, { ...args, filter });
  return isActive === undefined || isActive === null ? where : { AND: [where, openLinksWhere(isActive, ctx.services.clock.now())] };
}

/**
 * The plugin's page query (take, skip, cursor, planned relations), refused when its cursor names no
 * row id: the plugin decodes any well-formed cursor, and a non-UUID would reach PostgreSQL.
 */
export function page<Query extends { cursor?: unknown }>(query: Query): Query {
  const id = (query.cursor as { id?: unknown } | undefined)?.id;
  if (query.cursor !== undefined && (typeof id !== 'string' || !isUuid(id))) {
    throw new GraphQLError('Invalid cursor', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return query;
}

/** Type names of a list's connection and edge: `PaymentConnection`, `PaymentEdge`. */
export const connectionOf = (name: string) => [{ name: `${name}Connection` }, { name: `${name}Edge` }] as const;
