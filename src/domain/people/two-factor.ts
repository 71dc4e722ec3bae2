// Two-factor authentication: a TOTP secret (RFC 6238, totp.ts) a person enrols by scanning a QR
// code and confirming one code, and RECOVERY_CODES one-time codes for a lost phone. The secret is
// encrypted under the master key like the providers' credentials (the gateway must read it back
// to check codes); recovery codes are compared only, so only their SHA-256 is kept. A TOTP code
// works once (the last accepted step is kept), and every code checked goes through the sign-in
// lockout, so six digits cannot be guessed by trying. Rules and why: docs/decisions.md,
// "Two-factor authentication".
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { Person, PersonSession, Workspace } from '../../generated/prisma/client.ts';
import { decryptSecret, encryptSecret } from '../secrets.ts';
import { StateError, ValidationError } from '../errors.ts';
import { base32Encode, matchingStep, newTotpSecret, otpauthUri } from './totp.ts';
import { secretHash } from './tokens.ts';
import { clearAccount, countFailure, lockedFor } from './lockout.ts';
import { SignInLockedError } from './errors.ts';

/** How long a second-factor code given in a session covers refunds, key rotation, tokens and team changes. */
export const STEP_UP_MINUTES = 5;
export const RECOVERY_CODES = 10;
const ISSUER = 'Payment gateway';

export interface CodeDeps {
  db: Db;
  masterKey: Buffer;
}

/** Where a code was typed from: the lockout counts failures per account and per address. */
export interface CodeSource {
  email: string;
  address: string;
}

const subject = (personId: string) => `TOTP secret of person ${personId}`;

/** A new secret to scan (kept pending until a code from it is confirmed): its base32 text and otpauth:// address. */
export async function startEnrolment(deps: CodeDeps, person: Pick<Person, 'id' | 'email' | 'totpEnabledAt'>): Promise<{ secret: string; uri: string }> {
  if (person.totpEnabledAt) throw StateError.single([], 'two_factor_already_on');
  const secret = newTotpSecret();
  await deps.db.person.update({ where: { id: person.id }, data: { totpPendingSecret: encryptSecret(deps.masterKey, secret.toString('base64')) } });
  return { secret: base32Encode(secret), uri: otpauthUri(secret, ISSUER, person.email) };
}

/** Turns two-factor on with a code from the pending secret; answers the recovery codes (shown once). */
export async function confirmEnrolment(deps: CodeDeps, personId: string, code: string, from: CodeSource, now: Date): Promise<string[]> {
  const person = await deps.db.person.findUniqueOrThrow({ where: { id: personId } });
  if (person.totpEnabledAt) throw StateError.single([], 'two_factor_already_on');
  if (!person.totpPendingSecret) throw StateError.single([], 'two_factor_not_started');
  await refuseWhenLocked(deps.db, from, now);
  const secret = Buffer.from(decryptSecret(deps.masterKey, person.totpPendingSecret, subject(personId)), 'base64');
  const step = matchingStep(secret, code.trim(), now.getTime());
  if (step === null) {
    await countFailure(deps.db, from.email, from.address, now.getTime());
    throw ValidationError.single(['code'], 'code_invalid');
  }
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await deps.db.$transaction([
    deps.db.person.update({ where: { id: personId }, data: { totpSecret: person.totpPendingSecret, totpPendingSecret: null, totpEnabledAt: now, totpLastStep: step } }),
    deps.db.recoveryCode.deleteMany({ where: { personId } }),
    deps.db.recoveryCode.createMany({ data: codes.map((c) => ({ personId, codeHash: secretHash(normalise(c)), createdAt: now })) }),
  ]);
  return codes;
}

/** Turns two-factor off, with a current code; not while a workspace of the person requires it. */
export async function disableTwoFactor(deps: CodeDeps, personId: string, code: string, from: CodeSource, now: Date): Promise<void> {
  const person = await deps.db.person.findUniqueOrThrow({ where: { id: personId } });
  if (!person.totpEnabledAt) throw StateError.single([], 'two_factor_off');
  const required = await deps.db.membership.count({ where: { personId, workspace: { requireTwoFactor: true } } });
  if (required > 0) throw StateError.single([], 'two_factor_required_here');
  if (!(await checkCode(deps, person, code, from, now))) throw ValidationError.single(['code'], 'code_invalid');
  await deps.db.$transaction([
    deps.db.person.update({ where: { id: personId }, data: { totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null } }),
    deps.db.recoveryCode.deleteMany({ where: { personId } }),
  ]);
}

