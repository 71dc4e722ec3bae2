// GraphQL bearer tokens: create (shown once; only the SHA-256 hash is kept), list, revoke, expiry.
// Every request looks its token up in the database, so a revocation or an expiry holds at once in
// every gateway process.
import type { Db } from '../db/client.ts';
import type { AccessRole, AccessToken, Workspace } from '../generated/prisma/client.ts';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { generateAccessToken, hashToken } from './secrets.ts';
import { z } from 'zod';
import { isUuid, parseInput } from './validation.ts';
import { requireWorkspace } from './workspaces.ts';

/** Support tokens read every workspace: they expire unless told otherwise. */
export const SUPPORT_TOKEN_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A workspace token's role, widest first; what each may change is src/graphql/roles.ts. */
export const WORKSPACE_ROLES = ['owner', 'developer', 'operator', 'viewer'] as const satisfies readonly AccessRole[];
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** A role as typed by a person (CLI, dashboard); anything else is a validation error at `path`. */
export function parseWorkspaceRole(value: unknown, path: (string | number)[] = ['role']): WorkspaceRole {
  if (typeof value === 'string' && (WORKSPACE_ROLES as readonly string[]).includes(value)) return value as WorkspaceRole;
  throw ValidationError.single(path, 'role_invalid');
}

/**
 * Whether `role` gives no more than `own`: an owner gives any role, others their own or viewer
 * (developer and operator are different work, neither wider than the other).
 */
export function roleWithin(role: WorkspaceRole, own: WorkspaceRole): boolean {
  return own === 'owner' || role === own || role === 'viewer';
}

export interface TokenOptions {
  /** A workspace token's role (default owner); support tokens have none. */
  role?: WorkspaceRole;
  /** Days until the token stops working; null: never. Default: 30 for support, never for dashboard. */
  expiresInDays?: number | null;
  clock?: Clock;
}

/** A workspace's dashboard token (an owner unless `role` says otherwise), or (slug null) a read-only support token; returns the token once. */
export async function createAccessToken(db: Db, slug: string | null, name: string, opts: TokenOptions = {}): Promise<string> {
  return (await issueAccessToken(db, slug, name, opts)).token;
}

/** As createAccessToken, with the stored record (id, expiry) beside the token. */
export async function issueAccessToken(db: Db, slug: string | null, name: string, opts: TokenOptions = {}): Promise<{ token: string; record: AccessToken }> {
  const workspace = slug ? await requireWorkspace(db, slug) : null;
  const role: AccessRole = workspace ? (opts.role ?? 'owner') : 'support';
  const days = opts.expiresInDays === undefined ? (workspace ? null : SUPPORT_TOKEN_DAYS) : opts.expiresInDays;
  const now = (opts.clock ?? systemClock).now();
  const token = generateAccessToken(workspace ? 'dash' : 'support');
  const record = await db.accessToken.create({
    data: { workspaceId: workspace?.id ?? null, role, name, tokenHash: hashToken(token), createdAt: now, expiresAt: days === null ? null : new Date(now.getTime() + days * DAY_MS) },
  });
  return { token, record };
}

export type TokenRecord = AccessToken & { workspace: Workspace | null };

const newTokenInput = z.object({
  name: z.string({ error: 'required' }).trim().min(1, { error: 'required' }).max(64, { error: 'too_long' }),
  role: z.enum(WORKSPACE_ROLES, { error: 'role_invalid' }),
  expiresInDays: z.number({ error: 'token_days_range' }).int({ error: 'token_days_range' }).min(1, { error: 'token_days_range' }).max(3650, { error: 'token_days_range' }).nullish(),
});

/** A new token for the creator's own workspace (dashboard), of the creator's role at most; the token is returned once. */
export async function createWorkspaceToken(db: Db, workspace: Workspace, input: unknown, clock: Clock, creatorRole: WorkspaceRole = 'owner'): Promise<{ token: string; record: TokenRecord }> {
  const { name, role, expiresInDays } = parseInput(newTokenInput, input);
  if (!roleWithin(role, creatorRole)) throw ValidationError.single(['role'], 'role_above_own', { role: creatorRole });
  const issued = await issueAccessToken(db, workspace.slug, name, { role, expiresInDays: expiresInDays ?? null, clock });
  return { token: issued.token, record: { ...issued.record, workspace } };
}

/** Tokens newest first: one workspace's (slug or id), or every token (support and all workspaces). */
/** `within`: only tokens whose role that role could create (a non-owner sees the tokens of its reach). */
export async function listAccessTokens(db: Db, scope: { workspaceId?: string | null; within?: WorkspaceRole } = {}): Promise<TokenRecord[]> {
  const within = scope.within;
  return db.accessToken.findMany({
    where: {
      ...(scope.workspaceId ? { workspaceId: scope.workspaceId } : {}),
      ...(within ? { role: { in: WORKSPACE_ROLES.filter((r) => roleWithin(r, within)) } } : {}),
    },
    include: { workspace: true },
    orderBy: { createdAt: 'desc' },
  });
}

/** Revokes a token (again is harmless); `workspaceId` limits it to that workspace's tokens. */
export async function revokeAccessToken(db: Db, id: string, opts: { workspaceId?: string; clock?: Clock } = {}): Promise<TokenRecord> {
  const found = isUuid(id) ? await db.accessToken.findFirst({ where: { id, ...(opts.workspaceId ? { workspaceId: opts.workspaceId } : {}) } }) : null;
  if (!found) throw NotFoundError.single(['id'], 'access_token_not_found');
  return db.accessToken.update({
    where: { id },
    data: { revokedAt: found.revokedAt ?? (opts.clock ?? systemClock).now() },
    include: { workspace: true },
  });
}

/** Whether a token found by its hash may be used now. */
export function tokenUsable(token: Pick<AccessToken, 'revokedAt' | 'expiresAt'>, now: Date): boolean {
  return token.revokedAt === null && (token.expiresAt === null || token.expiresAt.getTime() > now.getTime());
}
