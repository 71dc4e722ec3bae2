// Sign-in with e-mail and password. A wrong e-mail and a wrong password get the same answer in
// about the same time (a decoy hash is verified for an unknown e-mail); lockout.ts slows both down.
import { z } from 'zod';
import type { AccessRole, PersonSession, Workspace } from '../../generated/prisma/client.ts';
import { ValidationError } from '../errors.ts';
import { SecondFactorNeededError, SignInFailedError, SignInLockedError } from './errors.ts';
import { checkCode, type CodeDeps } from './two-factor.ts';
import { parseInput } from '../validation.ts';
import { decoyHash, email, passwordMatches } from './passwords.ts';
import { clearAccount, countFailure, lockedFor } from './lockout.ts';
import { startSession } from './sessions.ts';

export { SignInFailedError, SignInLockedError, SecondFactorNeededError };

const signInInput = z.object({
  email: email(),
  password: z.string({ error: 'required' }).min(1, { error: 'required' }).max(200, { error: 'sign_in_failed' }),
  workspace: z.string({ error: 'invalid_type' }).max(100, { error: 'too_long' }).nullish(),
  /** The authenticator app's code (or a recovery code) of a person with two-factor on. */
  code: z.string({ error: 'invalid_type' }).max(40, { error: 'too_long' }).nullish(),
});

export interface SignedIn {
  secret: string;
  session: PersonSession;
  email: string;
  workspace: Workspace;
  role: AccessRole;
}

/**
 * Checks the lockout, then the password, then (two-factor on) the code, and opens a session in
 * `workspace` (a slug; default: the person's oldest membership). A person with no membership
 * left cannot sign in.
 */
export async function signIn(deps: CodeDeps, input: unknown, from: { address: string; userAgent: string }, now: Date): Promise<SignedIn> {
  const { db } = deps;
  const parsed = signInOrFail(input);
  const wait = await lockedFor(db, parsed.email, from.address, now.getTime());
  if (wait > 0) throw new SignInLockedError(wait);
  const person = await db.person.findUnique({ where: { email: parsed.email } });
  const ok = await passwordMatches(person?.passwordHash ?? (await decoyHash()), parsed.password);
  const membership = ok && person
    ? await db.membership.findFirst({ where: { personId: person.id, ...(parsed.workspace ? { workspace: { slug: parsed.workspace } } : {}) }, include: { workspace: true }, orderBy: { createdAt: 'asc' } })
    : null;
  if (!person || !membership) {
    await countFailure(db, parsed.email, from.address, now.getTime());
    throw new SignInFailedError();
  }
  if (person.totpEnabledAt) {
    // The password was right: only the code is asked now (the answer says so, as every such form does).
    if (!parsed.code) throw new SecondFactorNeededError(false);
    if (!(await checkCode(deps, person, parsed.code, { email: parsed.email, address: from.address }, now))) throw new SecondFactorNeededError(true);
  }
  await clearAccount(db, parsed.email);
  const { secret, session } = await startSession(db, { personId: person.id, workspaceId: membership.workspaceId, userAgent: from.userAgent, address: from.address, secondFactorAt: person.totpEnabledAt ? now : null }, now);
  return { secret, session, email: person.email, workspace: membership.workspace, role: membership.role };
}

/** A malformed e-mail fails like a wrong one (nothing tells which e-mails exist). */
function signInOrFail(input: unknown): z.output<typeof signInInput> {
  try {
    return parseInput(signInInput, input);
  } catch (err) {
    if (err instanceof ValidationError && err.issues.some((i) => i.code === 'required' || i.code === 'too_long' || i.code === 'invalid_type')) throw err;
    throw new SignInFailedError();
  }
}
