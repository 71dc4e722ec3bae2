// Writes the audit trail for operations made with bearer tokens (dashboard and support) and by
// people signed in to the dashboard (with their session and address): each
// mutation that ran or was refused by role (role-plugin.ts calls auditMutation), and each query or
// subscription a support token runs (auditSupportReads, an envelop plugin: support reads may span
// workspaces), and the CSV exports support staff read (auditSupportRead).
// Merchant API calls are not audited here: their payments, refunds and idempotency records are
// their trail, and auditing every payment would add a write to the hot path.
import { getOperationAST, Kind, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { recordAudit, type AuditOutcome } from '../domain/audit.ts';
import { contextLogger } from '../logger.ts';
import { currentRequestId } from '../observability/context.ts';
import type { GraphQLContext } from './context.ts';

/** Records one mutation of a token viewer; an audit write that fails is logged, never undoes the change. */
export async function auditMutation(ctx: GraphQLContext, operation: string, args: unknown, outcome: AuditOutcome): Promise<void> {
  const v = ctx.viewer;
  if (v.kind !== 'dashboard' && v.kind !== 'support') return;
  const workspaceId = v.kind === 'dashboard' ? v.workspace.id : null;
  await record(ctx, { workspaceId, operation, outcome, variables: args });
}

/** A code a person typed that was wrong (or refused by the lockout): the mutation wrote nothing, yet is an entry. */
export async function checkCodeAudit(ctx: GraphQLContext, operation: string, outcome: Extract<AuditOutcome, 'wrong_code' | 'locked'>): Promise<void> {
  await auditMutation(ctx, operation, {}, outcome);
}

/** Support staff's queries and subscriptions, one entry per operation, before it runs. */
export function auditSupportReads(): Plugin {
  const recordRead = async (args: { contextValue: unknown; document: DocumentNode; operationName?: string | null; variableValues?: unknown }) => {
    const ctx = args.contextValue as GraphQLContext;
    if (ctx.viewer?.kind !== 'support') return;
    const op = getOperationAST(args.document, args.operationName);
    if (!op || op.operation === 'mutation') return; // mutations are audited by the roles plugin
    await record(ctx, { workspaceId: null, operation: operationLabel(args.document, args.operationName), outcome: 'read', variables: args.variableValues ?? {} });
  };
  return {
    onExecute: ({ args }) => recordRead(args),
    onSubscribe: ({ args }) => recordRead(args),
  };
}

/** A support token's read outside GraphQL (a CSV export): one entry, like its GraphQL reads. */
export async function auditSupportRead(ctx: GraphQLContext, operation: string, variables: unknown): Promise<void> {
  if (ctx.viewer.kind !== 'support') return;
  await record(ctx, { workspaceId: null, operation, outcome: 'read', variables });
}

/** The operation's name, else its root fields (`payments,workspace`). */
function operationLabel(document: DocumentNode, name: string | null | undefined): string {
  const op = getOperationAST(document, name);
  if (op?.name?.value) return op.name.value;
  const fields = op?.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : [])) ?? [];
  return fields.join(',') || 'query';
}

async function record(ctx: GraphQLContext, entry: { workspaceId: string | null; operation: string; outcome: AuditOutcome; variables: unknown }): Promise<void> {
  const v = ctx.viewer;
  if (v.kind !== 'dashboard' && v.kind !== 'support') return;
  try {
    const person = v.kind === 'dashboard' && v.person ? { id: v.person.id, sessionId: v.person.sessionId, address: v.person.address } : null;
    await recordAudit(ctx.services.db, { ...entry, token: v.token, person, requestId: currentRequestId() ?? null, at: ctx.services.clock.now() });
  } catch (err) {
    contextLogger()?.error('audit entry not written', { operation: entry.operation, error: err instanceof Error ? err.message : String(err) });
  }
}
