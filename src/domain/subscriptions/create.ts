// subscription-payment: opens a `pending` subscription for recurring catalog products; no card,
// no charge. The first period is paid on the checkout page, which stores the card; later periods
// are charged from the customer's default saved card (renewals.ts).
import { z } from 'zod';
import type { PaymentAccount, Product, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { amount, httpUrl, orderNumberReference, parseInput, uuid } from '../validation.ts';
import { customerInput, upsertCustomer } from '../customers.ts';
import { requireFeature } from '../plans.ts';
import { requireChannel } from '../channels.ts';
import { providerStoresCards, requireCardVault } from '../card-vault.ts';
import { liveAccount } from '../accounts.ts';
import { checkAccountForLater } from '../routing/choice.ts';
import { MAX_CARD_PAYMENT } from '../payments/attempt.ts';
import { IssueList, ValidationError, type Path } from '../errors.ts';
import { catalogByReference, itemQuantity, MAX_UNIT_AMOUNT, productReference } from '../products.ts';
import { destinationAllowed } from '../webhooks/outbound.ts';
import { workspaceNow } from '../workspace-clock.ts';
import { catalogAmount, firstPeriodAmount } from './periods.ts';
import { loadSubscriptionView, type SubscriptionView } from './view.ts';

export const MAX_RENEWAL_LIMIT = 1000;

const itemInput = z.object(
  {
    channelReference: productReference(),
    quantity: itemQuantity(),
    unitAmount: amount().nullish(),
  },
  { error: 'invalid_type' },
);

export const subscriptionPaymentInput = z.object({
  subscription: z.object(
    {
      channelToken: uuid(),
      channelReference: orderNumberReference(),
      items: z.array(itemInput, { error: 'invalid_type' }).min(1, { error: 'subscription_items_required' }),
      successUrl: httpUrl(),
      cancelUrl: httpUrl().nullish(),
      webhookUrl: httpUrl().nullish(),
      paymentProviderToken: uuid().nullish(),
      renewalLimit: z
        .number({ error: 'renewal_limit_range' })
        .int({ error: 'renewal_limit_range' })
        .min(1, { error: 'renewal_limit_range' })
        .max(MAX_RENEWAL_LIMIT, { error: 'renewal_limit_range' })
        .nullish(),
    },
    { error: 'required' },
  ),
  customer: customerInput(),
});

type ItemInput = z.output<typeof subscriptionPaymentInput>['subscription']['items'][number];

interface ResolvedItem {
  position: number;
  product: Product;
  quantity: number;
  firstPeriodUnitAmount: bigint | null;
}

const S = (...rest: Path) => ['subscription', ...rest];

export async function subscriptionPayment(s: Services, workspace: Workspace, raw: unknown): Promise<SubscriptionView> {
  requireFeature(workspace, 'subscriptions');
  const input = parseInput(subscriptionPaymentInput, raw);
  const sub = input.subscription;
  const channel = await requireChannel(s.db, workspace.id, sub.channelToken, S('channelToken'));
  const catalog = await catalogByReference(s.db, channel.id, sub.items.map((i) => i.channelReference));
  const items = resolveItems(sub.items, catalog);
  const { period, currency } = items[0]!.product;
  const first = firstPeriodAmount(items);
  // Both the first period and a renewal at today's prices must be chargeable by card.
  if (first > MAX_CARD_PAYMENT || catalogAmount(items) > MAX_CARD_PAYMENT) throw ValidationError.single(S('items'), 'amount_too_large');
  const webhookUrl = sub.webhookUrl ? new URL(sub.webhookUrl).href : null;
  if (webhookUrl && !(await destinationAllowed(webhookUrl, s.webhooks))) throw ValidationError.single(S('webhookUrl'), 'webhook_url_invalid');
  // The first payment is a 3D payment that stores the card: the account given (or the default)
  // must take 3D payments and store the card, or, when its provider stores no cards (a bank), the
  // workspace's card storage account must (card-vault.ts). The account itself is chosen at payment time.
  const bank = await bankAccount(s, workspace, sub.paymentProviderToken ?? null);
  const account = await checkAccountForLater(s, workspace, {
    token: sub.paymentProviderToken ?? null,
    path: S('paymentProviderToken'),
    needs: bank ? ['secure'] : ['secure', 'cardStorage'],
    currency,
    amount: first,
    currencyPath: S('paymentProviderToken'),
  });
  if (bank) await requireCardVault(s, workspace, bank, S('paymentProviderToken'));

  const now = workspaceNow(s, workspace);
  const created = await s.db.$transaction(async (tx) => {
    const customer = await upsertCustomer(tx, workspace.id, channel.id, input.customer, s.clock.now());
    return tx.subscription.create({
      data: {
        workspaceId: workspace.id,
        channelId: channel.id,
        customerId: customer.id,
        paymentAccountId: account?.id ?? null,
        channelReference: sub.channelReference,
        status: 'pending',
        period: period!,
        currency,
        successUrl: sub.successUrl,
        cancelUrl: sub.cancelUrl ?? null,
        webhookUrl,
        renewalLimit: sub.renewalLimit ?? null,
        createdAt: now,
        items: { create: items.map((i) => ({ productId: i.product.id, position: i.position, quantity: i.quantity, firstPeriodUnitAmount: i.firstPeriodUnitAmount })) },
        periods: { create: { number: 1, amount: first, status: 'unpaid', createdAt: now } },
      },
    });
  });
  return loadSubscriptionView(s.db, created.id);
}

/**
 * Every item must be an active recurring product of the channel, each product once, all of one
 * period and currency (which become the subscription's). Reports every bad item at once.
 */
function resolveItems(items: ItemInput[], catalog: Map<string, Product>): ResolvedItem[] {
  const issues = new IssueList();
  const resolved: ResolvedItem[] = [];
  items.forEach((item, i) => {
    const path = S('items', i);
    const product = catalog.get(item.channelReference);
    if (!product) return issues.add([...path, 'channelReference'], 'subscription_product_not_found');
    if (product.type !== 'recurring' || !product.period) return issues.add([...path, 'channelReference'], 'subscription_product_not_recurring');
    if (!product.isActive) return issues.add([...path, 'channelReference'], 'subscription_product_inactive');
    const unit = item.unitAmount ?? null;
    if (unit !== null && unit <= 0n) issues.add([...path, 'unitAmount'], 'amount_positive');
    else if (unit !== null && unit > MAX_UNIT_AMOUNT) issues.add([...path, 'unitAmount'], 'amount_too_large');
    resolved.push({ position: i, product, quantity: item.quantity, firstPeriodUnitAmount: unit });
  });
  const ids = resolved.map((r) => r.product.id);
  if (new Set(ids).size !== ids.length) issues.add(S('items'), 'subscription_product_repeated');
  if (new Set(resolved.map((r) => r.product.period)).size > 1) issues.add(S('items'), 'subscription_periods_differ');
  if (new Set(resolved.map((r) => r.product.currency)).size > 1) issues.add(S('items'), 'subscription_currencies_differ');
  issues.throwIfAny();
  return resolved;
}

/** The account a subscription would be charged through (given, else the default) when its provider stores no cards; else null. */
async function bankAccount(s: Services, workspace: Workspace, token: string | null): Promise<PaymentAccount | null> {
  const id = token ?? workspace.defaultPaymentAccountId;
  const account = id ? await liveAccount(s.db, workspace, id) : null;
  return account && !providerStoresCards(s, account) ? account : null;
}
