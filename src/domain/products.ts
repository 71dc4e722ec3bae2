// save-product: the channel's catalog. A product is unique by (channel, channel_reference); saving
// it again replaces its definition. There is no delete: `is_active: false` takes it off sale.
import { z } from 'zod';
import type { Product, Workspace } from '../generated/prisma/client.ts';
import type { Services } from './services.ts';
import type { Tx } from '../db/client.ts';
import { amount, currency, parseInput, rate, text, uuid } from './validation.ts';
import { requireActive } from './plans.ts';
import { requireChannel } from './channels.ts';
import { IssueList } from './errors.ts';

/** 99 999 999 999.99: far above any real price, and item totals stay inside PostgreSQL's BIGINT. */
export const MAX_UNIT_AMOUNT = 9_999_999_999_999n;
export const MAX_QUANTITY = 999_999;

/** How an order or subscription item names a catalog product: its channel_reference. */
export const productReference = () => z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' });

/** How many of a product an item holds: 1 when not sent. */
export const itemQuantity = () =>
  z
    .number({ error: 'invalid_integer' })
    .int({ error: 'invalid_integer' })
    .min(1, { error: 'quantity_range' })
    .max(MAX_QUANTITY, { error: 'quantity_range' })
    .nullish()
    .transform((q) => q ?? 1);

export const PRODUCT_TYPES = ['simple', 'recurring'] as const;
export const PERIODS = ['monthly', 'yearly'] as const;

// Strict: the contract makes any other key inside `product` a 422 (the REST route is strict too).
export const saveProductInput = z.object({
  product: z.strictObject(
    {
      channelToken: uuid(),
      channelReference: z.string({ error: 'invalid_type' }).min(1, { error: 'required' }).max(255, { error: 'too_long' }),
      name: text().min(1, { error: 'required' }),
      // A string then a check (not z.enum) so a missing type reads "required", a wrong one its own text.
      type: z.string({ error: 'invalid_type' }).refine((v) => (PRODUCT_TYPES as readonly string[]).includes(v), { error: 'product_type_invalid' }),
      amount: amount(),
      taxRate: rate(),
      // Checked below: required and monthly/yearly only for recurring; ignored for simple.
      period: z.unknown().optional(),
      currency: currency().nullish().transform((c) => c ?? 'TRY'),
      isActive: z.boolean({ error: 'invalid_boolean' }).nullish().transform((v) => v ?? true),
    },
    { error: 'required' },
  ),
});

export type SaveProductInput = z.output<typeof saveProductInput>['product'];

export function parseSaveProductInput(raw: unknown): SaveProductInput & { period: 'monthly' | 'yearly' | null; type: 'simple' | 'recurring' } {
  const { product } = parseInput(saveProductInput, raw);
  const issues = new IssueList();
  const base = ['product'];
  if (product.amount < 1n) issues.add([...base, 'amount'], 'product_amount_min');
  if (product.amount > MAX_UNIT_AMOUNT) issues.add([...base, 'amount'], 'amount_too_large');
  const type = product.type as 'simple' | 'recurring';
  let period: 'monthly' | 'yearly' | null = null;
  if (type === 'recurring') {
    if (product.period === undefined || product.period === null || product.period === '') issues.add([...base, 'period'], 'product_period_required');
    else if (typeof product.period !== 'string' || !(PERIODS as readonly string[]).includes(product.period)) issues.add([...base, 'period'], 'product_period_invalid');
    else period = product.period as 'monthly' | 'yearly';
  }
  issues.throwIfAny();
  return { ...product, type, period };
}

/** Creates the product or, when (channel, channel_reference) exists, replaces its fields. */
export async function saveProduct(s: Services, workspace: Workspace, raw: unknown): Promise<Product> {
  requireActive(workspace);
  const input = parseSaveProductInput(raw);
  const channel = await requireChannel(s.db, workspace.id, input.channelToken, ['product', 'channelToken']);
  const data = {
    name: input.name,
    type: input.type,
    amount: input.amount,
    currency: input.currency,
    taxRate: Number(input.taxRate),
    period: input.period,
    isActive: input.isActive,
  };
  const key = { channelId_channelReference: { channelId: channel.id, channelReference: input.channelReference } };
  // Stamped by the gateway's clock (a test clock moves it), not the database's.
  const now = s.clock.now();
  const upsert = () =>
    s.db.product.upsert({
      where: key,
      create: { workspaceId: workspace.id, channelId: channel.id, channelReference: input.channelReference, ...data, createdAt: now, updatedAt: now },
      update: { ...data, updatedAt: now },
    });
  try {
    return await upsert();
  } catch (err) {
    // Two first saves of one reference at once: the loser's insert hits the unique key; the row
    // exists now, so the retry updates it.
    if ((err as { code?: string }).code !== 'P2002') throw err;
    return upsert();
  }
}

/** Catalog products of a channel by reference (orders fill empty item fields from them). */
export async function catalogByReference(db: Tx, channelId: string, references: string[]): Promise<Map<string, Product>> {
  if (references.length === 0) return new Map();
  const rows = await db.product.findMany({ where: { channelId, channelReference: { in: [...new Set(references)] } } });
  return new Map(rows.map((p) => [p.channelReference, p]));
}
