// Two-factor authentication over real HTTP: enrolment with a code computed from the secret (the
// secret stored encrypted), a wrong code refused and audited, sign-in asking for the code, a code
// used once, recovery codes, the fresh code a refund asks for after STEP_UP_MINUTES, a
// workspace's requirement, the lockout of guessed codes, and a password change that ends the
// person's other sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';
import { paymentBody } from '../helpers/payments.ts';
import { acceptInvitation, createInvitation } from '../../src/domain/people/members.ts';
import { base32Decode, totp } from '../../src/domain/people/totp.ts';
import { STEP_UP_MINUTES } from '../../src/domain/people/two-factor.ts';
import { ACCOUNT_FAILURES } from '../../src/domain/people/lockout.ts';

let t: TestGateway;
let m: Merchant;
const PASSWORD = 'correct horse battery';

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Browser {
  cookie: string;
  csrf: string;
}

const db = () => t.gateway.services.db;
const url = (path: string) => `${t.gateway.baseUrl}${path}`;

async function gql(who: Browser, query: string, variables?: Record<string, unknown>): Promise<Body> {
  const res = await fetch(url('/graphql'), { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', Cookie: who.cookie, 'X-CSRF-Token': who.csrf }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as Body;
}

async function signInRaw(email: string, extra: Record<string, string> = {}, password = PASSWORD) {
  const res = await fetch(url('/auth/sign-in'), { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en' }, body: JSON.stringify({ email, password, ...extra }) });
  return { res, body: (await res.json()) as { csrfToken?: string; secondFactorRequired?: boolean; result?: { message: string } } };
}

async function signIn(email: string, extra: Record<string, string> = {}, password = PASSWORD): Promise<Browser> {
  const { res, body } = await signInRaw(email, extra, password);
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(body)}`);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrf: body.csrfToken! };
}

async function join(email: string, role: 'owner' | 'operator'): Promise<void> {
  const workspace = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  const { link } = await createInvitation(t.gateway.services, workspace, { label: 'test', role: 'owner' }, { email, role });
  await acceptInvitation(db(), { token: decodeURIComponent(link.split('#invitation=')[1]!), password: PASSWORD }, t.clock);
}

/** The code an authenticator app shows now; the clock moves a step first, as a code works once. */
function codeNow(secret: string): string {
  t.clock.advance(30_000);
  return totp(base32Decode(secret), t.clock.now().getTime());
}

const START = 'mutation { startTwoFactor { secret uri errors { code } } }';
const CONFIRM = 'mutation ($code: String!) { confirmTwoFactor(code: $code) { recoveryCodes twoFactor { enabled } errors { code path } } }';
const STEP_UP = 'mutation ($code: String!) { confirmSecondFactor(code: $code) { twoFactor { freshUntil } errors { code } } }';
const REFUND = 'mutation ($token: String!) { refundPayment(input: { transaction: { token: $token }, amount: "1.00" }) { result { successful } errors { code } } }';
const REQUIRE = 'mutation ($r: Boolean!) { setTwoFactorRequired(required: $r) { twoFactor { required } errors { code } } }';

async function enrol(who: Browser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await gql(who, START);
  const secret = started.data.startTwoFactor.secret as string;
  const confirmed = await gql(who, CONFIRM, { code: codeNow(secret) });
  expect(confirmed.data.confirmTwoFactor.errors).toEqual([]);
  return { secret, recoveryCodes: confirmed.data.confirmTwoFactor.recoveryCodes };
}

beforeAll(async () => {
  t = await startTestGateway();
  m = await seedWorkspace(t, { slug: 'twofactor' });
  await join('owner@2fa.example', 'owner');
  await join('operator@2fa.example', 'operator');
});
afterAll(async () => {
  await t?.stop();
});

let ownerSecret = '';
let recovery: string[] = [];

describe('enrolment', () => {
  it('a secret to scan, stored encrypted; a wrong code refused and audited; the right one turns it on with ten recovery codes', async () => {
    const owner = await signIn('owner@2fa.example');
    expect((await gql(owner, '{ myTwoFactor { enabled required recoveryCodesLeft } }')).data.myTwoFactor).toEqual({ enabled: false, required: false, recoveryCodesLeft: 0 });
    // Nobody can require what they have not set up themselves.
    expect((await gql(owner, REQUIRE, { r: true })).data.setTwoFactorRequired.errors).toEqual([{ code: 'two_factor_enrol_first' }]);

    const started = (await gql(owner, START)).data.startTwoFactor;
    expect(started.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.uri).toBe(`otpauth://totp/Payment%20gateway:owner%402fa.example?secret=${started.secret}&issuer=Payment%20gateway&algorithm=SHA1&digits=6&period=30`);
    const stored = await db().person.findUniqueOrThrow({ where: { email: 'owner@2fa.example' } });
    expect(stored.totpPendingSecret).toMatch(/^v1:/);
    expect(stored.totpPendingSecret).not.toContain(started.secret);
    expect(stored.totpEnabledAt).toBeNull();

    const right = codeNow(started.secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect((await gql(owner, CONFIRM, { code: wrong })).data.confirmTwoFactor.errors).toEqual([{ code: 'code_invalid', path: ['code'] }]);
    expect(await db().auditEntry.count({ where: { operation: 'confirmTwoFactor', outcome: 'wrong_code', tokenName: 'owner@2fa.example' } })).toBe(1);

    const confirmed = (await gql(owner, CONFIRM, { code: right })).data.confirmTwoFactor;
    expect(confirmed.errors).toEqual([]);
    expect(confirmed.twoFactor).toEqual({ enabled: true });
    expect(confirmed.recoveryCodes).toHaveLength(10);
    expect(confirmed.recoveryCodes[0]).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const after = await db().person.findUniqueOrThrow({ where: { email: 'owner@2fa.example' } });
    expect(after.totpSecret).toBe(stored.totpPendingSecret);
    expect(await db().recoveryCode.count({ where: { personId: after.id, codeHash: { in: confirmed.recoveryCodes } } })).toBe(0); // hashes only
    expect(await db().auditEntry.count({ where: { operation: 'confirmTwoFactor', outcome: 'done', tokenName: 'owner@2fa.example' } })).toBe(1);
    ownerSecret = started.secret;
    recovery = confirmed.recoveryCodes;
  });
});

describe('sign-in with two-factor on', () => {
  it('asks for the code after the password; a wrong code is refused and audited; a code works once', async () => {
    const missing = await signInRaw('owner@2fa.example');
    expect(missing.res.status).toBe(401);
    expect(missing.body).toMatchObject({ secondFactorRequired: true, result: { message: 'Enter the code from your authenticator app for this.' } });
    expect(missing.res.headers.get('set-cookie')).toBeNull();
    // A wrong password still says only that, code or not.
    expect((await signInRaw('owner@2fa.example', { code: '000000' }, 'wrong password!')).body.secondFactorRequired).toBeUndefined();

    const code = codeNow(ownerSecret);
    const wrong = await signInRaw('owner@2fa.example', { code: String((Number(code) + 7) % 1_000_000).padStart(6, '0') });
    expect(wrong.res.status).toBe(401);
    expect(wrong.body.result?.message).toBe('The authentication code is wrong or already used.');
    expect(await db().auditEntry.count({ where: { operation: 'signIn', outcome: 'wrong_code', tokenName: 'owner@2fa.example' } })).toBe(1);

    const ok = await signInRaw('owner@2fa.example', { code });
    expect(ok.res.status).toBe(200);
    const replay = await signInRaw('owner@2fa.example', { code });
    expect(replay.res.status).toBe(401);
    expect(replay.body.result?.message).toBe('The authentication code is wrong or already used.');
  });

  it('a recovery code stands in for the app once', async () => {
    const first = await signInRaw('owner@2fa.example', { code: recovery[0]!.toUpperCase() });
    expect(first.res.status).toBe(200);
    expect((await signInRaw('owner@2fa.example', { code: recovery[0]! })).res.status).toBe(401);
    const me = await signIn('owner@2fa.example', { code: recovery[1]! });
    expect((await gql(me, '{ myTwoFactor { recoveryCodesLeft } }')).data.myTwoFactor.recoveryCodesLeft).toBe(8);
  });
});

describe('a fresh code before guarded operations', () => {
  it(`a refund runs right after sign-in, asks for a code ${STEP_UP_MINUTES} minutes later, and runs again once one is given`, async () => {
    const paid = await m.call('regular-payment', paymentBody(m, { transaction: { amount: '10.00' } }));
    const token = paid.body.transaction.token as string;
    const owner = await signIn('owner@2fa.example', { code: codeNow(ownerSecret) });
    expect((await gql(owner, REFUND, { token })).data.refundPayment.result.successful).toBe(true);

    t.clock.advance(STEP_UP_MINUTES * 60_000);
    const asked = await gql(owner, REFUND, { token });
    expect(asked.errors?.[0]?.extensions?.code).toBe('SECOND_FACTOR_REQUIRED');
    expect(asked.errors?.[0]?.message).toBe('Enter the code from your authenticator app for this.');
    expect(await db().auditEntry.count({ where: { operation: 'refundPayment', outcome: 'code_asked' } })).toBe(1);
    // Reading is not guarded.
    expect((await gql(owner, '{ viewerRole }')).data.viewerRole).toBe('owner');

    const wrong = await gql(owner, STEP_UP, { code: 'abcdef' });
    expect(wrong.data.confirmSecondFactor.errors).toEqual([{ code: 'code_invalid' }]);
    const given = await gql(owner, STEP_UP, { code: codeNow(ownerSecret) });
    expect(given.data.confirmSecondFactor.errors).toEqual([]);
    expect(new Date(given.data.confirmSecondFactor.twoFactor.freshUntil).getTime()).toBe(t.clock.now().getTime() + STEP_UP_MINUTES * 60_000);
    expect((await gql(owner, REFUND, { token })).data.refundPayment.result.successful).toBe(true);
    expect(await db().auditEntry.count({ where: { operation: 'refundPayment', outcome: 'done', tokenName: 'owner@2fa.example' } })).toBe(2);
    // A cancel gives money back too.
    t.clock.advance(STEP_UP_MINUTES * 60_000);
    const cancel = await gql(owner, 'mutation ($token: String!) { cancelPayment(input: { transaction: { token: $token } }) { result { successful } } }', { token });
    expect(cancel.errors?.[0]?.extensions?.code).toBe('SECOND_FACTOR_REQUIRED');
  });
});

describe('a workspace that requires two-factor', () => {
  it('a member without it may only set it up; with it, everything again; it cannot be turned off meanwhile', async () => {
    const owner = await signIn('owner@2fa.example', { code: codeNow(ownerSecret) });
    const operator = await signIn('operator@2fa.example');
    expect((await gql(operator, '{ eventKinds }')).data.eventKinds.length).toBeGreaterThan(0);
    expect((await gql(owner, REQUIRE, { r: true })).data.setTwoFactorRequired).toEqual({ twoFactor: { required: true }, errors: [] });
    expect(await db().auditEntry.count({ where: { operation: 'setTwoFactorRequired', outcome: 'done' } })).toBe(1);

    const refused = await gql(operator, '{ eventKinds }');
    expect(refused.errors?.[0]?.extensions?.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
    expect((await gql(operator, '{ myTwoFactor { enabled required } }')).data.myTwoFactor).toEqual({ enabled: false, required: true });
    const csv = () => fetch(url('/dashboard/export/payments.csv'), { headers: { Cookie: operator.cookie, 'Accept-Language': 'en' } });
    const refusedCsv = await csv();
    expect(refusedCsv.status).toBe(403);
    expect(await refusedCsv.text()).toContain('This workspace requires two-factor authentication; set it up first.');
    const { secret } = await enrol(operator);
    expect((await gql(operator, '{ eventKinds }')).data.eventKinds.length).toBeGreaterThan(0);
    expect((await csv()).status).toBe(200);

    const off = await gql(operator, 'mutation ($code: String!) { disableTwoFactor(code: $code) { errors { code } } }', { code: codeNow(secret) });
    expect(off.data.disableTwoFactor.errors).toEqual([{ code: 'two_factor_required_here' }]);
    expect((await gql(owner, REQUIRE, { r: false })).data.setTwoFactorRequired.errors).toEqual([]);
    const offNow = await gql(operator, 'mutation ($code: String!) { disableTwoFactor(code: $code) { twoFactor { enabled } errors { code } } }', { code: codeNow(secret) });
    expect(offNow.data.disableTwoFactor).toEqual({ twoFactor: { enabled: false }, errors: [] });
    expect(await db().auditEntry.count({ where: { operation: 'disableTwoFactor', outcome: 'done', tokenName: 'operator@2fa.example' } })).toBe(1);
  });
});

describe('guessing codes', () => {
  it(`after ${ACCOUNT_FAILURES} wrong codes even the right one is refused until the window ends`, async () => {
    const owner = await signIn('owner@2fa.example', { code: codeNow(ownerSecret) });
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      const res = await gql(owner, STEP_UP, { code: 'abcdef' });
      expect(res.data.confirmSecondFactor.errors).toEqual([{ code: 'code_invalid' }]);
    }
    const locked = await gql(owner, STEP_UP, { code: codeNow(ownerSecret) });
    expect(locked.data.confirmSecondFactor.errors).toEqual([{ code: 'sign_in_locked' }]);
    expect(await db().auditEntry.count({ where: { operation: 'confirmSecondFactor', outcome: 'locked' } })).toBe(1);
    t.clock.advance(16 * 60_000);
    await db().$executeRaw`DELETE FROM ratelimit.requests`;
  });
});

describe('password change while signed in', () => {
  it('asks for the current password and ends every other session of the person, this one stays', async () => {
    const here = await signIn('operator@2fa.example');
    const there = await signIn('operator@2fa.example');
    const CHANGE = 'mutation ($c: String!, $n: String!) { changePassword(currentPassword: $c, newPassword: $n) { errors { code path } } }';
    expect((await gql(here, CHANGE, { c: 'not the password', n: 'a brand new passphrase' })).data.changePassword.errors).toEqual([{ code: 'password_wrong', path: ['currentPassword'] }]);
    expect((await gql(here, CHANGE, { c: PASSWORD, n: 'short' })).data.changePassword.errors).toEqual([{ code: 'password_length', path: ['newPassword'] }]);
    expect((await gql(here, CHANGE, { c: PASSWORD, n: 'a brand new passphrase' })).data.changePassword.errors).toEqual([]);
    expect((await gql(here, '{ viewerRole }')).data.viewerRole).toBe('operator');
    const ended = await fetch(url('/graphql'), { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: there.cookie, 'X-CSRF-Token': there.csrf }, body: JSON.stringify({ query: '{ viewerRole }' }) });
    expect(ended.status).toBe(401);
    expect((await signInRaw('operator@2fa.example')).res.status).toBe(401);
    expect((await signInRaw('operator@2fa.example', {}, 'a brand new passphrase')).res.status).toBe(200);
    const entry = await db().auditEntry.findFirstOrThrow({ where: { operation: 'changePassword', outcome: 'done' } });
    expect(JSON.stringify(entry.variables)).not.toContain('brand new');
    // A stolen session cannot guess the current password: wrong ones count in the sign-in lockout.
    for (let i = 0; i < ACCOUNT_FAILURES; i++) expect((await gql(here, CHANGE, { c: `guess number ${i}`, n: 'another new passphrase' })).data.changePassword.errors).toEqual([{ code: 'password_wrong', path: ['currentPassword'] }]);
    expect((await gql(here, CHANGE, { c: 'a brand new passphrase', n: 'another new passphrase' })).data.changePassword.errors).toEqual([{ code: 'sign_in_locked', path: [] }]);
  });
});
