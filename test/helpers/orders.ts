// Request builders for catalog and order tests, and row counts for "a rejected request writes nothing".
import type { Merchant, TestGateway } from './gateway.ts';
import { msg } from './messages.ts';

type Body = Record<string, unknown>;

export function productBody(m: Merchant, over: Body = {}): Body {
  return {
    product: {
      channel_token: m.channelToken,
      channel_reference: 'SKU-1',
      name: 'Kahve Makinesi',
      type: 'simple',
      amount: '1500.00',
      tax_rate: '20',
      ...over,
    },
  };
}

export function orderBody(m: Merchant, over: { order?: Body; items?: Body[]; customer?: Body } = {}): Body {
  return {
    order: {
      channel_token: m.channelToken,
      channel_reference: 'ORD-1001',
      success_url: 'http://127.0.0.1:9/success',
      cancel_url: 'http://127.0.0.1:9/cancel',
      description: 'Sipariş 1001',
      items: over.items ?? [{ channel_reference: 'ITEM-1', name: 'Kitap', quantity: 2, unit_amount: '50.00', tax_rate: 10 }],
      ...over.order,
    },
    customer: { channel_reference: 'CUST-1', firstname: 'Ayşe', lastname: 'Yılmaz', email: 'ayse@example.com', ...over.customer },
  };
}

export interface OrderRowCounts {
  products: number;
  orders: number;
  orderItems: number;
  customers: number;
  payments: number;
  events: number;
}

export async function orderRowCounts(t: TestGateway): Promise<OrderRowCounts> {
  const db = t.gateway.services.db;
  const [products, orders, orderItems, customers, payments, events] = await Promise.all([
    db.product.count(),
    db.order.count(),
    db.orderItem.count(),
    db.customer.count(),
    db.payment.count(),
    db.outboxEvent.count(),
  ]);
  return { products, orders, orderItems, customers, payments, events };
}

/** Catalog messages by the names retrieve-orders.test.ts still uses; new assertions use `msg(code)`. */
export const MSG = {
  required: msg('required'),
  invalidType: msg('invalid_type'),
  unknownField: msg('unknown_field'),
  invalidUuid: msg('invalid_uuid'),
  invalidUrl: msg('invalid_url'),
  invalidBoolean: msg('invalid_boolean'),
  tooLong255: msg('too_long', { max: 255 }),
  tooLong2048: msg('too_long', { max: 2048 }),
  needsDigit: msg('reference_needs_digit'),
  amountFormat: msg('amount_format'),
  amountPositive: msg('amount_positive'),
  amountTooLarge: msg('amount_too_large'),
  rateFormat: msg('rate_format'),
  currencyInvalid: msg('currency_invalid'),
  currencyNotSupported: msg('currency_not_supported'),
  channelNotFound: msg('channel_not_found'),
  accountNotFound: msg('account_not_found'),
  noDefaultAccount: msg('no_default_account'),
  accountNoSecure: msg('account_no_secure'),
  planOrders: msg('plan_orders'),
  workspaceInactive: msg('workspace_inactive'),
  productTypeInvalid: msg('product_type_invalid'),
  periodRequired: msg('product_period_required'),
  periodInvalid: msg('product_period_invalid'),
  productAmountMin: msg('product_amount_min'),
  itemsRequired: msg('order_items_required'),
  notInCatalog: msg('order_item_not_in_catalog'),
  currencyMismatch: msg('order_item_currency_mismatch'),
  quantityRange: msg('quantity_range'),
  invalidInteger: msg('invalid_integer'),
  tokenNotCombinable: msg('token_not_combinable'),
  notWithDates: msg('not_with_dates'),
  dateRangeTooLong: msg('date_range_too_long'),
  dateRangeOrder: msg('date_range_order'),
  datesTogether: msg('dates_together'),
  dateFormat: msg('date_format'),
} as const;
