// Password reset by e-mail: a link valid for RESET_MINUTES, used once. Asking never tells whether
// the e-mail belongs to someone. A new password ends every session of the person.
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../clock.ts';
import type { Mailer } from '../mailer.ts';
import { ValidationError } from '../errors.ts';
import { parseInput } from '../validation.ts';
import { email, hashPassword, password, passwordMatches } from './passwords.ts';
import { newSecret, secretHash } from './tokens.ts';
import { endSessions } from './sessions.ts';
import { countFailure, lockedFor } from './lockout.ts';
import { SignInLockedError } from './errors.ts';

export const RESET_MINUTES = 30;

export const resetLink = (baseUrl: string, token: string) => `${baseUrl}/dashboard/#reset=${encodeURIComponent(token)}`;

/** Sends a reset link when a person has this e-mail; answers the same either way. */
export async function requestPasswordReset(deps: { db: Db; mailer: Mailer; baseUrl: string; clock: Clock }, input: unknown): Promise<void> {
  const { email: to } = parseInput(z.object({ email: email() }), input);
  const person = await deps.db.person.findUnique({ where: { email: to } });
  if (!person) return;
  const token = newSecret();
  const now = deps.clock.now();
  await deps.db.passwordReset.create({ data: { personId: person.id, tokenHash: secretHash(token), createdAt: now, expiresAt: new Date(now.getTime() + RESET_MINUTES * 60_000) } });
  const link = resetLink(deps.baseUrl, token);
  await deps.mailer.send({
    to,
    subject: 'Parola sıfırlama / Password reset',
    text: [`Yeni parola belirlemek için (${RESET_MINUTES} dakika geçerli):`, link, '', `To set a new password (valid for ${RESET_MINUTES} minutes):`, link, '', 'Siz istemediyseniz bu iletiyi yok sayın. / If you did not ask, ignore this message.'].join('\n'),
  });
}

const resetInput = z.object({ token: z.string({ error: 'reset_invalid' }).min(1, { error: 'reset_invalid' }), password: password() });

/** Sets the new password, uses the link up, and ends the person's sessions. */
export async function resetPassword(db: Db, input: unknown, clock: Clock): Promise<void> {
  const { token, password: plain } = parseInput(resetInput, input);
  const now = clock.now();
  const reset = await db.passwordReset.findUnique({ where: { tokenHash: secretHash(token) } });
  if (!reset || reset.usedAt || reset.expiresAt <= now) throw ValidationError.single(['token'], 'reset_invalid');
  const passwordHash = await hashPassword(plain);
  await db.$transaction(async (tx) => {
    const taken = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null }, data: { usedAt: now } });
    if (taken.count !== 1) throw ValidationError.single(['token'], 'reset_invalid');
    await tx.person.update({ where: { id: reset.personId }, data: { passwordHash, passwordChangedAt: now } });
    await endSessions(tx, { personId: reset.personId }, now);
  });
}

const changeInput = z.object({ currentPassword: z.string({ error: 'password_wrong' }).max(200, { error: 'password_wrong' }), newPassword: password() });

/**
 * A signed-in person changes their password: the current one first (a session left open on a
 * shared computer is not enough; wrong ones count in the sign-in lockout, so it cannot be guessed
 * from a stolen session), then every other session of theirs ends; this one stays.
 */
export async function changePassword(db: Db, who: { personId: string; sessionId: string; address: string }, input: unknown, clock: Clock): Promise<void> {
  const { currentPassword, newPassword } = parseInput(changeInput, input);
  const person = await db.person.findUniqueOrThrow({ where: { id: who.personId } });
  const now = clock.now();
  const wait = await lockedFor(db, person.email, who.address, now.getTime());
  if (wait > 0) throw new SignInLockedError(wait);
  if (!(await passwordMatches(person.passwordHash, currentPassword))) {
    await countFailure(db, person.email, who.address, now.getTime());
    throw ValidationError.single(['currentPassword'], 'password_wrong');
  }
  const passwordHash = await hashPassword(newPassword);
  await db.$transaction(async (tx) => {
    await tx.person.update({ where: { id: who.personId }, data: { passwordHash, passwordChangedAt: now } });
    await endSessions(tx, { personId: who.personId, id: { not: who.sessionId } }, now);
  });
}
