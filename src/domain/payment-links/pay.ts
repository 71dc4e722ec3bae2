// Paying a link on its hosted page: the payer's details, the amount (the link's items, or a typed
// or offered amount), the currency (offered ones only, no conversion of the number) and the card
// start one 3D payment attempt owned by the link (owner.ts). Each attempt is a link payment
// LINKPAY<n>, numbered per workspace by an atomic increment, also when it is later rejected.
import { z } from 'zod';
import type { Tx } from '../../db/client.ts';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { Currency } from '../money.ts';
import { amount, isUuid, parseInput, text } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { StateError, ValidationError } from '../errors.ts';
import { message } from '../messages.ts';
import { cardInput } from '../cards.ts';
import { CURRENCIES } from '../money.ts';
import { attemptPayment } from '../payments/attempt.ts';
import { typedCard } from '../payments/card-source.ts';
import { shopperOf } from '../customers.ts';
import type { BasketItem } from '../../providers/types.ts';
import { fixedCharge, singleItemCharge, type LinkCharge } from './amounts.ts';
import { isPayable, linkInclude, type LinkView } from './view.ts';
import { MAX_LINK_AMOUNT } from './input.ts';

export type CheckoutLink = LinkView & { workspace: Workspace };

/** The link behind a checkout address, or null (unknown tokens and malformed ones alike). */
export async function findCheckoutLink(s: Services, token: string): Promise<CheckoutLink | null> {
  if (!isUuid(token)) return null;
  return s.db.paymentLink.findUnique({ where: { id: token }, include: { ...linkInclude, workspace: true } });
}

const payLinkInput = z.object({
  card: cardInput,
  installmentNumber: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(1, { error: 'installment_range' }).max(12, { error: 'installment_range' }),
  ip: z.string().nullish(),
  payer: z.object({
    firstname: text().min(1, { error: 'required' }),
    lastname: text().min(1, { error: 'required' }),
    email: text().min(1, { error: 'required' }).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: 'invalid_email' }),
  }),
  /** The payer's amount for the non-fixed types (typed or one of the offered ones). */
  amount: amount(MAX_LINK_AMOUNT).nullish(),
  /** The payer's currency when the link's currency is selectable. */
  currency: z.enum(CURRENCIES, { error: 'currency_invalid' }).nullish(),
});

export type PayLinkOutcome = { kind: 'redirect'; url: string } | { kind: 'failed'; code: string; text: string };

export async function payLink(s: Services, link: CheckoutLink, raw: unknown): Promise<PayLinkOutcome> {
  requireActive(link.workspace);
  if (!isPayable(link, link.workspace, s.clock.now())) throw StateError.single([], 'link_not_payable');
  const input = parseInput(payLinkInput, raw);
  const charge = chargeOf(link, input.amount ?? null);
  const currency = currencyOf(link, input.currency ?? null);
  const attempt = await attemptPayment(s, {
    workspace: link.workspace,
    source: 'payment_link',
    security: 'secure',
    channelId: null,
    channelReference: null,
    amount: charge.amount,
    currency,
    installmentNumber: input.installmentNumber,
    pricing: 'quoted',
    card: await typedCard(s, link.workspace, input.card),
    accountToken: link.paymentAccountId,
    paths: { account: ['paymentProviderToken'], currency: ['currency'], installmentNumber: ['installmentNumber'] },
    callbackUrl: null,
    ip: input.ip ?? null,
    shopper: shopperOf({ firstname: input.payer.firstname, lastname: input.payer.lastname, email: input.payer.email }),
    basket: basketOf(link, charge),
    claim: async (tx, at) => ({ linkPaymentId: await openLinkPayment(tx, link, { charge, currency, payer: input.payer }, at) }),
    risk: { target: link.id },
  });
  if (attempt.successful && attempt.redirectUrl) return { kind: 'redirect', url: attempt.redirectUrl };
  return { kind: 'failed', code: attempt.failure?.code ?? 'internal_error', text: attempt.failure?.text ?? message('internal_error') };
}

/** What the link sells, for the provider: its items, or its one item at the amount paid. */
function basketOf(link: CheckoutLink, charge: LinkCharge): BasketItem[] {
  if (link.amountType === 'fixed') return link.items.map((i) => ({ id: i.reference ?? i.id, name: i.name, price: i.unitAmount * BigInt(i.quantity) }));
  return [{ id: link.id, name: link.itemName ?? link.reference, price: charge.amount }];
}

function chargeOf(link: CheckoutLink, asked: bigint | null): LinkCharge {
  if (link.amountType === 'fixed') return fixedCharge(link.items);
  if (asked === null) throw ValidationError.single(['amount'], 'required');
  if (asked <= 0n) throw ValidationError.single(['amount'], 'amount_positive');
  const offered = link.predefinedAmounts.includes(asked);
  if (link.amountType === 'predefined' && !offered) throw ValidationError.single(['amount'], 'link_amount_not_offered');
  const charge = singleItemCharge(link, asked);
  // Exclusive VAT on top of a typed 10,000,000.00 would pass the link ceiling.
  if (charge.amount > MAX_LINK_AMOUNT) throw ValidationError.single(['amount'], 'link_amount_too_large');
  return charge;
}

function currencyOf(link: CheckoutLink, chosen: Currency | null): Currency {
  if (link.currencyType === 'fixed' || chosen === null) return link.currency;
  if (!link.currencies.includes(chosen)) throw ValidationError.single(['currency'], 'link_currency_not_offered');
  return chosen;
}

async function openLinkPayment(tx: Tx, link: CheckoutLink, p: { charge: LinkCharge; currency: Currency; payer: { firstname: string; lastname: string; email: string } }, at: Date): Promise<string> {
  const { linkPaymentCounter } = await tx.workspace.update({ where: { id: link.workspaceId }, data: { linkPaymentCounter: { increment: 1 } }, select: { linkPaymentCounter: true } });
  const row = await tx.linkPayment.create({
    data: {
      workspaceId: link.workspaceId,
      linkId: link.id,
      reference: `LINKPAY${linkPaymentCounter}`,
      status: 'pending',
      amount: p.charge.amount,
      subtotal: p.charge.subtotal,
      taxAmount: p.charge.taxAmount,
      currency: p.currency,
      items: p.charge.items,
      payerFirstname: p.payer.firstname,
      payerLastname: p.payer.lastname,
      payerEmail: p.payer.email,
      createdAt: at,
    },
  });
  return row.id;
}

/** A payment of the link, for the page the payer comes back to after the 3D step. */
export async function findLinkAttempt(s: Services, paymentId: string) {
  if (!isUuid(paymentId)) return null;
  return s.db.payment.findFirst({ where: { id: paymentId, source: 'payment_link' }, include: { linkPayment: true } });
}
