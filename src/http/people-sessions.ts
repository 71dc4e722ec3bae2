// Sign-in and sign-out of people (JSON over POST, answered with or clearing the session cookie),
// GET /auth/session: who is signed in, their workspaces and the CSRF token the dashboard sends with
// every request, and POST /auth/workspace: act for another of the person's workspaces. The cookie is HttpOnly (no script reads it), SameSite=Strict (no other site's page
// makes the browser send it) and Secure when the gateway is reached over https. Rules and why:
// docs/decisions.md, "People and sessions".
import type http from 'node:http';
import type { Services } from '../domain/services.ts';
import type { AccessRole } from '../generated/prisma/client.ts';
import { languageFrom, message, type Language } from '../domain/messages.ts';
import { DomainError } from '../domain/errors.ts';
import { recordAudit } from '../domain/audit.ts';
import { ABSOLUTE_HOURS, endSessions, switchWorkspace } from '../domain/people/sessions.ts';
import { SecondFactorNeededError, SignInFailedError, SignInLockedError, signIn } from '../domain/people/sign-in.ts';
import { CSRF_HEADER, SESSION_COOKIE, isRefusal, resolveViewer } from '../graphql/session-viewer.ts';
import { simpleError } from '../rest/errors.ts';
import { clientAddress } from './client-address.ts';
import { currentRequestId } from '../observability/context.ts';

const BODY_LIMIT = 16 * 1024;

export function createSessionRoutes(services: Services, opts: { trustProxy: boolean }) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/auth/sign-in' && path !== '/auth/sign-out' && path !== '/auth/session' && path !== '/auth/workspace') return false;
    const lang = languageFrom(req.headers['accept-language']);
    res.setHeader('Cache-Control', 'no-store');
    const address = clientAddress(req, opts.trustProxy);
    if (path === '/auth/session') {
      if (req.method !== 'GET') return allow(res, 'GET');
      return current(services, req, res, lang);
    }
    if (req.method !== 'POST') return allow(res, 'POST');
    if (path === '/auth/sign-out') return signOut(services, req, res, lang, secure(services, req, opts.trustProxy));
    if (path === '/auth/workspace') return chooseWorkspace(services, req, res, lang);
    // JSON only: a form on another site cannot post JSON without the browser asking first (CORS).
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return send(res, 415, simpleError('body_not_object', lang));
    const body = await readJson(req);
    if (body === undefined) return send(res, 400, simpleError('body_not_object', lang));
    try {
      const signed = await signIn(services, body, { address, userAgent: String(req.headers['user-agent'] ?? '') }, services.clock.now());
      await audit(services, { workspaceId: signed.workspace.id, email: signed.email, role: signed.role, personId: signed.session.personId, sessionId: signed.session.id, address, outcome: 'done' });
      res.setHeader('Set-Cookie', sessionCookie(signed.secret, ABSOLUTE_HOURS * 3600, secure(services, req, opts.trustProxy)));
      return send(res, 200, { email: signed.email, workspace: signed.workspace.slug, role: signed.role, csrfToken: signed.session.csrfToken });
    } catch (err) {
      if (err instanceof SignInLockedError || err instanceof SignInFailedError) await auditFailure(services, body, address, err instanceof SignInLockedError ? 'locked' : 'failed');
      if (err instanceof SecondFactorNeededError) {
        if (err.wrongCode) await auditFailure(services, body, address, 'wrong_code');
        const code = err.wrongCode ? 'code_invalid' : 'second_factor_required';
        return send(res, 401, { secondFactorRequired: true, ...simpleError(code, lang) });
      }
      if (err instanceof SignInLockedError) {
        res.setHeader('Retry-After', String(err.retryAfter));
        return send(res, 429, simpleError('sign_in_locked', lang, { seconds: err.retryAfter }));
      }
      if (err instanceof SignInFailedError) return send(res, 401, simpleError('sign_in_failed', lang));
      if (err instanceof DomainError) return send(res, 422, { result: { successful: false, message: message(err.issues[0]!.code, lang, err.issues[0]!.params) }, errors: Object.fromEntries(err.issues.map((i) => [i.path.join('.'), [message(i.code, lang, i.params)]])) });
      throw err;
    }
  };
}

