// The audit trail: who (a token, or a person with the session and address used) changed what
// through the dashboard's GraphQL (and the CLI's risk rule and list changes), sign-ins and failed sign-ins, who was refused, and what
// support staff read. Rows are only ever inserted (no update or delete path exists here, and a
// database trigger refuses both), so an entry keeps the token's name and role as they were.
// What is kept of the input is scrubbed first: secrets, credentials and card data never reach it.
import type { Db } from '../db/client.ts';
import type { AccessRole, AuditEntry, Prisma } from '../generated/prisma/client.ts';
import { SECRET_KEYS } from '../logger.ts';
import { maskCardValue } from './card-masking.ts';
import { isUuid } from './validation.ts';

/**
 * done, forbidden (by role), read (support), code_asked (a fresh second-factor code was asked
 * first); sign-ins and codes: done, failed (wrong password), wrong_code, locked (too many failures).
 */
export type AuditOutcome = 'done' | 'forbidden' | 'read' | 'failed' | 'wrong_code' | 'code_asked' | 'locked';

export interface AuditRecord {
  workspaceId: string | null;
  /**
   * The token used; for a person, their e-mail as `name` and their role (the id is not stored); for
   * the CLI (src/cli/audit.ts), no id and the account it ran under.
   */
  token: { id: string | null; name: string; role: AccessRole };
  /** Set when a person acted: who (null: a sign-in with an e-mail nobody has), from which session (null for a failed sign-in) and address. */
  person?: { id: string | null; sessionId: string | null; address: string } | null;
  requestId?: string | null;
  /** The mutation field (refundPayment) or, for a read, the operation's name or root fields. */
  operation: string;
  outcome: AuditOutcome;
  /** Arguments or variables as sent; scrubbed here before they are stored. */
  variables: unknown;
  at: Date;
}

export const REMOVED = '[removed]';

/** Keys whose whole value is dropped: the logger's secret names, plus a card and its parts. */
const DROPPED_KEYS = new Set([...SECRET_KEYS, 'invitationToken', 'resetToken', 'code', 'currentPassword', 'newPassword', 'card', 'cvc2', 'expireMonth', 'expireYear', 'expiry', 'cardHolderName', 'holderName'].map((k) => k.toLowerCase()));

/**
 * A JSON copy of `value` without secrets: values under a secret, credential or card key become
 * "[removed]", and a card number left in a string (card-masking.ts: typed with spaces or dashes
 * too) is masked, or removed when it is a bare number; references stay readable.
 */
export function scrubForAudit(value: unknown, depth = 0, key = ''): Prisma.InputJsonValue {
  if (depth > 12) return REMOVED;
  if (value === null || value === undefined) return null as unknown as Prisma.InputJsonValue;
  if (typeof value === 'string') return maskCardValue(key, value);
  if (typeof value === 'number') return maskCardValue(key, String(value)) === String(value) ? value : REMOVED;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return maskCardValue(key, value.toString());
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => scrubForAudit(v, depth + 1, key));
  if (typeof value === 'object') {
    const out: Record<string, Prisma.InputJsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = DROPPED_KEYS.has(k.toLowerCase()) ? REMOVED : scrubForAudit(v, depth + 1, k);
    return out;
  }
  return REMOVED;
}

export async function recordAudit(db: Db, entry: AuditRecord): Promise<AuditEntry> {
  return db.auditEntry.create({
    data: {
      workspaceId: entry.workspaceId,
      tokenId: entry.person ? null : entry.token.id,
      tokenName: entry.token.name,
      role: entry.token.role,
      personId: entry.person?.id ?? null,
      sessionId: entry.person?.sessionId ?? null,
      address: entry.person?.address ?? null,
      requestId: entry.requestId ?? null,
      operation: entry.operation.slice(0, 200),
      outcome: entry.outcome,
      variables: scrubForAudit(entry.variables ?? {}),
      createdAt: entry.at,
    },
  });
}

export interface AuditFilter {
  operation?: string | null;
  tokenId?: string | null;
  personId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

/** The Prisma `where` of an audit list: one workspace (null: every entry, for support) and the filter (an empty range matches nothing). */
export function auditWhere(workspaceId: string | null, filter: AuditFilter = {}): Prisma.AuditEntryWhereInput {
  return {
    ...(workspaceId ? { workspaceId } : {}),
    ...(filter.operation ? { operation: filter.operation } : {}),
    ...(filter.tokenId ? { tokenId: isUuid(filter.tokenId) ? filter.tokenId : { in: [] } } : {}),
    ...(filter.personId ? { personId: isUuid(filter.personId) ? filter.personId : { in: [] } } : {}),
    ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
  };
}

/** At most this many rows go into one CSV export (newest first); narrow the filter for older ones. */
export const AUDIT_CSV_LIMIT = 10_000;

export async function auditRows(db: Db, workspaceId: string | null, filter: AuditFilter, take = AUDIT_CSV_LIMIT): Promise<AuditEntry[]> {
  return db.auditEntry.findMany({ where: auditWhere(workspaceId, filter), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take });
}

const CSV_COLUMNS = ['time', 'operation', 'outcome', 'token_id', 'token_name', 'role', 'request_id', 'workspace_id', 'variables', 'person_id', 'session_id', 'address'] as const;

/** RFC 4180 text; a cell starting with = + - @ gets a leading ' so a spreadsheet shows it as text. */
export function auditCsv(rows: readonly AuditEntry[]): string {
  const cell = (v: string | null) => {
    const text = v === null ? '' : /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = rows.map((r) =>
    [r.createdAt.toISOString(), r.operation, r.outcome, r.tokenId, r.tokenName, r.role, r.requestId, r.workspaceId, JSON.stringify(r.variables), r.personId, r.sessionId, r.address].map(cell).join(','),
  );
  return [CSV_COLUMNS.join(','), ...lines].join('\r\n') + '\r\n';
}
