// secure-payment and regular-payment: the API owner's way into the payment attempt. The request's
// card or saved card, customer and channel are resolved here; everything else is the attempt's.
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { requireActive } from '../plans.ts';
import { requireChannel } from '../channels.ts';
import { customerUpsert, shopperOf } from '../customers.ts';
import { parsePaymentInput, type PaymentInput } from './input.ts';
import { attemptPayment, type AttemptResult, type Security } from './attempt.ts';
import { savedCard, typedCard, type CardSource } from './card-source.ts';

export type StartResult = AttemptResult;

export const securePayment = (s: Services, w: Workspace, raw: unknown) => startPayment(s, w, 'secure', raw);
export const regularPayment = (s: Services, w: Workspace, raw: unknown) => startPayment(s, w, 'regular', raw);

const TRANSACTION_PATHS = {
  account: ['transaction', 'paymentProviderToken'],
  currency: ['transaction', 'currency'],
  installmentNumber: ['transaction', 'installmentNumber'],
  savedCard: ['transaction', 'savedCardToken'],
  shouldSave: ['card', 'shouldSave'],
};

async function startPayment(s: Services, workspace: Workspace, security: Security, raw: unknown): Promise<StartResult> {
  requireActive(workspace);
  const input = parsePaymentInput(security, raw);
  const t = input.transaction;
  const channel = await requireChannel(s.db, workspace.id, t.channelToken, ['transaction', 'channelToken']);
  return attemptPayment(s, {
    workspace,
    source: 'api',
    security,
    channelId: channel.id,
    channelReference: t.channelReference,
    amount: t.amount,
    baseAmount: t.baseAmount ?? null,
    currency: t.currency,
    installmentNumber: t.installmentNumber,
    pricing: 'given',
    card: await cardOf(s, workspace, channel.id, input),
    accountToken: t.paymentProviderToken ?? null,
    paths: TRANSACTION_PATHS,
    callbackUrl: t.callbackUrl ?? null,
    ip: t.ip,
    shopper: shopperOf(input.customer),
    shouldSave: input.card?.shouldSave ?? false,
    customer: customerUpsert(workspace.id, channel.id, input.customer, s.clock.now()),
  });
}

function cardOf(s: Services, workspace: Workspace, channelId: string, input: PaymentInput): Promise<CardSource> {
  const token = input.transaction.savedCardToken;
  if (!token) return typedCard(s, workspace, input.card!);
  return savedCard(s, workspace, { token, customer: { channelId, channelReference: input.customer.channelReference }, path: TRANSACTION_PATHS.savedCard });
}
