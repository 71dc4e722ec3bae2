// Who a dashboard request comes from: a bearer token (GraphiQL, automation, support staff), else a
// person's session cookie, else nobody. Cookie-authenticated requests must also carry the
// session's CSRF token in X-CSRF-Token (a page of another site can make the browser send the
// cookie, never read or set that header); bearer requests carry no cookie and need none.
import { timingSafeEqual } from 'node:crypto';
import type { Services } from '../domain/services.ts';
import type { MessageCode } from '../domain/messages.ts';
import { sessionFromSecret } from '../domain/people/sessions.ts';
import type { Viewer } from './context.ts';
import { hashToken } from '../domain/secrets.ts';
import { tokenUsable } from '../domain/access-tokens.ts';

export const SESSION_COOKIE = 'gw_session';
export const CSRF_HEADER = 'X-CSRF-Token';

export interface Refusal {
  kind: 'refused';
  code: Extract<MessageCode, 'auth_invalid_token' | 'session_ended' | 'csrf_invalid'>;
  status: 401 | 403;
}

export interface RequestCredentials {
  authorization?: string | null;
  cookie?: string | null;
  csrf?: string | null;
  /** False only for reads outside GraphQL that change nothing (GET of a CSV export). */
  needsCsrf: boolean;
}

/** Resolves `Authorization: Bearer <token>`; no header is anonymous, a bad one is a 401. */
export async function viewerFromToken(services: Services, authorization: string | null | undefined): Promise<Viewer | null> {
  if (!authorization) return { kind: 'anonymous' };
  const m = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!m) return null;
  const token = await services.db.accessToken.findUnique({ where: { tokenHash: hashToken(m[1]!) }, include: { workspace: true } });
  if (!token || !tokenUsable(token, services.clock.now())) return null;
  const identity = { id: token.id, name: token.name, role: token.role };
  if (token.role === 'support') return { kind: 'support', token: identity };
  if (!token.workspace) return null;
  return { kind: 'dashboard', workspace: token.workspace, token: identity };
}

export async function resolveViewer(services: Services, c: RequestCredentials): Promise<Viewer | Refusal> {
  if (c.authorization) return (await viewerFromToken(services, c.authorization)) ?? refused('auth_invalid_token', 401);
  const secret = cookieValue(c.cookie, SESSION_COOKIE);
  if (!secret) return { kind: 'anonymous' };
  const session = await sessionFromSecret(services.db, secret, services.clock.now());
  if (!session) return refused('session_ended', 401);
  if (c.needsCsrf && !sameText(c.csrf, session.csrfToken)) return refused('csrf_invalid', 403);
  return {
    kind: 'dashboard',
    workspace: session.membership.workspace,
    token: { id: session.id, name: session.person.email, role: session.membership.role },
    person: { id: session.personId, email: session.person.email, sessionId: session.id, address: session.address, twoFactor: session.person.totpEnabledAt !== null, secondFactorAt: session.secondFactorAt },
  };
}

/** The viewer with the address of the request at hand (a session's own is where it signed in). */
export function atAddress(viewer: Viewer, address: string | undefined): Viewer {
  return viewer.kind === 'dashboard' && viewer.person && address ? { ...viewer, person: { ...viewer.person, address } } : viewer;
}

export const isRefusal = (v: Viewer | Refusal): v is Refusal => v.kind === 'refused';

const refused = (code: Refusal['code'], status: Refusal['status']): Refusal => ({ kind: 'refused', code, status });

/** A cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim()) || null;
  }
  return null;
}

function sameText(given: string | null | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
