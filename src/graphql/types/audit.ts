// The audit trail, read-only: owners page through their workspace's entries, support staff through
// every entry; both may take the same selection as CSV. No mutation touches an entry.
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import { connectionOf, DateRangeFilter, page } from '../lists.ts';
import { auditCsv, auditRows, auditWhere, AUDIT_CSV_LIMIT, type AuditFilter } from '../../domain/audit.ts';

builder.prismaObject('AuditEntry', {
  description: 'One audited operation: a write made with a dashboard token, an attempt refused by role, or a support read',
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    workspaceId: t.exposeString('workspaceId', { nullable: true, description: 'The workspace acted on; null for a support read' }),
    tokenId: t.exposeString('tokenId'),
    tokenName: t.exposeString('tokenName', { description: 'The token’s name when the entry was written' }),
    role: t.exposeString('role', { description: 'The token’s role when the entry was written' }),
    requestId: t.exposeString('requestId', { nullable: true }),
    operation: t.exposeString('operation', { description: 'The mutation (refundPayment), or the operation name of a support read' }),
    outcome: t.exposeString('outcome', { description: 'done (the write ran), forbidden (refused by role) or read (a support read)' }),
    variables: t.expose('variables', { type: 'JSON', description: 'What was sent, with secrets, credentials and card data removed' }),
  }),
});

const AuditFilterInput = builder.inputType('AuditFilter', {
  fields: (t) => ({
    operation: t.string({ description: 'Exactly this operation (e.g. refundPayment)' }),
    tokenId: t.string({ description: 'Entries of this token (a malformed id matches none)' }),
    created: t.field({ type: DateRangeFilter, description: 'Written within this range' }),
  }),
});

type FilterArg = { operation?: string | null; tokenId?: string | null; created?: { from?: Date | null; to?: Date | null } | null } | null | undefined;

const toFilter = (f: FilterArg): AuditFilter => ({ operation: f?.operation, tokenId: f?.tokenId, from: f?.created?.from, to: f?.created?.to });

builder.queryField('auditEntries', (t) =>
  t.prismaConnection(
    {
      type: 'AuditEntry',
      cursor: 'id',
      nullable: false,
      description: "The audit trail newest first: the workspace's for an owner, every entry for support",
      args: { filter: t.arg({ type: AuditFilterInput }) },
      resolve: (query, _r, args, ctx) =>
        ctx.services.db.auditEntry.findMany({
          ...page(query),
          where: auditWhere(readableWorkspaceId(ctx), toFilter(args.filter)),
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        }),
    },
    ...connectionOf('AuditEntry'),
  ),
);

builder.queryField('auditCsv', (t) =>
  t.string({
    nullable: false,
    description: `The audit entries the filter selects as CSV (newest first, at most ${AUDIT_CSV_LIMIT} rows)`,
    args: { filter: t.arg({ type: AuditFilterInput }) },
    resolve: async (_r, args, ctx) => auditCsv(await auditRows(ctx.services.db, readableWorkspaceId(ctx), toFilter(args.filter))),
  }),
);
