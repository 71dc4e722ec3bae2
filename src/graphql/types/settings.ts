// Workspace settings for the dashboard: the current API key, key and secret rotation
// (the secret is in the answer once and never readable again), channels, payment accounts, the
// default account, routing rules and the test/live mode. Resolvers only call src/domain/settings.ts;
// writes act for the caller's own workspace (support staff only read).
import { builder } from '../builder.ts';
import { actingWorkspace, readableWorkspaceId } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import {
  addChannel,
  addPaymentAccount,
  addWorkspaceRoutingRule,
  removeWorkspaceRoutingRule,
  rotateApiCredentials,
  setBinSource,
  setDefaultPaymentAccount,
  setWorkspaceMode,
  updatePaymentAccountConnection,
  setWorkspaceUnknownKeys,
} from '../../domain/settings.ts';
import { formatAmount } from '../../domain/money.ts';
import { setInstallmentPlan } from '../../domain/installment-plan.ts';
import { ChannelRecord, PaymentAccountRecord, WorkspaceRecord } from './workspace.ts';
import { unknownKeysOf, type Credentials } from '../../domain/workspaces.ts';
import type { Channel, PaymentAccount, RoutingRule, Workspace } from '../../generated/prisma/client.ts';

// ---------------------------------------------------------------- objects

builder.prismaObjectField('Workspace', 'unknownKeys', (t) =>
  t.string({
    description: 'What REST calls do with a body key the operation does not know: reject (422) or ignore (a key the operation knows elsewhere in the body is refused either way)',
    resolve: (w) => unknownKeysOf(w),
  }),
);

builder.prismaObjectField('Workspace', 'binSourceAccount', (t) =>
  t.field({
    type: PaymentAccountRecord,
    nullable: true,
    description: "The account whose provider answers BIN lookups; null: the default account's",
    select: { binSourceAccountId: true, id: true },
    resolve: (w, _a, ctx) => (w.binSourceAccountId ? ctx.services.db.paymentAccount.findFirst({ where: { id: w.binSourceAccountId, workspaceId: w.id, deletedAt: null } }) : null),
  }),
);

builder.prismaObjectField('Workspace', 'apiKey', (t) =>
  t.string({
    nullable: true,
    description: 'The API key in use (X-Api-Key); its secret is shown only when rotated',
    resolve: async (w, _a, ctx) => (await ctx.services.db.apiCredential.findFirst({ where: { workspaceId: w.id, revokedAt: null }, orderBy: { createdAt: 'desc' } }))?.apiKey ?? null,
  }),
);

