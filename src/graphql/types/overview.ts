// The dashboard's overview (domain/overview.ts): one query, figures per currency and per day.
// Amounts leave as decimal strings (two decimals, as everywhere at the edges); the page formats
// them with Intl in the reader's language.
import { GraphQLError } from 'graphql';
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import type { GraphQLContext } from '../context.ts';
import { overviewOf, type CurrencyOverview, type Overview, type OverviewDay } from '../../domain/overview.ts';
import { ValidationError } from '../../domain/errors.ts';
import { formatAmount } from '../../domain/money.ts';
import { message } from '../../domain/messages.ts';
import { localizedError } from '../../domain/payments/view.ts';
import { workspaceNow } from '../../domain/workspace-clock.ts';

const OverviewDayRef = builder.objectRef<OverviewDay>('OverviewDay').implement({
  description: 'One calendar day of the workspace time zone, in one currency',
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD in the workspace time zone' }),
    volume: t.string({ description: 'Amount of the successful payments created that day', resolve: (d) => formatAmount(d.volume) }),
    count: t.exposeInt('count', { description: 'Successful payments created that day' }),
    failed: t.exposeInt('failed', { description: 'Failed or expired payments created that day' }),
    refundAmount: t.string({ description: 'Succeeded refunds and cancels made that day', resolve: (d) => formatAmount(d.refundAmount) }),
    refundCount: t.exposeInt('refundCount'),
  }),
});

const CurrencyOverviewRef = builder.objectRef<CurrencyOverview>('CurrencyOverview').implement({
  description: 'The period in one currency (currencies are never added together)',
  fields: (t) => ({
    currency: t.exposeString('currency'),
    volume: t.string({ resolve: (c) => formatAmount(c.volume) }),
    count: t.exposeInt('count'),
    failed: t.exposeInt('failed'),
    successRate: t.float({ nullable: true, description: 'successful / (successful + failed + expired), 0 to 1; null when none reached an outcome', resolve: (c) => c.successRate }),
    refundAmount: t.string({ resolve: (c) => formatAmount(c.refundAmount) }),
    refundCount: t.exposeInt('refundCount'),
    daily: t.field({ type: [OverviewDayRef], resolve: (c) => c.daily }),
  }),
});

const DeclineReasonRef = builder.objectRef<Overview['declines'][number]>('DeclineReason').implement({
  fields: (t) => ({
    errorCode: t.exposeString('errorCode'),
    message: t.string({ nullable: false, description: "The reason in the reader's language (Accept-Language)", resolve: (d, _a, ctx) => localizedError(d.errorCode, null, ctx.lang) ?? d.errorCode }),
    count: t.exposeInt('count'),
  }),
});

const RiskStoppedRef = builder.objectRef<Overview['riskStopped'][number]>('RiskStoppedCount').implement({
  fields: (t) => ({
    rule: t.exposeString('rule', { description: 'The rule that refused: luhn, ip_cards, ip_cooldown, block_list_ip, rule:<name>… (FiredRiskRule.rule)' }),
    count: t.exposeInt('count', { description: 'Attempts it refused in the period' }),
  }),
});

const OverviewRef = builder.objectRef<Overview>('Overview').implement({
  description: "A workspace's payments over the last days of its time zone, today included",
  fields: (t) => ({
    days: t.exposeInt('days'),
    timeZone: t.exposeString('timeZone'),
    from: t.exposeString('from', { description: 'First day, YYYY-MM-DD' }),
    to: t.exposeString('to', { description: 'Last day (today), YYYY-MM-DD' }),
    currencies: t.field({ type: [CurrencyOverviewRef], resolve: (o) => o.currencies }),
    declines: t.field({ type: [DeclineReasonRef], description: 'The most frequent error codes of failed payments', resolve: (o) => o.declines }),
    riskStopped: t.field({ type: [RiskStoppedRef], description: 'Attempts the risk decision refused, per rule that refused them, most first', resolve: (o) => o.riskStopped }),
  }),
});

builder.queryField('overview', (t) =>
  t.field({
    type: OverviewRef,
    nullable: true,
    description: 'Volume, counts, success rate, refunds and decline reasons of the last 7, 30 or 90 days (support staff: of the workspace named by workspaceSlug; null when there is none)',
    args: {
      days: t.arg.int({ required: true, description: '7, 30 or 90' }),
      currency: t.arg.string({ description: 'Only this currency (TRY, USD, EUR, GBP)' }),
      workspaceSlug: t.arg.string({ description: 'Support staff only: the workspace to show' }),
    },
    resolve: async (_r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      const db = ctx.services.db;
      const workspace = await db.workspace.findFirst({ where: workspaceId ? { id: workspaceId } : { slug: args.workspaceSlug ?? '' } });
      if (!workspace) return null;
      try {
        return await overviewOf(db, workspace, { days: args.days, currency: args.currency }, workspaceNow(ctx.services, workspace));
      } catch (err) {
        throw err instanceof ValidationError ? badInput(ctx, err) : err;
      }
    },
  }),
);

/** A refused argument as a GraphQL error naming it (extensions.field) in the reader's language. */
function badInput(ctx: GraphQLContext, err: ValidationError): GraphQLError {
  const issue = err.issues[0]!;
  return new GraphQLError(message(issue.code, ctx.lang, issue.params), { extensions: { code: 'BAD_USER_INPUT', field: issue.path.join('.'), http: { status: 422 } } });
}
