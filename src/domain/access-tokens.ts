// GraphQL bearer tokens: create (shown once; only the SHA-256 hash is kept), list, revoke, expiry.
// Every request looks its token up in the database, so a revocation or an expiry holds at once in
// every gateway process.
import type { Db } from '../db/client.ts';
import type { AccessToken, Workspace } from '../generated/prisma/client.ts';
import type { Clock } from './clock.ts';
import { systemClock } from './clock.ts';
import { NotFoundError } from './errors.ts';
import { generateAccessToken, hashToken } from './secrets.ts';
import { isUuid } from './validation.ts';
import { requireWorkspace } from './workspaces.ts';

/** Support tokens read every workspace: they expire unless told otherwise. */
export const SUPPORT_TOKEN_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface TokenOptions {
  /** Days until the token stops working; null: never. Default: 30 for support, never for dashboard. */
  expiresInDays?: number | null;
  clock?: Clock;
}

/** A workspace's dashboard token, or (slug null) a read-only support token; returns the token once. */
export async function createAccessToken(db: Db, slug: string | null, name: string, opts: TokenOptions = {}): Promise<string> {
  return (await issueAccessToken(db, slug, name, opts)).token;
}

/** As createAccessToken, with the stored record (id, expiry) beside the token. */
export async function issueAccessToken(db: Db, slug: string | null, name: string, opts: TokenOptions = {}): Promise<{ token: string; record: AccessToken }> {
  const workspace = slug ? await requireWorkspace(db, slug) : null;
  const role = workspace ? 'dashboard' : 'support';
  const days = opts.expiresInDays === undefined ? (workspace ? null : SUPPORT_TOKEN_DAYS) : opts.expiresInDays;
  const now = (opts.clock ?? systemClock).now();
  const token = generateAccessToken(workspace ? 'dash' : 'support');
  const record = await db.accessToken.create({
    data: { workspaceId: workspace?.id ?? null, role, name, tokenHash: hashToken(token), createdAt: now, expiresAt: days === null ? null : new Date(now.getTime() + days * DAY_MS) },
  });
  return { token, record };
}

export type TokenRecord = AccessToken & { workspace: Workspace | null };

/** Tokens newest first: one workspace's (slug or id), or every token (support and all workspaces). */
export async function listAccessTokens(db: Db, scope: { workspaceId?: string | null } = {}): Promise<TokenRecord[]> {
  return db.accessToken.findMany({
    where: scope.workspaceId ? { workspaceId: scope.workspaceId } : {},
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
