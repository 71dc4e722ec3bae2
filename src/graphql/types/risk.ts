// The risk decision of a payment (Payment.risk, src/domain/risk/judge.ts), the workspace's
// card-testing guard settings, changed with one mutation, its block and allow lists and its own rules. Resolvers only read the record or call
// src/domain/risk/settings.ts, lists.ts and rules.ts; writes act for the caller's own workspace.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { WorkspaceRecord } from './workspace.ts';
import { PaymentRecord } from './payment-records.ts';
import { GUARD_RANGES, setGuardSettings, type GuardThreshold } from '../../domain/risk/settings.ts';
import type { FiredRule, RiskRecord } from '../../domain/risk/judge.ts';
import type { Payment, RiskListEntry, RiskRule, Workspace } from '../../generated/prisma/client.ts';
import { RULE_FIELDS, parseRuleTest, removeRule, saveRule, testConditions, type Condition } from '../../domain/risk/rules.ts';
import { SAMPLE_SIZE, testOnStoredAttempts, type PastTest } from '../../domain/risk/rule-test.ts';
import { addListEntry, removeListEntry } from '../../domain/risk/lists.ts';

type Figures = RiskRecord['figures'][number];

const RiskRuleRef = builder.objectRef<FiredRule>('FiredRiskRule').implement({
  description: 'A rule that fired on the payment',
  fields: (t) => ({
    rule: t.exposeString('rule', { description: 'luhn; ip_cards, ip_cards_3ds, ip_declines, target_declines, workspace_declines; ip_cooldown, target_cooldown, workspace_cooldown' }),
    outcome: t.exposeString('outcome', { description: 'block or require_3ds' }),
    saw: t.exposeInt('saw', { nullable: true, description: 'The figure the rule read (null for the Luhn check and cool-downs)' }),
    threshold: t.exposeInt('threshold', { nullable: true, description: 'The threshold it met' }),
  }),
});

const RiskFiguresRef = builder.objectRef<Figures>('RiskFigures').implement({
  description: "One source's counts within the guard's window when the payment was judged",
  fields: (t) => ({
    source: t.string({ description: "ip (the shopper's address), target (the link or page), workspace", resolve: (f) => f.kind }),
    cards: t.exposeInt('cards', { nullable: true, description: 'Distinct cards, this one included (not counted for the workspace)' }),
    declines: t.exposeInt('declines', { description: 'Payments that reached a bank and failed' }),
    coolingDown: t.exposeBoolean('coolingDown', { description: 'A rule of this source had blocked within its cool-down' }),
    countAgeMs: t.int({
      nullable: true,
      description: "Null when the source was counted for this payment. Otherwise the figures are an earlier count's that the gateway process remembered (a quiet address's repeated card, the workspace's own figures), and this is how many milliseconds old that count was",
      resolve: (f) => f.countAgeMs ?? null,
    }),
  }),
});

const PaymentRiskRef = builder.objectRef<RiskRecord>('PaymentRisk').implement({
  description: 'The risk decision taken before the bank was asked',
  fields: (t) => ({
    outcome: t.exposeString('outcome', { description: 'allow, block, or require_3ds (met by a secure payment; a regular one is refused with 3ds_required)' }),
    source: t.exposeString('source', { description: "The attempt's source: api, order, payment_link, subscription, or renewal" }),
    guarded: t.exposeBoolean('guarded', { description: 'Whether the card-testing guard counted the attempt' }),
    ipCountry: t.string({ nullable: true, description: "The country of the shopper's IPv4 address (ISO 3166-1 alpha-2), from an offline table; null when unknown", resolve: (r) => r.ipCountry ?? null }),
    cardCountry: t.string({ nullable: true, description: "The country that issued the card (ISO 3166-1 alpha-2), from the workspace's BIN source: TR for a BIN it knows with a Turkish bank code; null when unknown", resolve: (r) => r.cardCountry ?? null }),
    rules: t.field({ type: [RiskRuleRef], resolve: (r) => r.rules }),
    figures: t.field({ type: [RiskFiguresRef], resolve: (r) => r.figures }),
  }),
});

builder.prismaObjectField('Payment', 'risk', (t) =>
  t.field({
    type: PaymentRiskRef,
    nullable: true,
    description: 'The risk decision, the rules that fired and the figures they saw; null for payments made before decisions were kept',
    select: { risk: true },
    resolve: (p) => (p.risk as RiskRecord | null) ?? null,
  }),
);

const DESCRIPTIONS: Record<GuardThreshold, string> = {
  riskWindowSeconds: 'The window the guard counts attempts in, in seconds',
  riskCooldownSeconds: 'How long a source a rule blocked stays blocked, in seconds',
  riskIpCards: 'Distinct cards from one address within the window that block the attempt (this card included; 0: off)',
  riskIpCardsFor3ds: 'Distinct cards from one address that require 3-D Secure (regular payments are refused; 0: off)',
  riskIpDeclines: 'Bank refusals of attempts from one address within the window that block the next (0: off)',
  riskTargetDeclines: 'Bank refusals on one payment link or page within the window that block the next (0: off)',
  riskWorkspaceDeclines: 'Bank refusals in the whole workspace within the window that block the next (0: off)',
};

