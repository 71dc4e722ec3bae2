// Secrets sent to a person (invitation and reset links, session ids): 32 random bytes, base64url;
// only their SHA-256 is stored, so a copy of the database opens no session and accepts no link.
import { randomBytes } from 'node:crypto';
import { hashToken } from '../secrets.ts';

export const newSecret = (): string => randomBytes(32).toString('base64url');
export const secretHash = (secret: string): string => hashToken(secret);