const RoutingRuleRecord = builder.prismaObject('RoutingRule', {
  description: 'A routing rule: every condition given must hold; the accounts of all the rules a card matches are its candidates, the cheapest first, equal costs in rule order',
  fields: (t) => ({
    id: t.exposeID('id'),
    position: t.exposeInt('position'),
    paymentProviderToken: t.exposeString('paymentAccountId'),
    scheme: t.exposeString('scheme', { nullable: true }),
    cardType: t.exposeString('cardType', { nullable: true }),
    binPrefix: t.exposeString('binPrefix', { nullable: true }),
    issuerCode: t.exposeString('issuerCode', { nullable: true }),
    currency: t.string({ nullable: true, resolve: (r) => r.currency }),
    minAmount: t.string({ nullable: true, resolve: (r) => (r.minAmount === null ? null : formatAmount(r.minAmount)) }),
    maxAmount: t.string({ nullable: true, resolve: (r) => (r.maxAmount === null ? null : formatAmount(r.maxAmount)) }),
    program: t.exposeString('program', { nullable: true }),
    weight: t.exposeInt('weight', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CredentialsRef = builder.objectRef<Credentials>('ApiCredentials').implement({
  description: 'A new API key and its secret; the secret is never shown again',
  fields: (t) => ({ apiKey: t.exposeString('apiKey'), apiSecret: t.exposeString('apiSecret') }),
});

// ---------------------------------------------------------------- payloads

export interface SettingsShape {
  result: ResultShape;
  errors: UserErrorShape[];
  credentials?: Credentials;
  channel?: Channel;
  paymentAccount?: PaymentAccount;
  routingRule?: RoutingRule;
  workspace?: Workspace;
}

const RotatePayload = builder.objectRef<SettingsShape>('RotateApiCredentialsPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    credentials: t.field({ type: CredentialsRef, nullable: true, resolve: (p) => p.credentials ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});
const ChannelPayload = builder.objectRef<SettingsShape>('ChannelPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    channel: t.field({ type: ChannelRecord, nullable: true, resolve: (p) => p.channel ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});
export const AccountPayload = builder.objectRef<SettingsShape>('PaymentAccountPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    paymentAccount: t.field({ type: PaymentAccountRecord, nullable: true, resolve: (p) => p.paymentAccount ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});
const RulePayload = builder.objectRef<SettingsShape>('RoutingRulePayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    routingRule: t.field({ type: RoutingRuleRecord, nullable: true, resolve: (p) => p.routingRule ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});
const WorkspacePayload = builder.objectRef<SettingsShape>('WorkspacePayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    workspace: t.field({ type: WorkspaceRecord, nullable: true, resolve: (p) => p.workspace ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

const CreatePaymentAccountInput = builder.inputType('CreatePaymentAccountInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    provider: t.string({ description: 'A provider id of the providers query (default: simulator)' }),
    currencies: t.stringList({ required: true, description: 'TRY, USD, EUR, GBP' }),
    capabilities: t.stringList({
      required: true,
      description: 'secure, non_secure, card_storage, card_deletion, refund, cancel, hosted_page, conversion; only ones the provider offers',
    }),
    credentials: t.field({ type: 'JSON', description: "The provider's credentials, an object of strings (its credentialFields); stored encrypted, never returned" }),
    settings: t.field({ type: 'JSON', description: "The provider's settings, an object (its settingFields)" }),
    isDefault: t.boolean({ description: "Also make it the workspace's default account" }),
  }),
});

const AddRoutingRuleInput = builder.inputType('AddRoutingRuleInput', {
  fields: (t) => ({
    paymentProviderToken: t.string({ required: true, description: 'The account the rule picks' }),
    scheme: t.string(),
    cardType: t.string({ description: 'credit, debit or prepaid' }),
    binPrefix: t.string({ description: '1 to 8 digits the card number starts with' }),
    issuerCode: t.string(),
    currency: t.string(),
    minAmount: t.field({ type: 'AmountInput' }),
    maxAmount: t.field({ type: 'AmountInput' }),
    program: t.string({ description: 'Card program of the BIN, e.g. Bonus' }),
    weight: t.int({ description: 'Share of volume (1-1000) among consecutive weighted rules whose accounts cost the same' }),
  }),
});

// ---------------------------------------------------------------- queries and mutations

builder.queryField('routingRules', (t) =>
  t.prismaField({
    type: ['RoutingRule'],
    nullable: false,
    description: 'Routing rules in the order they are tried (support staff: of the workspace named by workspaceSlug)',
    args: { workspaceSlug: t.arg.string() },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      const where = workspaceId ? { workspaceId } : { workspace: { slug: args.workspaceSlug ?? '' } };
      return ctx.services.db.routingRule.findMany({ ...query, where, orderBy: { position: 'asc' } });
    },
  }),
);

builder.mutationField('rotateApiCredentials', (t) =>
  t.field({
    type: RotatePayload,
    description: 'Revokes the API key at once and issues a new key and secret (the secret is shown only in this answer)',
    resolve: (_r, _a, ctx) => payload(ctx, async () => ({ credentials: await rotateApiCredentials(ctx.services, actingWorkspace(ctx)) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('createChannel', (t) =>
  t.field({
    type: ChannelPayload,
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ channel: await addChannel(ctx.services, actingWorkspace(ctx), { name: args.name }) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('createPaymentAccount', (t) =>
  t.field({
    type: AccountPayload,
    description: "A payment account in the workspace's current mode",
    args: { input: t.arg({ type: CreatePaymentAccountInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ paymentAccount: await addPaymentAccount(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('updatePaymentAccountConnection', (t) =>
  t.field({
    type: AccountPayload,
    description: "Replaces an account's credentials (all of them: every required field) and/or its settings; the old credentials are gone at once and never returned",
    args: {
      token: t.arg.string({ required: true }),
      credentials: t.arg({ type: 'JSON', description: 'An object of strings; null or absent keeps the current credentials' }),
      settings: t.arg({ type: 'JSON', description: 'An object; null or absent keeps the current settings' }),
    },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({
        paymentAccount: await updatePaymentAccountConnection(ctx.services, actingWorkspace(ctx), args.token, { credentials: args.credentials, settings: args.settings }),
      })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('setInstallmentPlan', (t) =>
  t.field({
    type: AccountPayload,
    description: "Replaces an account's installment plan: the counts offered with their total surcharge, and the card programs that may pay in installments",
    args: {
      token: t.arg.string({ required: true }),
      rates: t.arg({ type: 'JSON', description: 'Count (2-12) to total surcharge in percent, e.g. {"3": "4.5"}; the counts given are the ones offered; null or {}: every count at the default rates' }),
      programs: t.arg.stringList({ description: 'Card programs (BIN facts) allowed installments, e.g. ["Bonus"]; null or []: any card' }),
    },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => ({ paymentAccount: await setInstallmentPlan(ctx.services, actingWorkspace(ctx), args.token, { rates: args.rates ?? null, programs: args.programs ?? null }) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('setBinSource', (t) =>
  t.field({
    type: WorkspacePayload,
    description: "The account whose provider answers BIN lookups; null: the default account's",
    args: { token: t.arg.string() },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setBinSource(ctx.services, actingWorkspace(ctx), args.token ?? null) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('setDefaultPaymentAccount', (t) =>
  t.field({
    type: WorkspacePayload,
    description: 'The account used when no routing rule matches',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setDefaultPaymentAccount(ctx.services, actingWorkspace(ctx), args.token) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('addRoutingRule', (t) =>
  t.field({
    type: RulePayload,
    description: 'Appends a rule after the existing ones',
    args: { input: t.arg({ type: AddRoutingRuleInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ routingRule: await addWorkspaceRoutingRule(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('removeRoutingRule', (t) =>
  t.field({
    type: RulePayload,
    description: 'Deletes a rule; returns it as it was',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ routingRule: await removeWorkspaceRoutingRule(ctx.services, actingWorkspace(ctx), String(args.id)) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('setWorkspaceMode', (t) =>
  t.field({
    type: WorkspacePayload,
    description: 'test or live',
    args: { mode: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setWorkspaceMode(ctx.services, actingWorkspace(ctx), args.mode) })) as Promise<SettingsShape>,
  }),
);

builder.mutationField('setUnknownKeys', (t) =>
  t.field({
    type: WorkspacePayload,
    description: 'reject or ignore: what REST calls do with a body key the operation does not know; applies from the next call',
    args: { policy: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setWorkspaceUnknownKeys(ctx.services, actingWorkspace(ctx), args.policy) })) as Promise<SettingsShape>,
  }),
);
