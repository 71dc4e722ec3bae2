// Dashboard sessions of people. The browser holds the session id in an HttpOnly cookie; the
// database holds only its SHA-256, so neither a copy of the table nor a log line opens a session.
// A session ends after IDLE_MINUTES without a request, or ABSOLUTE_HOURS after sign-in however
// active, or when revoked (sign-out, from the sessions list, a removed membership, a new password):
// every request reads its row, so an end holds at once in every process, and a NOTIFY closes the
// WebSockets it opened (graphql/yoga.ts).
import { randomBytes } from 'node:crypto';
import { Prisma, type PersonSession, type Person, type Workspace, type Membership } from '../../generated/prisma/client.ts';
import type { Db, Tx } from '../../db/client.ts';
import { NotFoundError } from '../errors.ts';
import { isUuid } from '../validation.ts';
import { newSecret, secretHash } from './tokens.ts';

export const IDLE_MINUTES = 30;
export const ABSOLUTE_HOURS = 12;
/** lastSeenAt is written at most this often (a write per request would cost every read). */
const TOUCH_MS = 60_000;
const MINUTE_MS = 60_000;

/** The NOTIFY channel carrying ended sessions' ids (a JSON array). */
export const SESSIONS_CHANNEL = 'gateway_sessions';

export interface SessionStart {
  personId: string;
  workspaceId: string;
  userAgent: string;
  address: string;
  /** Set when the sign-in gave a second-factor code. */
  secondFactorAt?: Date | null;
}

/** A new session: the secret for the cookie (returned once), the CSRF token and the row. */
export async function startSession(db: Db, start: SessionStart, now: Date): Promise<{ secret: string; session: PersonSession }> {
  const secret = newSecret();
  const session = await db.personSession.create({
    data: {
      ...start,
      userAgent: start.userAgent.slice(0, 300),
      idHash: secretHash(secret),
      csrfToken: randomBytes(24).toString('base64url'),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ABSOLUTE_HOURS * 60 * MINUTE_MS),
    },
  });
  return { secret, session };
}

export type LiveSession = PersonSession & { person: Person; membership: Membership & { workspace: Workspace } };

/** Whether the session may be used at `now`: not revoked, not idle too long, within its absolute lifetime. */
export function sessionUsable(s: Pick<PersonSession, 'revokedAt' | 'lastSeenAt' | 'expiresAt'>, now: Date): boolean {
  return s.revokedAt === null && s.expiresAt > now && now.getTime() - s.lastSeenAt.getTime() < IDLE_MINUTES * MINUTE_MS;
}

/** The session behind a cookie's secret with its person and membership, or null when it has ended. */
export async function sessionFromSecret(db: Db, secret: string, now: Date): Promise<LiveSession | null> {
  const session = await db.personSession.findUnique({ where: { idHash: secretHash(secret) }, include: { person: true } });
  if (!session || !sessionUsable(session, now)) return null;
  const membership = await db.membership.findUnique({ where: { personId_workspaceId: { personId: session.personId, workspaceId: session.workspaceId } }, include: { workspace: true } });
  if (!membership) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_MS) {
    await db.personSession.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  return { ...session, membership };
}

/** Moves a session to another workspace of its person; false when the person is no member there. */
export async function switchWorkspace(db: Db, session: Pick<PersonSession, 'id' | 'personId'>, slug: string): Promise<boolean> {
  const membership = await db.membership.findFirst({ where: { personId: session.personId, workspace: { slug } } });
  if (!membership) return false;
  await db.personSession.update({ where: { id: session.id }, data: { workspaceId: membership.workspaceId } });
  return true;
}

/** A person's sessions still usable, newest first. */
export async function listSessions(db: Db, personId: string, now: Date): Promise<PersonSession[]> {
  const rows = await db.personSession.findMany({ where: { personId, revokedAt: null, expiresAt: { gt: now } }, orderBy: { createdAt: 'desc' } });
  return rows.filter((s) => sessionUsable(s, now));
}

/** Ends one of the person's own sessions (again is harmless). */
export async function revokeSession(db: Db, personId: string, sessionId: string, now: Date): Promise<PersonSession> {
  const found = isUuid(sessionId) ? await db.personSession.findFirst({ where: { id: sessionId, personId } }) : null;
  if (!found) throw NotFoundError.single(['id'], 'session_not_found');
  await endSessions(db, { id: found.id }, now);
  return { ...found, revokedAt: found.revokedAt ?? now };
}

/** Ends the matching sessions and tells every process (their open WebSockets close). */
export async function endSessions(db: Tx, where: Prisma.PersonSessionWhereInput, now: Date): Promise<number> {
  const open = await db.personSession.findMany({ where: { ...where, revokedAt: null }, select: { id: true } });
  if (open.length === 0) return 0;
  const ids = open.map((s) => s.id);
  await db.personSession.updateMany({ where: { id: { in: ids } }, data: { revokedAt: now } });
  // Delivered at commit when inside a transaction, so no socket closes for an end rolled back.
  await db.$executeRaw`SELECT pg_notify(${SESSIONS_CHANNEL}, ${JSON.stringify(ids)})`;
  return ids.length;
}
