// What each request field means, once per field name (or per `parent.name`, or a whole dotted
// path, where the same name means different things), with the value shown in the examples and
// the allowed values where the domain keeps them as a list. The shape of every request (which
// fields, types, limits, required) is never written here: it comes from the domain's zod schemas
// (inputs.ts); this table only adds words, and the document build fails when a field of a
// request has no entry (annotate.ts), so a new field cannot go undocumented.
import { CURRENCIES } from '../../domain/money.ts';
import { PERIODS, PRODUCT_TYPES } from '../../domain/products.ts';
import { AMOUNT_TYPES, CURRENCY_TYPES, TAX_MODES } from '../../domain/payment-links/input.ts';

export interface FieldDoc {
  description: string;
  /** Shown in the operation's example body; optional fields without one are left out of it. */
  example?: unknown;
  /** The allowed values, from the domain's own list. */
  enum?: readonly string[];
  /** The enum (and the field) applies only when a sibling field has this value; otherwise the field is ignored. */
  enumWhen?: { field: string; equals: string };
  /** An optional object or list left out of the example body. */
  notInExample?: true;
}

export const TOKEN_EXAMPLE = '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f';
export const CHANNEL_EXAMPLE = '0b7e6a52-1c3d-4e5f-9a8b-7c6d5e4f3a2b';
const ACCOUNT = 'The payment account (`payment_provider_token`) to use; without it the routing rules, then the default account, decide.';
const AMOUNT = 'Decimal string in major units with at most two decimals (`100` or `100.10`); a JSON number is taken too.';
const RATE = 'VAT rate in percent, 0 to 100, at most two decimals (`18`, `8.5`).';
const REFERENCE_MAX = 'at most 255 characters';
const DAY = 'A day, `YYYY-MM-DD`, in the workspace time zone; with `created_to`, lists what was created in those days.';