builder.prismaObjectField('Workspace', 'riskGuard', (t) => t.exposeBoolean('riskGuard', { description: 'The card-testing guard counts and judges shoppers’ attempts (default on)' }));
for (const [key, range] of Object.entries(GUARD_RANGES) as Array<[GuardThreshold, (typeof GUARD_RANGES)[GuardThreshold]]>) {
  builder.prismaObjectField('Workspace', key, (t) => t.exposeInt(key, { description: `${DESCRIPTIONS[key]} (${range.min}-${range.max}, default ${range.default})` }));
}

const RiskGuardInput = builder.inputType('RiskGuardInput', {
  description: 'The guard settings to change; absent or null keeps the current value',
  fields: (t) => ({
    riskGuard: t.boolean({ description: 'On or off' }),
    ...(Object.fromEntries(Object.keys(GUARD_RANGES).map((key) => [key, t.int({ description: DESCRIPTIONS[key as GuardThreshold] })])) as Record<GuardThreshold, ReturnType<typeof t.int>>),
  }),
});

interface RiskGuardPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  workspace?: Workspace;
}

const RiskGuardPayload = builder.objectRef<RiskGuardPayloadShape>('RiskGuardPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    workspace: t.field({ type: WorkspaceRecord, nullable: true, resolve: (p) => p.workspace ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('setRiskGuard', (t) =>
  t.field({
    type: RiskGuardPayload,
    description: 'Turns the card-testing guard on or off and changes its thresholds for the caller’s workspace',
    args: { input: t.arg({ type: RiskGuardInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setGuardSettings(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<RiskGuardPayloadShape>,
  }),
);

const RiskListEntryRecord = builder.prismaObject('RiskListEntry', {
  description: 'A block or allow list entry of the workspace (an allow entry that matches wins)',
  fields: (t) => ({
    id: t.exposeString('id'),
    list: t.exposeString('list', { description: 'block or allow' }),
    kind: t.exposeString('kind', { description: 'bin (a 6-8 digit prefix), card (a payment’s card, by fingerprint), ip (an address or CIDR range), email, domain (of the e-mail address)' }),
    value: t.exposeString('value', { description: 'What is matched; for a card, its fingerprint (never the number)' }),
    note: t.exposeString('note', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Workspace', 'riskList', (t) =>
  t.relation('riskListEntries', { description: 'The block and allow list entries, newest first', query: { orderBy: { createdAt: 'desc' } } }),
);

const RiskListEntryInput = builder.inputType('RiskListEntryInput', {
  fields: (t) => ({
    list: t.string({ required: true, description: 'block or allow' }),
    kind: t.string({ required: true, description: 'bin, card, ip, email or domain' }),
    value: t.string({ required: true, description: 'The BIN prefix, a payment token (card: that payment’s card is listed), an address or CIDR range, an e-mail address, a domain' }),
    note: t.string({ description: 'Why, for the team' }),
  }),
});

interface RiskListPayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  entry?: RiskListEntry;
}

const RiskListPayload = builder.objectRef<RiskListPayloadShape>('RiskListPayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    entry: t.field({ type: RiskListEntryRecord, nullable: true, resolve: (p) => p.entry ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('addRiskListEntry', (t) =>
  t.field({
    type: RiskListPayload,
    description: 'Adds a block or allow list entry to the caller’s workspace (an existing one is kept)',
    args: { input: t.arg({ type: RiskListEntryInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ entry: await addListEntry(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<RiskListPayloadShape>,
  }),
);

builder.mutationField('removeRiskListEntry', (t) =>
  t.field({
    type: RiskListPayload,
    description: 'Removes a block or allow list entry of the caller’s workspace',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => (await removeListEntry(ctx.services, actingWorkspace(ctx), args.id), {})) as Promise<RiskListPayloadShape>,
  }),
);

const RiskConditionRef = builder.objectRef<Condition>('RiskCondition').implement({
  fields: (t) => ({
    field: t.exposeString('field', { description: `One of: ${Object.keys(RULE_FIELDS).join(', ')}` }),
    operator: t.exposeString('operator', { description: 'eq, ne, gt, gte, lt, lte, in, not_in (numbers); eq, ne, in, not_in, starts_with (text)' }),
    value: t.field({ type: 'JSON', description: 'A value, or a list for in / not_in; amounts in minor units', resolve: (c) => c.value }),
  }),
});

const MerchantRiskRule = builder.prismaObject('RiskRule', {
  description: "A merchant's own risk rule: the first enabled one whose conditions all hold fires",
  fields: (t) => ({
    id: t.exposeString('id'),
    position: t.exposeInt('position'),
    enabled: t.exposeBoolean('enabled'),
    name: t.exposeString('name'),
    outcome: t.exposeString('outcome', { description: 'block, require_3ds or allow' }),
    conditions: t.field({ type: [RiskConditionRef], resolve: (r) => r.conditions as Condition[] }),
  }),
});

builder.prismaObjectField('Workspace', 'riskRules', (t) => t.relation('riskRules', { description: "The merchant's risk rules in order", query: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] } }));

const RiskConditionInput = builder.inputType('RiskConditionInput', {
  fields: (t) => ({
    field: t.string({ required: true }),
    operator: t.string({ required: true }),
    value: t.field({ type: 'JSON', required: true }),
  }),
});

const RiskRuleInput = builder.inputType('RiskRuleInput', {
  description: 'A new rule, or (with id) the rule to change',
  fields: (t) => ({
    id: t.string(),
    name: t.string({ required: true }),
    outcome: t.string({ required: true, description: 'block, require_3ds or allow' }),
    enabled: t.boolean(),
    position: t.int({ description: 'Where it is read (lower first); default: after the others' }),
    conditions: t.field({ type: [RiskConditionInput], required: true }),
  }),
});

interface RiskRulePayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  rule?: RiskRule;
}

const RiskRulePayload = builder.objectRef<RiskRulePayloadShape>('RiskRulePayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    rule: t.field({ type: MerchantRiskRule, nullable: true, resolve: (p) => p.rule ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('saveRiskRule', (t) =>
  t.field({
    type: RiskRulePayload,
    description: 'Creates a risk rule of the caller’s workspace, or changes the one `id` names; each condition is checked at its path',
    args: { input: t.arg({ type: RiskRuleInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ rule: await saveRule(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<RiskRulePayloadShape>,
  }),
);

builder.mutationField('removeRiskRule', (t) =>
  t.field({
    type: RiskRulePayload,
    description: 'Removes a risk rule of the caller’s workspace',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => (await removeRule(ctx.services, actingWorkspace(ctx), args.id), {})) as Promise<RiskRulePayloadShape>,
  }),
);

interface RiskRuleTestShape {
  result: ResultShape;
  errors: UserErrorShape[];
  matches?: boolean;
  holds?: boolean[];
  past?: PastTest & { payments: Payment[] };
}

const RiskRulePastRef = builder.objectRef<PastTest & { payments: Payment[] }>('RiskRulePast').implement({
  description: "What the conditions would have done to the workspace's stored payments of a period",
  fields: (t) => ({
    days: t.exposeInt('days'),
    attempts: t.exposeInt('attempts', { description: 'Payments in the period' }),
    matched: t.exposeInt('matched', { description: 'Those every condition holds for: the rule would have fired on them' }),
    succeeded: t.exposeInt('succeeded', { description: 'Of the matched, those that succeeded' }),
    payments: t.field({ type: [PaymentRecord], description: `The latest matched payments, newest first (at most ${SAMPLE_SIZE})`, resolve: (p) => p.payments }),
  }),
});

const RiskRuleTestRef = builder.objectRef<RiskRuleTestShape>('RiskRuleTest').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors, description: 'A condition or field that cannot be tried, at its path' }),
    matches: t.boolean({ nullable: true, description: 'Whether every condition holds for the attempt: the rule would fire', resolve: (p) => p.matches ?? null }),
    holds: t.booleanList({ nullable: true, description: 'Each condition, in order, for the attempt', resolve: (p) => p.holds ?? null }),
    past: t.field({ type: RiskRulePastRef, nullable: true, description: 'With days: the stored payments of that period', resolve: (p) => p.past ?? null }),
  }),
});

builder.queryField('riskRuleTest', (t) =>
  t.field({
    type: RiskRuleTestRef,
    description: 'Tries conditions against an attempt described by its fields ({"amount": 60000, "card.scheme": "visa"}) and/or the payments stored over the last 7, 30 or 90 days; nothing is charged or written',
    args: {
      conditions: t.arg({ type: [RiskConditionInput], required: true }),
      attempt: t.arg({ type: 'JSON' }),
      days: t.arg.int({ description: '7, 30 or 90' }),
    },
    resolve: (_r, args, ctx) =>
      payload(ctx, async () => {
        const test = parseRuleTest({ conditions: args.conditions, attempt: args.attempt, days: args.days });
        const described = test.attempt ? testConditions(test.conditions, test.attempt) : {};
        if (!test.days) return described;
        const workspace = actingWorkspace(ctx);
        const past = await testOnStoredAttempts(ctx.services.db, workspace.id, test.conditions, test.days, ctx.services.clock.now());
        const rows = await ctx.services.db.payment.findMany({ where: { id: { in: past.sample }, workspaceId: workspace.id } });
        const payments = past.sample.map((id) => rows.find((r) => r.id === id)).filter((r): r is Payment => r !== undefined);
        return { ...described, past: { ...past, payments } };
      }) as Promise<RiskRuleTestShape>,
  }),
);
