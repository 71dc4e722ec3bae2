// The audit trail, read-only: owners page through their workspace's entries, support staff through
// every entry; both may take the same selection as CSV. No mutation touches an entry.
import { builder } from '../builder.ts';
import { readableWorkspaceId } from '../auth.ts';
import { connectionOf, DateRangeFilter, page } from '../lists.ts';
import { auditCsv, auditRows, auditWhere, AUDIT_CSV_LIMIT, type AuditFilter } from '../../domain/audit.ts';

builder.prismaObject('AuditEntry', {
  description: 'One audited operation: a write made with a dashboard token or by a person, an attempt refused by role, a support read, or a sign-in',
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    workspaceId: t.exposeString('workspaceId', { nullable: true, description: 'The workspace acted on; null for a support read' }),
    tokenId: t.exposeString('tokenId', { nullable: true, description: 'The token used; null when a person acted' }),
    tokenName: t.exposeString('tokenName', { description: 'The token’s name, or the person’s e-mail, when the entry was written' }),
    role: t.exposeString('role', { description: 'The token’s or the person’s role when the entry was written' }),
    personId: t.exposeString('personId', { nullable: true, description: 'The person who acted (signed in to the dashboard); null for a token' }),
    sessionId: t.exposeString('sessionId', { nullable: true, description: 'The person’s session used; null for a token and a failed sign-in' }),
    address: t.exposeString('address', { nullable: true, description: 'The address the person acted from' }),
    requestId: t.exposeString('requestId', { nullable: true }),
    operation: t.exposeString('operation', { description: 'The mutation (refundPayment), or the operation name of a support read' }),
    outcome: t.exposeString('outcome', { description: 'done (the write ran or the sign-in succeeded), forbidden (refused by role), read (a support read), failed (a wrong password), locked (a sign-in refused after too many failures)' }),
    variables: t.expose('variables', { type: 'JSON', description: 'What was sent, with secrets, credentials and card data removed' }),
  }),
});

const AuditFilterInput = builder.inputType('AuditFilter', {
  fields: (t) => ({
    operation: t.string({ description: 'Exactly this operation (e.g. refundPayment)' }),
    tokenId: t.string({ description: 'Entries of this token (a malformed id matches none)' }),
    personId: t.string({ description: 'Entries of this person (a malformed id matches none)' }),
    created: t.field({ type: DateRangeFilter, description: 'Written within this range' }),
  }),
});

type FilterArg = { operation?: string | null; tokenId?: string | null; personId?: string | null; created?: { from?: Date | null; to?: Date | null } | null } | null | undefined;

const toFilter = (f: FilterArg): AuditFilter => ({ operation: f?.operation, tokenId: f?.tokenId, personId: f?.personId, from: f?.created?.from, to: f?.created?.to });

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
