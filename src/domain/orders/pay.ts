// Paying an order on its hosted checkout page: the card form starts a 3D payment (source
// `order`) whose return POST goes to the order's success_url; when it succeeds the order becomes
// `paid` (once) and `order.paid` is recorded. Order payments emit no transaction.* events.
import { z } from 'zod';
import type { Order, PaymentAccount, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import type { BinInfo, InstallmentOption } from '../../providers/types.ts';
import { parseInput } from '../validation.ts';
import { requireActive } from '../plans.ts';
import { selectAccount } from '../accounts.ts';
import { planCharge, type ChargePlan } from '../charge-currency.ts';
import { StateError, ValidationError } from '../errors.ts';
import { message } from '../messages.ts';
import { recordEvent } from '../events.ts';
import { cardInput } from '../payments/input.ts';
import { firstDigitsOf } from '../payments/saved-card-source.ts';
import { askBank, THREE_DS_WINDOW_MS, type StartResult } from '../payments/start.ts';
import { onPaymentSettled } from '../payments/settle.ts';
import { loadOrderView, type OrderView } from './view.ts';

// A successful payment marks its open order paid; a second success (which the in-progress guard
// below prevents) would find the order paid already and record nothing.
onPaymentSettled('order', async (tx, payment, at) => {
  if (payment.status !== 'successful' || !payment.orderId) return;
  const { count } = await tx.order.updateMany({ where: { id: payment.orderId, status: 'open' }, data: { status: 'paid', paidAt: at } });
  if (count === 0) return;
  await recordEvent(tx, { workspaceId: payment.workspaceId, kind: 'order.paid', recordToken: payment.orderId, transactionToken: payment.id }, at);
});

export type CheckoutOrder = OrderView & { workspace: Workspace };

/** The order behind a checkout address, or null (unknown tokens and malformed ones alike). */
export async function findCheckoutOrder(s: Services, token: string): Promise<CheckoutOrder | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token)) return null;
  const found = await s.db.order.findUnique({ where: { id: token }, include: { workspace: true } });
  if (!found) return null;
  return { ...(await loadOrderView(s.db, found.id)), workspace: found.workspace };
}

const BIN_RE = /^\d{6,8}$/;

/**
 * Installment options for the card being typed, from its 6-8 digit BIN: the account the payment
 * would use (the order's, else routing, else default) quotes them; only TRY charges have them.
 */
export async function orderInstallments(s: Services, order: CheckoutOrder, bin: string): Promise<{ card: BinInfo; installments: InstallmentOption[] }> {
  if (!BIN_RE.test(bin)) throw ValidationError.single(['bin'], bin.length < 6 ? 'bin_too_short' : /^\d+$/.test(bin) ? 'bin_too_long' : 'bin_digits_only');
  const card = await s.providers.binSource.binLookup(bin);
  const { account, charge } = await chooseAccount(s, order, { ...card, bin });
  return { card, installments: await quote(s, account, charge, bin) };
}

async function quote(s: Services, account: PaymentAccount, charge: ChargePlan, bin: string): Promise<InstallmentOption[]> {
  // Installments only when the order is in TRY and charged in TRY (no conversion in between).
  if (charge.currency !== 'TRY' || charge.conversion) return [];
  return s.providers.get(account.provider).installments({ bin, amount: charge.amount, currency: 'TRY', monthlyRatesBp: account.installmentRatesBp });
}

async function chooseAccount(s: Services, order: Order & { workspace: Workspace }, bin: BinInfo): Promise<{ account: PaymentAccount; charge: ChargePlan }> {
  const account = await selectAccount(s.db, order.workspace, {
    token: order.paymentAccountId,
    path: ['paymentProviderToken'],
    card: { bin, currency: order.currency, amount: order.amount },
  });
  if (!account.secure) throw ValidationError.single(['paymentProviderToken'], 'account_no_secure');
  const charge = planCharge(account, order.amount, order.currency, s.rates, ['currency']);
  return { account, charge };
}

const payOrderInput = z.object({
  card: cardInput,
  installmentNumber: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(1, { error: 'installment_range' }).max(12, { error: 'installment_range' }),
  ip: z.string().nullish(),
});

export type PayOrderOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'failed'; code: string; text: string };

/**
 * The card form's POST. Validation problems throw ValidationError (the page shows them); a bank
 * refusal at the start comes back as `failed`; otherwise the customer goes to the 3D page.
 */