async function current(services: Services, req: http.IncomingMessage, res: http.ServerResponse, lang: Language): Promise<boolean> {
  const viewer = await resolveViewer(services, { cookie: req.headers.cookie, needsCsrf: false });
  if (isRefusal(viewer) || viewer.kind !== 'dashboard' || !viewer.person) return send(res, 401, simpleError(isRefusal(viewer) ? viewer.code : 'session_ended', lang));
  const session = await services.db.personSession.findUniqueOrThrow({ where: { id: viewer.person.sessionId } });
  const memberships = await services.db.membership.findMany({ where: { personId: viewer.person.id }, include: { workspace: true }, orderBy: { createdAt: 'asc' } });
  return send(res, 200, {
    email: viewer.person.email,
    workspace: viewer.workspace.slug,
    role: viewer.token.role,
    csrfToken: session.csrfToken,
    workspaces: memberships.map((m) => ({ slug: m.workspace.slug, name: m.workspace.name, role: m.role })),
  });
}

/** Ends the cookie's session (with its CSRF token: another site may not sign a person out) and clears the cookie. */
async function signOut(services: Services, req: http.IncomingMessage, res: http.ServerResponse, lang: Language, secureCookie: boolean): Promise<boolean> {
  const viewer = await resolveViewer(services, { cookie: req.headers.cookie, csrf: headerOf(req, CSRF_HEADER), needsCsrf: true });
  if (isRefusal(viewer) && viewer.code === 'csrf_invalid') return send(res, 403, simpleError('csrf_invalid', lang));
  if (!isRefusal(viewer) && viewer.kind === 'dashboard' && viewer.person) await endSessions(services.db, { id: viewer.person.sessionId }, services.clock.now());
  res.setHeader('Set-Cookie', sessionCookie('', 0, secureCookie));
  return send(res, 200, { signedOut: true });
}

/** Moves the cookie's session to another of the person's workspaces (`{"workspace": slug}`, with the CSRF token). */
async function chooseWorkspace(services: Services, req: http.IncomingMessage, res: http.ServerResponse, lang: Language): Promise<boolean> {
  const viewer = await resolveViewer(services, { cookie: req.headers.cookie, csrf: headerOf(req, CSRF_HEADER), needsCsrf: true });
  if (isRefusal(viewer)) return send(res, viewer.status, simpleError(viewer.code, lang));
  if (viewer.kind !== 'dashboard' || !viewer.person) return send(res, 401, simpleError('session_ended', lang));
  const body = await readJson(req);
  const slug = (body as { workspace?: unknown } | undefined)?.workspace;
  if (typeof slug !== 'string' || !(await switchWorkspace(services.db, { id: viewer.person.sessionId, personId: viewer.person.id }, slug))) {
    return send(res, 404, simpleError('member_not_found', lang));
  }
  return current(services, req, res, lang);
}

function sessionCookie(value: string, maxAge: number, secureCookie: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secureCookie ? '; Secure' : ''}`;
}

function secure(services: Services, req: http.IncomingMessage, trustProxy: boolean): boolean {
  if (services.baseUrl.startsWith('https://')) return true;
  const proto = req.headers['x-forwarded-proto'];
  return trustProxy && (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase() === 'https';
}

/**
 * A failed sign-in is an entry in each workspace of the person whose e-mail was typed; an e-mail
 * nobody has is an entry without a workspace (support staff's trail), with the e-mail as typed and
 * the least role: both say only "failed", as the answer does, never which field was wrong.
 */
async function auditFailure(services: Services, body: unknown, address: string, outcome: 'failed' | 'locked' | 'wrong_code'): Promise<void> {
  const email = typeof (body as { email?: unknown } | null)?.email === 'string' ? (body as { email: string }).email.trim().toLowerCase().slice(0, 254) : '';
  if (!email) return;
  const person = await services.db.person.findUnique({ where: { email }, include: { memberships: true } });
  if (!person) {
    await recordAudit(services.db, { workspaceId: null, token: { id: '', name: email, role: 'viewer' }, person: { id: null, sessionId: null, address }, requestId: currentRequestId() ?? null, operation: 'signIn', outcome, variables: {}, at: services.clock.now() });
    return;
  }
  for (const m of person.memberships) {
    await audit(services, { workspaceId: m.workspaceId, email, role: m.role, personId: person.id, sessionId: null, address, outcome });
  }
}

async function audit(services: Services, e: { workspaceId: string; email: string; role: AccessRole; personId: string; sessionId: string | null; address: string; outcome: 'done' | 'failed' | 'locked' | 'wrong_code' }): Promise<void> {
  await recordAudit(services.db, {
    workspaceId: e.workspaceId,
    token: { id: e.personId, name: e.email, role: e.role },
    person: { id: e.personId, sessionId: e.sessionId, address: e.address },
    requestId: currentRequestId() ?? null,
    operation: 'signIn',
    outcome: e.outcome,
    variables: {},
    at: services.clock.now(),
  });
}

const headerOf = (req: http.IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
  return true;
}

function allow(res: http.ServerResponse, method: string): true {
  res.writeHead(405, { Allow: method }).end();
  return true;
}
