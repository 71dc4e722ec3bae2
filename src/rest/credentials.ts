// API keys the gateway has seen, per database client: key -> credential id, workspace slug and
// encrypted secret. What is cached never changes for a credential (a rotation makes a new one);
// whether it is still live, and the workspace it acts for, is read on every call by the admission
// statement (admission.ts), so the cache saves a round trip without ever deciding on old facts.
import type { Tx } from '../db/client.ts';
import { processCache } from '../domain/process-cache.ts';

export interface KnownCredential {
  id: string;
  slug: string;
  secretEncrypted: string;
}

const known = processCache<KnownCredential>();

export function cachedCredential(db: Tx, apiKey: string): KnownCredential | undefined {
  return known.get(db, apiKey);
}

export function forgetCredential(db: Tx, apiKey: string): void {
  known.delete(db, apiKey);
}

/** The live credential of `apiKey`, read from the database and remembered; null when unknown or revoked. */
export async function loadCredential(db: Tx, apiKey: string): Promise<KnownCredential | null> {
  const row = await db.apiCredential.findUnique({
    where: { apiKey },
    select: { id: true, secretEncrypted: true, revokedAt: true, workspace: { select: { slug: true } } },
  });
  if (!row || row.revokedAt) return null;
  const credential = { id: row.id, slug: row.workspace.slug, secretEncrypted: row.secretEncrypted };
  known.set(db, apiKey, credential);
  return credential;
}
