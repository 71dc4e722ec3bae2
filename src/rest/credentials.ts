// API keys the gateway has seen, per database client: key -> credential id, workspace slug and
// encrypted secret. What is cached never changes for a credential (a rotation makes a new one);
// whether it is still live, and the workspace it acts for, is read on every call by the admission
// statement (admission.ts), so the cache saves a round trip without ever deciding on old facts.
import type { Tx } from '../db/client.ts';

export interface KnownCredential {
  id: string;
  slug: string;
  secretEncrypted: string;
}

const caches = new WeakMap<Tx, Map<string, KnownCredential>>();
const CACHE_SIZE = 10_000;

function cacheOf(db: Tx): Map<string, KnownCredential> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

export function cachedCredential(db: Tx, apiKey: string): KnownCredential | undefined {
  return cacheOf(db).get(apiKey);
}

export function forgetCredential(db: Tx, apiKey: string): void {
  cacheOf(db).delete(apiKey);
}

/** The live credential of `apiKey`, read from the database and remembered; null when unknown or revoked. */
export async function loadCredential(db: Tx, apiKey: string): Promise<KnownCredential | null> {
  const row = await db.apiCredential.findUnique({
    where: { apiKey },
    select: { id: true, secretEncrypted: true, revokedAt: true, workspace: { select: { slug: true } } },
  });
  if (!row || row.revokedAt) return null;
  const known = { id: row.id, slug: row.workspace.slug, secretEncrypted: row.secretEncrypted };
  const cache = cacheOf(db);
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(apiKey, known);
  return known;
}