/** Looked up by the field's dotted path, then `parent.name` (`.name` at the top), then `name`. */
export const FIELDS: Record<string, FieldDoc> = {
  // objects
  transaction: { description: 'The payment itself.' },
  'refund-payment:transaction': { description: 'The payment to refund.' },
  customer: { description: "Your customer: `channel_reference` is your own id for them; the other fields are stored with the customer." },
  card: { description: 'The card. Its number and security code are never stored, logged or returned.' },
  saved_card: { description: 'A card stored for the customer.' },
  product: { description: 'A catalog product, created or updated by (`channel_token`, `channel_reference`).' },
  order: { description: 'An order paid on the hosted checkout page (`checkout_url` of the answer).' },
  subscription: { description: 'A subscription paid on the hosted checkout page, then renewed from the customer\'s default saved card.' },
  payment_link: { description: 'A payment link: a hosted page that takes payments until it is closed or expires.' },
  items: { description: 'The lines, at least one.' },
  'payment_link.items': { description: 'The lines of a `fixed` link.' },

  // tokens and references
  channel_token: { description: 'A channel of your workspace (shown by the admin CLI and the dashboard).', example: CHANNEL_EXAMPLE },
  payment_provider_token: { description: ACCOUNT },
  token: { description: 'The token the gateway gave in an earlier answer.', example: TOKEN_EXAMPLE },
  '.token': { description: 'Only the record with this token.' },
  'retrieve-payment-links:token': { description: 'Only the link with this token.', example: TOKEN_EXAMPLE },
  'retrieve-link-payments:token': { description: "A payment link's token: the payments of that link.", example: TOKEN_EXAMPLE },
  link_payment_token: { description: 'One payment of the link.' },
  saved_card_token: { description: 'Pay with this saved card of the customer instead of `card`.' },
  channel_reference: { description: `Your own reference, ${REFERENCE_MAX}.`, example: 'REF-1001' },
  'transaction.channel_reference': { description: `Your reference for the payment (e.g. your order number), ${REFERENCE_MAX}.`, example: 'ORDER-1001' },
  'customer.channel_reference': { description: `Your id for the customer, ${REFERENCE_MAX}.`, example: 'CUST-1' },
  'order.channel_reference': { description: `Your reference for the order, ${REFERENCE_MAX}.`, example: 'ORDER-1001' },
  'order.items.channel_reference': { description: "The product's `channel_reference` in your catalog (save-product); the line takes its name, price and VAT unless given here.", example: 'SKU-1' },
  'subscription.channel_reference': { description: `Your reference for the subscription, ${REFERENCE_MAX}.`, example: 'SUB-1001' },
  'subscription.items.channel_reference': { description: 'A recurring product of your catalog (save-product); the subscription takes its period.', example: 'PLAN-BASIC' },
  'product.channel_reference': { description: `Your product code, ${REFERENCE_MAX}; the same code updates the product.`, example: 'SKU-1' },
  '.channel_reference': { description: 'Only the records with this reference of yours.', example: 'ORDER-1001' },
  'retrieve-subscriptions:channel_reference': { description: 'Only the subscriptions with this reference of yours.', example: 'SUB-1001' },
  reference: { description: 'Your reference, shown to the payer.' },
  'payment_link.reference': { description: 'Your reference for the link; must contain a digit.' },
  '.reference': { description: "Only the link with this reference." },
  'payment_link.items.reference': { description: 'Your reference for the line.' },

  // money
  amount: { description: AMOUNT, example: '100.00' },
  'refund-payment:amount': { description: `${AMOUNT} Without it the whole refundable rest is refunded.`, example: '10.00' },
  base_amount: { description: 'The amount of the sale before the installment surcharge, when you add one; at most `amount`.' },
  unit_amount: { description: AMOUNT, example: '50.00' },
  'subscription.items.unit_amount': { description: "Overrides the product's price for this subscription." },
  'order.items.unit_amount': { description: `${AMOUNT} Overrides the product's price on this order.` },
  'order.items.tax_rate': { description: `${RATE} Overrides the product's rate on this order.` },
  'payment_link.tax_rate': { description: `${RATE} For custom and predefined amounts.` },
  currency: { description: 'ISO 4217 code; TRY when left out.', example: 'TRY', enum: CURRENCIES },
  currencies: { description: 'With `currency_type` selectable: the other currencies the payer may choose.' },
  installment_number: { description: '1 for a single payment; 2-12 installments (TRY only; retrieve-bin lists the options).', example: 1 },
  tax_rate: { description: RATE, example: '20' },
  quantity: { description: 'How many, 1 when left out.', example: 1 },
  predefined_amounts: { description: 'With amount_type predefined or predefined_and_custom: the amounts the payer picks from (at most 10).' },

  // card
  bin: { description: 'The first 6 to 8 digits of the card number.', example: '41111111' },
  holder_name: { description: 'The name on the card.', example: 'AYSE YILMAZ' },
  number: { description: 'The full card number (digits only); never stored or returned.', example: '4111111111111111' },
  security_code: { description: 'CVC/CVV; never stored.', example: '123' },
  expiry_month: { description: 'Two digits, `01`-`12`.', example: '12' },
  expiry_year: { description: 'Four digits.', example: '2030' },
  should_save: { description: 'Also store the card for the customer when the payment succeeds (the answer then has `saved_card`).' },

  // customer
  firstname: { description: 'First name.', example: 'Ayşe' },
  lastname: { description: 'Last name.', example: 'Yılmaz' },
  email: { description: 'E-mail address.', example: 'ayse@example.com' },
  phone: { description: 'Phone number.' },
  address: { description: 'Street address.' },
  district: { description: 'District.' },
  province: { description: 'Province.' },
  country: { description: 'Country.' },

  // payments
  ip: { description: "The payer's IPv4 or IPv6 address.", example: '203.0.113.7' },
  callback_url: { description: 'Where the payer returns after the 3D page (http or https).', example: 'https://shop.example/payment/return' },
  'regular-payment:transaction.callback_url': { description: 'Taken and ignored: a regular payment has no 3D page (the field is there so one body serves both payment operations).' },

  // catalog, orders, subscriptions
  name: { description: 'Name, 1-255 characters.', example: 'Kahve Makinesi' },
  'order.items.name': { description: "The line's name; the product's name when left out." },
  'payment_link.items.name': { description: "The line's name.", example: 'Kahve' },
  type: { description: 'simple: sold once; recurring: a subscription plan (needs `period`).', example: 'simple', enum: PRODUCT_TYPES },
  period: { description: 'For a recurring product, required: how often it renews (monthly or yearly). Ignored for a simple product.', enum: PERIODS, enumWhen: { field: 'type', equals: 'recurring' } },
  is_active: { description: 'false closes it: an inactive product cannot be ordered, a closed link takes no payment.' },
  'update-payment-link:payment_link.is_active': { description: 'false closes the link: it takes no payment and has no checkout address; true opens it again.', example: false },
  'update-payment-link:payment_link.currency': { description: 'ISO 4217 code; unchanged when left out.', enum: CURRENCIES },
  'update-payment-link:payment_link.amount_type': { description: 'See create-payment-link; unchanged when left out.', enum: AMOUNT_TYPES },
  'update-payment-link:payment_link.items': { description: 'Replaces the lines; unchanged when left out.', notInExample: true },
  'update-payment-link:payment_link.description': { description: 'Free text shown on the link page; unchanged when left out.', example: 'Kapandı' },
  'product.is_active': { description: 'false: the product cannot be ordered; true when left out.' },
  success_url: { description: 'Where the hosted page sends the payer after paying (http or https).', example: 'https://shop.example/paid' },
  cancel_url: { description: 'Where the hosted page sends a payer who gives up.' },
  webhook_url: { description: "This subscription's renewal notifications go here as well as to the workspace's addresses." },
  renewal_limit: { description: 'Ends the subscription after this many renewals; no limit when left out.' },
  description: { description: 'Free text shown on the hosted page.' },
  'order.description': { description: 'Free text shown on the hosted page.', example: 'Sipariş 1001' },
  'payment_link.description': { description: 'Free text shown on the link page.', example: 'Kahve siparişi' },

  // payment links
  amount_type: { description: 'fixed: the items\' total; custom: the payer types the amount; predefined: the payer picks one of `predefined_amounts`; predefined_and_custom: either.', example: 'fixed', enum: AMOUNT_TYPES },
  item_name: { description: 'With amount_type custom or predefined: what the payer pays for.' },
  tax_mode: { description: 'inclusive: the amounts include VAT; exclusive: VAT is added on top.', enum: TAX_MODES },
  currency_type: { description: 'fixed: the link\'s currency only; selectable: the payer may choose one of `currencies` too.', enum: CURRENCY_TYPES },
  emails_customer: { description: 'Send the payer a receipt by e-mail.' },
  expires_at: { description: 'The last day the link takes payments, `YYYY-MM-DD`.' },

  // list filters
  created_from: { description: DAY },
  created_to: { description: 'A day, `YYYY-MM-DD`, in the workspace time zone; with `created_from`, lists what was created in those days.' },
};

/** The documentation of the field at `path` (property names, no array indexes) of `operation`'s body. */
export function fieldDoc(operation: string, path: readonly string[]): FieldDoc | undefined {
  const name = path[path.length - 1]!;
  const parent = path.length > 1 ? path[path.length - 2]! : '';
  // A top-level field's own key is `.name`, so `name` alone stays the meaning everywhere else.
  const keys = [`${operation}:${path.join('.')}`, ...(path.length > 1 ? [path.join('.')] : []), `${parent}.${name}`, name];
  for (const key of keys) if (Object.hasOwn(FIELDS, key)) return FIELDS[key];
  return undefined;
}
