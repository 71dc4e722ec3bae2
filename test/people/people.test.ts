// People, not pasted tokens: invitations over a real SMTP server (and their expiry), the last
// owner, sign-in with its lockout, session cookies with CSRF tokens, sessions ended at once over
// HTTP and WebSocket, password reset, tokens within their creator's role, and the audit trail
// naming people.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { ACCOUNT_FAILURES, ADDRESS_FAILURES } from '../../src/domain/people/lockout.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { startMailBox, type MailBox } from '../helpers/smtp.ts';
import { eventually } from '../helpers/webhooks.ts';
import { cliOn } from '../helpers/cli.ts';

let t: TestGateway;
let m: Merchant;
let box: MailBox;
let ownerToken: string;
const PASSWORD = 'correct horse battery';

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Browser {
  cookie: string;
  csrf: string;
}

const db = () => t.gateway.services.db;
const url = (path: string) => `${t.gateway.baseUrl}${path}`;

async function gql(who: string | Browser | null, query: string, variables?: Record<string, unknown>, opts: { csrf?: string | null } = {}): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': 'en' };
  if (typeof who === 'string') headers.Authorization = `Bearer ${who}`;
  else if (who) {
    headers.Cookie = who.cookie;
    const csrf = opts.csrf === undefined ? who.csrf : opts.csrf;
    if (csrf !== null) headers['X-CSRF-Token'] = csrf;
  }
  const res = await fetch(url('/graphql'), { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as Body };
}

