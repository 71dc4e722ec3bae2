// What the risk decision stopped, read only: the sources the card-testing guard blocked
// (src/domain/risk/sources.ts; the record a `risk_source.blocked` event names by its token) and
// the attempts it refused, with their reasons on each payment's `risk`.
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import { isUuid } from '../../domain/validation.ts';
import { PaymentRecord } from './payment-records.ts';
import { STOPPED_CODES } from '../../domain/risk/judge.ts';

const RiskSourceRecord = builder.prismaObject('RiskSource', {
  description: 'A source the card-testing guard blocked: its latest block',
  fields: (t) => ({
    token: t.exposeString('id', { description: 'The token a risk_source.blocked event names' }),
    kind: t.exposeString('kind', { description: "ip (the shopper's address), target (a payment link, order or subscription page), workspace" }),
    key: t.exposeString('key', { description: 'The address, the page’s record token, or the workspace id' }),
    rule: t.exposeString('rule', { description: 'The guard rule that started the block: ip_cards, ip_declines, target_declines, workspace_declines' }),
    paymentToken: t.exposeString('paymentId', { description: 'The attempt that started it (a failed payment)' }),
    blockedAt: t.expose('blockedAt', { type: 'DateTime', description: 'When the latest block started; it lasts the cool-down after the source’s last blocked attempt' }),
    blocks: t.exposeInt('blocks', { description: 'How many blocks the source has started' }),
  }),
});

builder.prismaObjectField('Workspace', 'riskSources', (t) =>
  t.relation('riskSources', { description: 'Sources the card-testing guard blocked, latest block first', args: { first: t.arg.int() }, query: (args) => ({ orderBy: { blockedAt: 'desc' }, take: Math.min(Math.max(args.first ?? 50, 1), 200) }) }),
);

builder.queryField('riskSource', (t) =>
  t.prismaField({
    type: RiskSourceRecord,
    nullable: true,
    description: 'A blocked source by the token of its risk_source.blocked event',
    args: { token: t.arg.string({ required: true }) },
    resolve: (query, _r, args, ctx) => {
      const workspaceId = readableWorkspaceId(ctx);
      if (!isUuid(args.token)) return null;
      return ctx.services.db.riskSource.findFirst({ ...query, where: { id: args.token, ...(workspaceId ? { workspaceId } : {}) } });
    },
  }),
);

builder.queryField('riskStoppedPayments', (t) =>
  t.prismaField({
    type: [PaymentRecord],
    description: `Attempts the risk decision refused (error_code ${STOPPED_CODES.join(', ')}), newest first; their reasons are on risk.rules`,
    args: { first: t.arg.int({ description: 'How many (1-200, default 50)' }), workspaceSlug: t.arg.string({ description: 'Support staff: the workspace to read' }) },
    resolve: async (query, _r, args, ctx) => {
      // Support staff read one workspace at a time, by its slug.
      const workspaceId = readableWorkspaceId(ctx) ?? (args.workspaceSlug ? (await ctx.services.db.workspace.findUnique({ where: { slug: args.workspaceSlug }, select: { id: true } }))?.id : null);
      if (!workspaceId) return [];
      return ctx.services.db.payment.findMany({
        ...query,
        where: { workspaceId, errorCode: { in: [...STOPPED_CODES] } },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: Math.min(Math.max(args.first ?? 50, 1), 200),
      });
    },
  }),
);
