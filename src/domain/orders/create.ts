// order-payment: opens an order paid later on the hosted checkout page. No card, no charge. Items
// are copied into the order as sold (catalog products fill the fields an item leaves empty), so
// later catalog changes never change an open order and item values never change the catalog.
import { z } from 'zod';
import type { Product, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Currency } from '../money.ts';
import { amount, currency, httpUrl, orderNumberReference, parseInput, rate, text, uuid } from '../validation.ts';
import { customerInput, upsertCustomer } from '../customers.ts';
import { requireFeature } from '../plans.ts';
import { requireChannel } from '../channels.ts';
import { checkAccountForLater } from '../routing/choice.ts';
import { MAX_CARD_PAYMENT } from '../payments/attempt.ts';
import { IssueList, ValidationError, type Path } from '../errors.ts';
import { catalogByReference, itemQuantity, MAX_UNIT_AMOUNT, productReference } from '../products.ts';
import { loadOrderView, orderTotals, type OrderView } from './view.ts';

const itemInput = z.object(
  {
    channelReference: productReference(),
    name: text().min(1, { error: 'required' }).nullish(),
    quantity: itemQuantity(),
    unitAmount: amount().nullish(),
    taxRate: rate().nullish(),
  },
  { error: 'invalid_type' },
);

export const orderPaymentInput = z.object({
  order: z.object(
    {
      channelToken: uuid(),
      channelReference: orderNumberReference(),
      successUrl: httpUrl(),
      cancelUrl: httpUrl().nullish(),
      items: z.array(itemInput, { error: 'invalid_type' }).min(1, { error: 'order_items_required' }),
      description: text().nullish(),
      currency: currency().nullish().transform((c) => c ?? 'TRY'),
      paymentProviderToken: uuid().nullish(),
    },
    { error: 'required' },
  ),
  customer: customerInput(),
});

export type OrderPaymentInput = z.output<typeof orderPaymentInput>;
type ItemInput = OrderPaymentInput['order']['items'][number];

export interface ResolvedItem {
  position: number;
  channelReference: string;
  name: string;
  quantity: number;
  unitAmount: bigint;
  taxRate: number | null;
}

export async function orderPayment(s: Services, workspace: Workspace, raw: unknown): Promise<OrderView> {
  requireFeature(workspace, 'orders');
  const input = parseInput(orderPaymentInput, raw);
  const o = input.order;
  const channel = await requireChannel(s.db, workspace.id, o.channelToken, ['order', 'channelToken']);
  const catalog = await catalogByReference(s.db, channel.id, o.items.map((i) => i.channelReference));
  const items = resolveItems(o.items, catalog, o.currency);
  const totals = orderTotals(items);
  // The order is paid by card: a total no card payment may take would open an unpayable order.
  if (totals.amount > MAX_CARD_PAYMENT) throw ValidationError.single(['order', 'items'], 'amount_too_large');
  // Selection happens at payment time; the account given (or the default) must take 3D.
  const account = await checkAccountForLater(s, workspace, {
    token: o.paymentProviderToken ?? null,
    path: ['order', 'paymentProviderToken'],
    needs: ['secure'],
    currency: o.currency,
    amount: totals.amount,
    currencyPath: ['order', 'currency'],
  });

  const order = await s.db.$transaction(async (tx) => {
    const customer = await upsertCustomer(tx, workspace.id, channel.id, input.customer, s.clock.now());
    return tx.order.create({
      data: {
        workspaceId: workspace.id,
        channelId: channel.id,
        customerId: customer.id,
        paymentAccountId: account?.id ?? null,
        channelReference: o.channelReference,
        status: 'open',
        amount: totals.amount,
        currency: o.currency,
        description: o.description ?? null,
        successUrl: o.successUrl,
        cancelUrl: o.cancelUrl ?? null,
        createdAt: s.clock.now(),
        items: { create: items },
      },
    });
  });
  return loadOrderView(s.db, order.id);
}

/**
 * Each item as it will be sold: fields sent win, empty ones come from the channel's catalog.
 * An item outside the catalog needs its own name and unit_amount (contract: Errors, order-payment).
 */
export function resolveItems(items: ItemInput[], catalog: Map<string, Product>, orderCurrency: Currency): ResolvedItem[] {
  const issues = new IssueList();
  const resolved: ResolvedItem[] = [];
  items.forEach((item, i) => {
    const path: Path = ['order', 'items', i];
    const product = catalog.get(item.channelReference);
    let unitAmount = item.unitAmount ?? null;
    if (unitAmount === null && product) {
      // A catalog price is a number in the product's currency; it is never reread in another one.
      if (product.currency !== orderCurrency) issues.add([...path, 'channelReference'], 'order_item_currency_mismatch');
      else unitAmount = product.amount;
    }
    const name = item.name ?? product?.name ?? null;
    if (!product && (name === null || unitAmount === null)) {
      issues.add([...path, 'channelReference'], 'order_item_not_in_catalog');
      return;
    }
    if (unitAmount === null || name === null) return;
    if (unitAmount <= 0n) issues.add([...path, 'unitAmount'], 'amount_positive');
    else if (unitAmount > MAX_UNIT_AMOUNT) issues.add([...path, 'unitAmount'], 'amount_too_large');
    const taxRate = item.taxRate ?? (product ? BigInt(product.taxRate) : null);
    resolved.push({
      position: i,
      channelReference: item.channelReference,
      name,
      quantity: item.quantity,
      unitAmount,
      taxRate: taxRate === null ? null : Number(taxRate),
    });
  });
  issues.throwIfAny();
  return resolved;
}