export async function payOrder(s: Services, order: CheckoutOrder, raw: unknown): Promise<PayOrderOutcome> {
  requireActive(order.workspace);
  if (order.status !== 'open') throw StateError.single([], 'order_already_paid');
  const input = parseInput(payOrderInput, raw);
  const card = input.card;
  const bin = await s.providers.binSource.binLookup(card.number.slice(0, 8));
  const { account, charge } = await chooseAccount(s, order, { ...bin, bin: card.number.slice(0, 8) });

  let amount = order.amount;
  let request: { amount: bigint; currency: typeof charge.currency } = { amount: charge.amount, currency: charge.currency };
  if (input.installmentNumber > 1) {
    const options = await quote(s, account, charge, card.number.slice(0, 8));
    const option = options.find((o) => o.number === input.installmentNumber);
    if (!option) throw ValidationError.single(['installmentNumber'], 'installment_only_try');
    // The surcharge is part of what is charged; base_amount keeps the order amount.
    amount = option.total;
    request = { amount: option.total, currency: 'TRY' };
  } else if (!charge.conversion) {
    // An account may quote a surcharge even for one installment; charge what the page showed.
    const single = (await quote(s, account, charge, card.number.slice(0, 8))).find((o) => o.number === 1);
    if (single) {
      amount = single.total;
      request = { amount: single.total, currency: 'TRY' };
    }
  }

  const now = s.clock.now();
  const payment = await s.db.$transaction(async (tx) => {
    // One payment at a time per order: the row lock serialises two submits of the same order.
    await tx.$queryRaw`SELECT id FROM "Order" WHERE id = ${order.id}::uuid FOR UPDATE`;
    const current = await tx.order.findUniqueOrThrow({ where: { id: order.id } });
    if (current.status !== 'open') throw StateError.single([], 'order_already_paid');
    // An earlier attempt still waiting on its 3D page is replaced (its page stops working); one
    // already at the bank (page submitted, or its start still running) must finish first.
    await tx.payment.updateMany({
      where: { orderId: order.id, status: 'started', threeDsToken: { not: null } },
      data: { status: 'failed', threeDsToken: null, errorCode: 'order_payment_superseded', errorMessage: message('order_payment_superseded'), completedAt: now },
    });
    const busy = await tx.payment.count({
      where: { orderId: order.id, status: 'started', createdAt: { gt: new Date(now.getTime() - THREE_DS_WINDOW_MS) } },
    });
    if (busy > 0) throw StateError.single([], 'order_payment_in_progress');
    return tx.payment.create({
      data: {
        workspaceId: order.workspaceId,
        channelId: order.channelId,
        customerId: order.customerId,
        paymentAccountId: account.id,
        orderId: order.id,
        source: 'order',
        securityType: 'secure',
        status: 'started',
        channelReference: order.channelReference,
        amount,
        baseAmount: order.amount,
        currency: order.currency,
        installmentNumber: input.installmentNumber,
        chargedAmount: charge.conversion?.amount ?? null,
        chargedCurrency: charge.conversion?.currency ?? null,
        conversionRate: charge.conversion?.rate ?? null,
        isTest: account.mode === 'test',
        ip: input.ip ?? null,
        callbackUrl: order.successUrl,
        cardHolderName: card.holderName,
        cardFirstDigits: firstDigitsOf(card.number),
        cardLastFourDigits: card.number.slice(-4),
        cardScheme: bin.scheme,
        createdAt: now,
      },
    });
  });

  const started: StartResult = await askBank(s, 'secure', payment.id, account, {
    ...request,
    installmentNumber: input.installmentNumber,
    card: { holderName: card.holderName, number: card.number, securityCode: card.securityCode, expiryMonth: card.expiryMonth, expiryYear: card.expiryYear },
  });
  if (started.successful && started.redirectUrl) return { kind: 'redirect', url: started.redirectUrl };
  return { kind: 'failed', code: started.failure?.code ?? 'internal_error', text: started.failure?.text ?? message('internal_error') };
}

/** The reason an attempt of this order failed, for the page the customer returns to. */
export async function failedAttempt(s: Services, order: Order, paymentId: string): Promise<{ code: string | null; text: string | null } | null> {
  if (!/^[0-9a-f-]{36}$/i.test(paymentId)) return null;
  const p = await s.db.payment.findFirst({ where: { id: paymentId, orderId: order.id } });
  if (!p || p.status === 'successful' || p.status === 'started') return null;
  return { code: p.errorCode, text: p.errorMessage };
}
