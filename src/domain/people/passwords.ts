// Passwords: argon2id (memory-hard) through hash-wasm, at OWASP's minimum parameters (19 MiB,
// 2 passes): a stolen table costs an attacker memory per guess. WebAssembly rather than a native
// addon, so the production image (installed without optional packages) needs no platform binary.
// The parameters are inside each (PHC-encoded) hash, so raising them later leaves existing hashes
// readable.
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';
import { z } from 'zod';

const PARAMS = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

/** A password as a person types it: 10 to 200 characters (a passphrase is welcome). */
export const password = () => z.string({ error: 'password_length' }).min(10, { error: 'password_length' }).max(200, { error: 'password_length' });

/** A lower-cased e-mail address. */
export const email = () => z.string({ error: 'email_invalid' }).trim().toLowerCase().max(254, { error: 'email_invalid' }).pipe(z.email({ error: 'email_invalid' }));

export const hashPassword = (plain: string): Promise<string> =>
  argon2id({ ...PARAMS, password: plain, salt: randomBytes(16), outputType: 'encoded' });

export async function passwordMatches(stored: string, plain: string): Promise<boolean> {
  try {
    return await argon2Verify({ password: plain, hash: stored });
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
