// Passwords: argon2id (memory-hard) through @node-rs/argon2, at OWASP's minimum parameters
// (19 MiB, 2 passes): a stolen table costs an attacker memory per guess, and a sign-in costs the
// gateway about 20-40 ms of one core. The parameters are inside each hash, so raising them later
// leaves existing hashes readable.
import { hash, verify } from '@node-rs/argon2';
import { z } from 'zod';

const PARAMS = { algorithm: 2 /* Algorithm.Argon2id, a const enum */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A password as a person types it: 10 to 200 characters (a passphrase is welcome). */
export const password = () => z.string({ error: 'password_length' }).min(10, { error: 'password_length' }).max(200, { error: 'password_length' });

/** A lower-cased e-mail address. */
export const email = () => z.string({ error: 'email_invalid' }).trim().toLowerCase().max(254, { error: 'email_invalid' }).pipe(z.email({ error: 'email_invalid' }));

export const hashPassword = (plain: string): Promise<string> => hash(plain, PARAMS);

export async function passwordMatches(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

/**
 * A hash to verify against when no person has the e-mail, so that an unknown address costs the
 * same time as a wrong password and the answer's timing does not tell which one was wrong.
 */
let decoy: Promise<string> | null = null;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword('decoy password that matches nothing'));