/**
 * Whether `code` is the person's current TOTP code (not used before) or one of their unused
 * recovery codes (used up now). A wrong code counts as a failed sign-in; past the lockout's limit
 * nothing is checked (SignInLockedError).
 */
export async function checkCode(deps: CodeDeps, person: Pick<Person, 'id' | 'email' | 'totpSecret'>, code: string, from: CodeSource, now: Date): Promise<boolean> {
  await refuseWhenLocked(deps.db, from, now);
  const ok = await totpAccepted(deps, person, code.trim(), now) || await recoveryAccepted(deps.db, person.id, code, now);
  if (!ok) await countFailure(deps.db, from.email, from.address, now.getTime());
  else await clearAccount(deps.db, from.email);
  return ok;
}

/** A step-up: the session gave a fresh code, so guarded operations run for STEP_UP_MINUTES. */
export async function confirmSecondFactor(deps: CodeDeps, session: Pick<PersonSession, 'id' | 'personId'>, code: string, from: CodeSource, now: Date): Promise<void> {
  const person = await deps.db.person.findUniqueOrThrow({ where: { id: session.personId } });
  if (!person.totpEnabledAt) throw StateError.single([], 'two_factor_off');
  if (!(await checkCode(deps, person, code, from, now))) throw ValidationError.single(['code'], 'code_invalid');
  await deps.db.personSession.update({ where: { id: session.id }, data: { secondFactorAt: now } });
}

/** Whether a session's last code (null: none) still covers a guarded operation at `now`. */
export const stepUpFresh = (secondFactorAt: Date | null, now: Date): boolean =>
  secondFactorAt !== null && now.getTime() - secondFactorAt.getTime() < STEP_UP_MINUTES * 60_000;

/** An owner requires two-factor from every member (only once enrolled themselves: no one locks the workspace out). */
export async function setTwoFactorRequired(db: Db, workspace: Workspace, by: Pick<Person, 'totpEnabledAt'> | null, required: boolean): Promise<Workspace> {
  if (required && by && !by.totpEnabledAt) throw StateError.single(['required'], 'two_factor_enrol_first');
  return db.workspace.update({ where: { id: workspace.id }, data: { requireTwoFactor: required } });
}

export async function recoveryCodesLeft(db: Db, personId: string): Promise<number> {
  return db.recoveryCode.count({ where: { personId, usedAt: null } });
}

async function totpAccepted(deps: CodeDeps, person: Pick<Person, 'id' | 'totpSecret'>, code: string, now: Date): Promise<boolean> {
  if (!person.totpSecret) return false;
  const secret = Buffer.from(decryptSecret(deps.masterKey, person.totpSecret, subject(person.id)), 'base64');
  const step = matchingStep(secret, code, now.getTime());
  if (step === null) return false;
  // Conditional: of two requests with the same code, one wins; an earlier step never comes back.
  const taken = await deps.db.person.updateMany({ where: { id: person.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] }, data: { totpLastStep: step } });
  return taken.count === 1;
}

async function recoveryAccepted(db: Db, personId: string, code: string, now: Date): Promise<boolean> {
  const clean = normalise(code);
  if (clean.length !== 10) return false;
  const used = await db.recoveryCode.updateMany({ where: { personId, codeHash: secretHash(clean), usedAt: null }, data: { usedAt: now } });
  return used.count === 1;
}

async function refuseWhenLocked(db: Db, from: CodeSource, now: Date): Promise<void> {
  const wait = await lockedFor(db, from.email, from.address, now.getTime());
  if (wait > 0) throw new SignInLockedError(wait);
}

/** Ten base32 characters shown as `abcde-fghij` (50 bits: one guess per lockout window cannot find one). */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

const normalise = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();
