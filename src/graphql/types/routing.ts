// Routing by cost for the dashboard: an account's cost tables and bank issuer code, the rules'
// program and weight, why a payment's account was chosen, and `routePreview`, which answers
// which accounts would take a card, in order, without charging. Resolvers only call the domain.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { AccountPayload, type SettingsShape } from './settings.ts';
import { BinCard, Installment } from './bin.ts';
import { PaymentAccountRecord } from './workspace.ts';
import { describeCosts, setAccountCosts, setAccountIssuerCode, type CostTableView } from '../../domain/routing/cost-settings.ts';
import { previewRoute, type PreviewCandidate, type RoutePreview } from '../../domain/routing/preview.ts';
import { formatAmount, formatRate } from '../../domain/money.ts';

const CostTable = builder.objectRef<CostTableView>('AccountCostTable').implement({
  description: 'What an account costs per payment for some cards: a commission per installment count plus a fixed fee',
  fields: (t) => ({
    program: t.exposeString('program', { nullable: true, description: 'Card program priced; null: any program' }),
    cards: t.exposeString('cards', { description: "any, on_us (the account's own bank's cards) or not_on_us" }),
    rates: t.field({ type: 'JSON', description: 'Installment count to commission in percent, e.g. {"1": "1.79"}', resolve: (c) => c.rates }),
    fixedFee: t.exposeString('fixedFee', { description: 'Per payment, in the payment currency' }),
  }),
});

builder.prismaObjectField('PaymentAccount', 'costs', (t) =>
  t.field({
    type: [CostTable],
    description: 'Cost tables; routing prefers the cheapest account that can take a payment (none: unknown cost, after priced accounts)',
    select: { costs: { orderBy: { createdAt: 'asc' } } },
    resolve: (a) => describeCosts(a.costs),
  }),
);

builder.prismaObjectField('PaymentAccount', 'issuerCode', (t) =>
  t.exposeString('issuerCode', { nullable: true, description: "A bank account's own issuer code: cards of that issuer are on-us" }),
);

builder.prismaObjectField('Payment', 'routingReason', (t) =>
  t.exposeString('routingReason', { nullable: true, description: 'Why the account was chosen: token, rule, cost, default, saved_card, health (the preferred account was degraded) or fallback (a cascade after a technical failure); null: paid before this was recorded' }),
);

builder.prismaObjectField('Payment', 'routingDetail', (t) =>
  t.field({
    type: 'JSON',
    nullable: true,
    description: 'What backs routingReason: the rule (ruleId), the cost in minor units (cost), the degraded account passed over (passedOver), the account that failed before a cascade (failed)',
    resolve: (p) => (p.routingDetail as Record<string, unknown> | null) ?? null,
  }),
);

builder.mutationField('setAccountCosts', (t) =>
  t.field({
    type: AccountPayload,
    description: "Replaces an account's cost table for one card program (or any) and one kind of card (any, on_us, not_on_us)",
    args: {
      token: t.arg.string({ required: true }),
      rates: t.arg({ type: 'JSON', description: 'Installment count (1-12) to commission in percent, e.g. {"1": "1.79", "3": "2.49"}; null or {}: removes this table' }),
      program: t.arg.string({ description: 'Card program priced, e.g. Bonus; null: any program' }),
      cards: t.arg.string({ description: 'any (default), on_us or not_on_us' }),
      fixedFee: t.arg({ type: 'AmountInput', description: 'Fixed fee per payment in the payment currency, e.g. "0.25"' }),
    },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({
        paymentAccount: await setAccountCosts(ctx.services, actingWorkspace(ctx), args.token, { rates: args.rates ?? null, program: args.program ?? null, cards: args.cards ?? null, fixedFee: args.fixedFee ?? null }),
      })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('setAccountIssuerCode', (t) =>
  t.field({
    type: AccountPayload,
    description: "A bank account's own issuer code (BIN facts' issuerCode); null clears it",
    args: { token: t.arg.string({ required: true }), issuerCode: t.arg.string() },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ paymentAccount: await setAccountIssuerCode(ctx.services, actingWorkspace(ctx), args.token, { issuerCode: args.issuerCode ?? null }) })) as Promise<SettingsShape>,
  }),
);

const RouteCandidate = builder.objectRef<PreviewCandidate>('RouteCandidate').implement({
  description: 'An account that would take the payment, in the order tried',
  fields: (t) => ({
    paymentAccount: t.field({ type: PaymentAccountRecord, resolve: (c) => c.account }),
    reason: t.exposeString('reason', { description: 'token, rule (the rule named it), cost (the cheapest of the rules\' accounts), default (no rule gave one) or fallback (the default after them)' }),
    ruleId: t.exposeString('ruleId', { nullable: true }),
    cost: t.string({ nullable: true, description: 'Commission plus fixed fee for this payment, in its currency; null: no cost table prices it', resolve: (c) => (c.cost ? formatAmount(c.cost.total) : null) }),
    commissionRate: t.string({ nullable: true, description: 'Commission in percent', resolve: (c) => (c.cost ? formatRate(BigInt(c.cost.commissionBp)) : null) }),
    fixedFee: t.string({ nullable: true, resolve: (c) => (c.cost ? formatAmount(c.cost.fixedFee) : null) }),
    installment: t.field({ type: Installment, nullable: true, description: "The account's option for the installment count asked", resolve: (c) => c.installment }),
    installments: t.field({ type: [Installment], description: "The account's installment quote for this card and amount", resolve: (c) => c.installments }),
  }),
});

type PreviewShape = { result: ResultShape; errors: UserErrorShape[] } & Partial<RoutePreview>;

const RoutePreviewPayload = builder.objectRef<PreviewShape>('RoutePreviewPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    card: t.field({ type: BinCard, nullable: true, resolve: (p) => p.card ?? null }),
    installmentCount: t.int({ nullable: true, resolve: (p) => p.installmentCount ?? null }),
    candidates: t.field({ type: [RouteCandidate], resolve: (p) => p.candidates ?? [] }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.queryField('routePreview', (t) =>
  t.field({
    type: RoutePreviewPayload,
    description: 'Which accounts would take a payment with this card, amount, currency and installment count, in order, with why, cost and quote; nothing is charged',
    args: {
      bin: t.arg.string({ required: true, description: '6 to 8 digits' }),
      amount: t.arg({ type: 'AmountInput', required: true }),
      currency: t.arg.string({ description: 'Default TRY' }),
      installmentCount: t.arg.int({ description: 'Default 1' }),
    },
    resolve: (_r, args, ctx) =>
      payload(ctx, () => previewRoute(ctx.services, actingWorkspace(ctx), { bin: args.bin, amount: args.amount, currency: args.currency ?? null, installmentCount: args.installmentCount ?? null })) as Promise<PreviewShape>,
  }),
);