async function signInRaw(email: string, password: string, extra: Record<string, string> = {}) {
  return fetch(url('/auth/sign-in'), { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', 'User-Agent': 'people-test/1.0', ...extra }, body: JSON.stringify({ email, password }) });
}

async function signIn(email: string, password = PASSWORD): Promise<Browser> {
  const res = await signInRaw(email, password);
  const body = (await res.json()) as { csrfToken: string };
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(body)}`);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: body.csrfToken };
}

const INVITE = 'mutation ($email: String!, $role: AccessTokenRole!) { inviteMember(email: $email, role: $role) { invitation { id email role expiresAt } errors { code path } } }';
const ACCEPT = 'mutation ($invitationToken: String!, $password: String!) { acceptInvitation(invitationToken: $invitationToken, password: $password) { member { id email role } errors { code path } } }';
const MEMBERS = '{ members { id email role } }';

/** Invites by e-mail through GraphQL and returns the link's token from the mail received. */
async function invite(email: string, role: string, by: string | Browser = ownerToken): Promise<string> {
  const res = await gql(by, INVITE, { email, role });
  expect(res.body.data.inviteMember.errors).toEqual([]);
  const mail = await box.waitFor(email.toLowerCase(), /#invitation=/);
  box.mails.splice(box.mails.indexOf(mail), 1);
  return decodeURIComponent(/#invitation=([^\s&]+)/.exec(mail.text)![1]!);
}

async function join(email: string, role: string): Promise<{ memberId: string }> {
  const token = await invite(email, role);
  const res = await gql(null, ACCEPT, { invitationToken: token, password: PASSWORD });
  expect(res.body.data.acceptInvitation.errors).toEqual([]);
  return { memberId: res.body.data.acceptInvitation.member.id };
}

beforeAll(async () => {
  box = await startMailBox();
  t = await startTestGateway({ env: { SMTP_URL: box.url, MAIL_FROM: 'Kasa <kasa@example.com>' } });
  m = await seedWorkspace(t, { slug: 'team' });
  ownerToken = await createAccessToken(db(), 'team', 'owner desk');
});
afterAll(async () => {
  await t?.stop();
  await box?.close();
});

describe('invitations', () => {
  it('an owner invites by e-mail (a real SMTP message); the invitee sets a password, signs in, and sees the team', async () => {
    const token = await invite('Ayse@Example.com', 'operator');
    const preview = await gql(null, 'query ($t: String!) { invitation(invitationToken: $t) { email role workspaceName } }', { t: token });
    expect(preview.body.data.invitation).toMatchObject({ email: 'ayse@example.com', role: 'operator' });

    const short = await gql(null, ACCEPT, { invitationToken: token, password: 'short' });
    expect(short.body.data.acceptInvitation.errors).toEqual([{ code: 'password_length', path: ['password'] }]);
    const accepted = await gql(null, ACCEPT, { invitationToken: token, password: PASSWORD });
    expect(accepted.body.data.acceptInvitation.member).toMatchObject({ email: 'ayse@example.com', role: 'operator' });
    const again = await gql(null, ACCEPT, { invitationToken: token, password: PASSWORD });
    expect(again.body.data.acceptInvitation.errors).toEqual([{ code: 'invitation_invalid', path: ['token'] }]);

    const res = await signInRaw('ayse@example.com', PASSWORD);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^gw_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    const stored = await db().person.findUniqueOrThrow({ where: { email: 'ayse@example.com' } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const secret = /^gw_session=([^;]+)/.exec(cookie)![1]!;
    expect(await db().personSession.count({ where: { idHash: secret } })).toBe(0); // only its hash is kept

    const body = (await res.json()) as { csrfToken: string; role: string };
    expect(body.role).toBe('operator');
    const me = await fetch(url('/auth/session'), { headers: { Cookie: cookie.split(';')[0]! } });
    expect(await me.json()).toMatchObject({ email: 'ayse@example.com', workspace: 'team', role: 'operator', csrfToken: body.csrfToken });
    const viewer = await gql({ cookie: cookie.split(';')[0]!, csrf: body.csrfToken }, '{ viewerRole }');
    expect(viewer.body.data.viewerRole).toBe('operator');
    // A CSV export is a GET read: the cookie alone opens it (another site cannot read the answer).
    const csv = await fetch(url('/dashboard/export/payments.csv'), { headers: { Cookie: cookie.split(';')[0]! } });
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\n')[0]).toContain('token');
    // Accepting is recorded in the workspace: the new member, from the address used.
    const joined = await db().auditEntry.findFirstOrThrow({ where: { operation: 'acceptInvitation', tokenName: 'ayse@example.com' } });
    expect(joined).toMatchObject({ workspaceId: m.workspaceId, role: 'operator', personId: stored.id, address: '127.0.0.1', tokenId: null });
  });

  it('an invitation link stops working after 7 days (fake clock)', async () => {
    const token = await invite('late@example.com', 'viewer');
    t.clock.advance(7 * 24 * 3600_000 + 1000);
    const preview = await gql(null, 'query ($t: String!) { invitation(invitationToken: $t) { email } }', { t: token });
    expect(preview.body.data.invitation).toBeNull();
    const res = await gql(null, ACCEPT, { invitationToken: token, password: PASSWORD });
    expect(res.body.data.acceptInvitation.errors).toEqual([{ code: 'invitation_invalid', path: ['token'] }]);
    expect(await db().person.count({ where: { email: 'late@example.com' } })).toBe(0);
  });

  it('only an owner invites; an existing member is not invited twice', async () => {
    const operator = await createAccessToken(db(), 'team', 'operator desk', { role: 'operator' });
    const refused = await gql(operator, INVITE, { email: 'x@example.com', role: 'viewer' });
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const twice = await gql(ownerToken, INVITE, { email: 'ayse@example.com', role: 'viewer' });
    expect(twice.body.data.inviteMember.errors).toEqual([{ code: 'already_member', path: ['email'] }]);
  });
});

describe('gateway member invite', () => {
  it('e-mails the invitation over SMTP and prints the same link; a bad role or e-mail is refused', async () => {
    const cli = cliOn(t);
    const out = await cli.run(['--json', 'member', 'invite', 'team', 'cli@example.com', '--role', 'developer'], { SMTP_URL: box.url, BASE_URL: t.gateway.baseUrl });
    expect(out.code, out.stderr).toBe(0);
    const printed = JSON.parse(out.stdout) as { link: string; role: string; mailed: boolean };
    expect(printed).toMatchObject({ role: 'developer', mailed: true });
    const mail = await box.waitFor('cli@example.com', /#invitation=/);
    expect(mail.text).toContain(printed.link);
    await cli.fails(['member', 'invite', 'team', 'cli2@example.com', '--role', 'boss'], '--role must be one of owner, developer, operator, viewer');
    await cli.fails(['member', 'invite', 'team', 'not-an-email'], 'email: Must be a valid e-mail address.');
  });
});

describe('the last owner', () => {
  it('cannot be demoted or removed; with a second owner one may go, and their session ends at once', async () => {
    const other = await seedWorkspace(t, { slug: 'owned' });
    const token = await createAccessToken(db(), 'owned', 'setup desk');
    const inviteTo = async (email: string) => {
      await gql(token, INVITE, { email, role: 'owner' });
      const mail = await box.waitFor(email, /#invitation=/);
      return decodeURIComponent(/#invitation=([^\s&]+)/.exec(mail.text)![1]!);
    };
    const first = await gql(null, ACCEPT, { invitationToken: await inviteTo('first@example.com'), password: PASSWORD });
    const firstId = first.body.data.acceptInvitation.member.id as string;
    const demote = await gql(token, 'mutation ($id: ID!) { changeMemberRole(id: $id, role: viewer) { errors { code } } }', { id: firstId });
    expect(demote.body.data.changeMemberRole.errors).toEqual([{ code: 'last_owner' }]);
    const remove = await gql(token, 'mutation ($id: ID!) { removeMember(id: $id) { errors { code } } }', { id: firstId });
    expect(remove.body.data.removeMember.errors).toEqual([{ code: 'last_owner' }]);

    await gql(null, ACCEPT, { invitationToken: await inviteTo('second@example.com'), password: PASSWORD });
    const firstBrowser = await signIn('first@example.com');
    const members = await gql(firstBrowser, MEMBERS);
    const list = members.body.data.members as Array<{ id: string; email: string }>;
    expect(list.map((x) => x.email).sort()).toEqual(['first@example.com', 'second@example.com']);
    const secondId = list.find((x) => x.email === 'second@example.com')!.id;
    const second = await signIn('second@example.com');
    const removed = await gql(firstBrowser, 'mutation ($id: ID!) { removeMember(id: $id) { member { email } errors { code } } }', { id: secondId });
    expect(removed.body.data.removeMember).toEqual({ member: { email: 'second@example.com' }, errors: [] });
    expect((await gql(second, '{ viewerRole }')).status).toBe(401);
    // Now the first is the last owner again, however the demotion is asked for.
    const self = await gql(firstBrowser, 'mutation ($id: ID!) { changeMemberRole(id: $id, role: developer) { errors { code } } }', { id: firstId });
    expect(self.body.data.changeMemberRole.errors).toEqual([{ code: 'last_owner' }]);
    expect(other.workspaceId).toBeTruthy();
  });
});

describe('sign-in', () => {
  it('a wrong password and an unknown e-mail get the same 401; past 5 failures the account waits 15 minutes (even with the right password)', async () => {
    await join('locked@example.com', 'viewer');
    const wrong = await signInRaw('locked@example.com', 'not the password');
    const unknown = await signInRaw('nobody@example.com', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    // An e-mail nobody has is an entry too: no workspace (support staff's trail), the address, "failed" like any other.
    const stranger = await db().auditEntry.findFirstOrThrow({ where: { operation: 'signIn', tokenName: 'nobody@example.com' } });
    expect(stranger).toMatchObject({ workspaceId: null, outcome: 'failed', personId: null, tokenId: null, address: '127.0.0.1', role: 'viewer' });
    for (let i = 1; i < ACCOUNT_FAILURES; i++) expect((await signInRaw('locked@example.com', 'not the password')).status).toBe(401);
    const locked = await signInRaw('locked@example.com', PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(locked.headers.get('set-cookie')).toBeNull();
    t.clock.advance(15 * 60_000 + 1000);
    expect((await signInRaw('locked@example.com', PASSWORD)).status).toBe(200);
    const failures = await db().auditEntry.findMany({ where: { tokenName: 'locked@example.com', operation: 'signIn' } });
    expect(failures.map((e) => e.outcome).sort()).toEqual(['done', 'failed', 'failed', 'failed', 'failed', 'failed', 'locked']);
  });

  it(`one address with ${ADDRESS_FAILURES} failures across e-mails waits too`, async () => {
    t.clock.advance(15 * 60_000 + 1000); // the earlier test's failures from this address are over
    await join('spray@example.com', 'viewer');
    for (let i = 0; i < ADDRESS_FAILURES; i++) expect((await signInRaw(`guess${i}@example.com`, 'not the password')).status).toBe(401);
    expect((await signInRaw('spray@example.com', PASSWORD)).status).toBe(429);
  }, 120_000); // thirty memory-hard hash checks, on a loaded machine
});

describe('sessions', () => {
  it('a cookie-authenticated request without the CSRF token, or with a wrong one, is refused and writes nothing; a bearer token needs none', async () => {
    t.clock.advance(15 * 60_000 + 1000);
    const browser = await signIn('first@example.com');
    const q = 'mutation { inviteMember(email: "csrf@example.com", role: viewer) { errors { code } } }';
    for (const csrf of [null, 'wrong']) {
      const res = await gql(browser, q, undefined, { csrf });
      expect(res.status).toBe(403);
      expect(res.body.errors?.[0]?.message).toMatch(/X-CSRF-Token/);
    }
    expect(await db().invitation.count({ where: { email: 'csrf@example.com' } })).toBe(0);
    const ok = await gql(browser, q);
    expect(ok.body.data.inviteMember.errors).toEqual([]);
    expect((await gql(ownerToken, '{ viewerRole }')).body.data.viewerRole).toBe('owner');
    const signOut = await fetch(url('/auth/sign-out'), { method: 'POST', headers: { Cookie: browser.cookie } });
    expect(signOut.status).toBe(403);
  });

  it('a session revoked from another one is refused at once over HTTP, and its open WebSocket closes', async () => {
    const a = await signIn('first@example.com');
    const b = await signIn('first@example.com');
    const closed = new Promise<number>((resolve) => {
      const ws = createClient({
        url: url('/graphql').replace('http', 'ws'),
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols: string) {
            super(address, protocols, { headers: { Cookie: b.cookie } });
          }
        },
        connectionParams: { 'X-CSRF-Token': b.csrf },
        retryAttempts: 0,
        lazy: false,
        on: { closed: (e) => resolve((e as { code: number }).code) },
        onNonLazyError: () => {},
      });
      void ws;
    });
    const connected = await eventually(async () => (await db().personSession.count({ where: { revokedAt: null } })) > 0, 'sessions');
    expect(connected).toBe(true);
    const sessions = await gql(a, '{ mySessions { id current userAgent address } }');
    const list = sessions.body.data.mySessions as Array<{ id: string; current: boolean; userAgent: string; address: string }>;
    const current = list.find((s) => s.current)!;
    expect(current).toMatchObject({ userAgent: 'people-test/1.0', address: '127.0.0.1' });
    const bSession = await db().personSession.findFirstOrThrow({ where: { csrfToken: b.csrf } });
    // The socket is open and authenticated before the revocation.
    await new Promise((r) => setTimeout(r, 300));
    const revoked = await gql(a, 'mutation ($id: ID!) { revokeSession(id: $id) { session { id } errors { code } } }', { id: bSession.id });
    expect(revoked.body.data.revokeSession.errors).toEqual([]);
    expect((await gql(b, '{ viewerRole }')).status).toBe(401);
    expect(await closed).toBe(4403);
    expect((await gql(a, '{ viewerRole }')).body.data.viewerRole).toBe('owner');
  });

  it('a session ends after 30 idle minutes, and after 12 hours however active', async () => {
    const idle = await signIn('first@example.com');
    t.clock.advance(29 * 60_000);
    expect((await gql(idle, '{ viewerRole }')).status).toBe(200);
    t.clock.advance(31 * 60_000);
    const ended = await gql(idle, '{ viewerRole }');
    expect(ended.status).toBe(401);
    expect(ended.body.errors?.[0]?.message).toMatch(/session has ended/);

    const busy = await signIn('first@example.com');
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60_000);
      expect((await gql(busy, '{ viewerRole }')).status).toBe(200);
    }
    t.clock.advance(20 * 60_000);
    expect((await gql(busy, '{ viewerRole }')).status).toBe(401);
  });

  it('sign-out ends the session and clears the cookie', async () => {
    const b = await signIn('first@example.com');
    const res = await fetch(url('/auth/sign-out'), { method: 'POST', headers: { Cookie: b.cookie, 'X-CSRF-Token': b.csrf } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^gw_session=; .*Max-Age=0/);
    expect((await gql(b, '{ viewerRole }')).status).toBe(401);
  });
});

describe('several workspaces', () => {
  it('a person in two workspaces signs in to the first and moves the session to the other (with the CSRF token); a stranger workspace is refused', async () => {
    await seedWorkspace(t, { slug: 'second-team' });
    const token = await createAccessToken(db(), 'second-team', 'second desk');
    await gql(token, INVITE, { email: 'ayse@example.com', role: 'viewer' });
    const mail = await box.waitFor('ayse@example.com', /#invitation=/);
    const accepted = await gql(null, ACCEPT, { invitationToken: decodeURIComponent(/#invitation=([^\s&]+)/.exec(mail.text)![1]!), password: PASSWORD });
    expect(accepted.body.data.acceptInvitation.member.role).toBe('viewer');
    const browser = await signIn('ayse@example.com');
    expect((await gql(browser, '{ viewerRole workspace { slug } }')).body.data).toEqual({ viewerRole: 'operator', workspace: { slug: 'team' } });
    const move = (slug: string, csrf: string | null) => fetch(url('/auth/workspace'), { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: browser.cookie, ...(csrf ? { 'X-CSRF-Token': csrf } : {}) }, body: JSON.stringify({ workspace: slug }) });
    expect((await move('second-team', null)).status).toBe(403);
    expect((await move('owned', browser.csrf)).status).toBe(404);
    const moved = await move('second-team', browser.csrf);
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { workspaces: Array<{ slug: string }> }).workspaces.map((w) => w.slug)).toEqual(['team', 'second-team']);
    expect((await gql(browser, '{ viewerRole workspace { slug } }')).body.data).toEqual({ viewerRole: 'viewer', workspace: { slug: 'second-team' } });
  });
});

describe('password reset', () => {
  it('a reset link by e-mail sets a new password once and ends every session; an unknown e-mail is answered the same', async () => {
    const before = await signIn('first@example.com');
    const ask = 'mutation ($email: String!) { requestPasswordReset(email: $email) { result { successful } errors { code } } }';
    const unknown = await gql(null, ask, { email: 'nobody@example.com' });
    const known = await gql(null, ask, { email: 'first@example.com' });
    expect(known.body).toEqual(unknown.body);
    const mail = await box.waitFor('first@example.com', /#reset=/);
    const token = decodeURIComponent(/#reset=([^\s&]+)/.exec(mail.text)![1]!);
    const reset = 'mutation ($t: String!, $p: String!) { resetPassword(resetToken: $t, password: $p) { errors { code } } }';
    expect((await gql(null, reset, { t: token, p: 'a brand new passphrase' })).body.data.resetPassword.errors).toEqual([]);
    expect((await gql(null, reset, { t: token, p: 'another new passphrase' })).body.data.resetPassword.errors).toEqual([{ code: 'reset_invalid' }]);
    expect((await gql(before, '{ viewerRole }')).status).toBe(401);
    expect((await signInRaw('first@example.com', PASSWORD)).status).toBe(401);
    expect((await signInRaw('first@example.com', 'a brand new passphrase')).status).toBe(200);
  });
});

describe('tokens for machines and the audit trail', () => {
  it('a person creates a token of their own role at most', async () => {
    const operator = await signIn('ayse@example.com');
    const create = 'mutation ($role: AccessTokenRole!) { createAccessToken(name: "robot", role: $role) { token errors { code path } } }';
    expect((await gql(operator, create, { role: 'developer' })).body.data.createAccessToken.errors).toEqual([{ code: 'role_above_own', path: ['role'] }]);
    expect((await gql(operator, create, { role: 'owner' })).body.data.createAccessToken.errors).toEqual([{ code: 'role_above_own', path: ['role'] }]);
    const made = await gql(operator, create, { role: 'operator' });
    expect(made.body.data.createAccessToken.token).toMatch(/^dash_/);
    // The list shows an operator the tokens of its reach (operators' and viewers'), never an owner's or a developer's.
    await createAccessToken(db(), 'team', 'dev robot', { role: 'developer' });
    const listed = await gql(operator, '{ accessTokens { name role } }');
    const roles = new Set((listed.body.data.accessTokens as Array<{ role: string }>).map((x) => x.role));
    expect([...roles].sort()).toEqual(['operator']);
    expect((listed.body.data.accessTokens as Array<{ name: string }>).map((x) => x.name)).toContain('robot');
    const all = await gql(ownerToken, '{ accessTokens { name role } }');
    expect((all.body.data.accessTokens as Array<{ name: string }>).map((x) => x.name)).toEqual(expect.arrayContaining(['robot', 'dev robot', 'owner desk']));
  });

  it("a person's writes name the person, the session and the address; a token's name the token", async () => {
    const entries = await db().auditEntry.findMany({ where: { workspaceId: m.workspaceId, operation: 'createAccessToken' }, orderBy: { createdAt: 'asc' } });
    const person = await db().person.findUniqueOrThrow({ where: { email: 'ayse@example.com' } });
    expect(entries.at(-1)).toMatchObject({ tokenId: null, tokenName: 'ayse@example.com', role: 'operator', personId: person.id, address: '127.0.0.1', outcome: 'done' });
    expect(entries.at(-1)!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const invites = await db().auditEntry.findMany({ where: { workspaceId: m.workspaceId, operation: 'inviteMember', outcome: 'done' } });
    expect(invites[0]).toMatchObject({ tokenName: 'owner desk', personId: null });
    const byPerson = await gql(ownerToken, 'query ($f: AuditFilter) { auditEntries(filter: $f, first: 100) { edges { node { operation personId } } } }', { f: { personId: person.id } });
    const ops = (byPerson.body.data.auditEntries.edges as Array<{ node: { operation: string; personId: string } }>).map((e) => e.node);
    expect(ops.length).toBeGreaterThan(0);
    expect(new Set(ops.map((o) => o.personId))).toEqual(new Set([person.id]));
    expect(ops.map((o) => o.operation)).toContain('signIn');
  });
});
