// A signed request's admission, in one statement: is its credential still live, the workspace as
// it is now (the request acts on this row: plan, mode, limits, test clock), and its count against
// the workspace's request limits. Running on every call, this is one round trip instead of three
// (credential + workspace, per-second window, links window). The credential's key and secret
// come from a per-process cache (credentials.ts); this statement is what keeps that cache honest:
// a revoked key or a suspended workspace is seen on the very next call, in every process.
import { Prisma, type Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import { countingCtes, retryAfterSeconds, type RateLimitSettings } from './rate-limit.ts';

export type Admission =
  /** The credential is revoked or gone, or its workspace no longer has the path's slug. */
  | { kind: 'unknown' }
  | { kind: 'inactive'; workspace: Workspace }
  | { kind: 'limited'; workspace: Workspace; retryAfter: number }
  | { kind: 'admitted'; workspace: Workspace };

type Row = Workspace & { refusedUntil: bigint | null };

/** `limits` null: a gateway built without request limits (nothing is counted). */
export async function admit(db: Tx, credentialId: string, team: string, operation: string, limits: RateLimitSettings | null): Promise<Admission> {
  const [row] = await db.$queryRaw<Row[]>`${admissionSql(credentialId, operation, limits, Date.now())}`;
  if (!row || row.slug !== team) return { kind: 'unknown' };
  const { refusedUntil, ...workspace } = row;
  if (!workspace.active) return { kind: 'inactive', workspace };
  // Measured from now, not from before the statement: a concurrent call that opened the window
  // may have read the time a little after this one did.
  if (refusedUntil !== null) return { kind: 'limited', workspace, retryAfter: retryAfterSeconds(Number(refusedUntil), Date.now()) };
  return { kind: 'admitted', workspace };
}

/**
 * The statement: the credential's workspace row, with `refusedUntil` (epoch ms) when a window
 * refuses the call. Exported for the benchmark, which runs it alone to measure one workspace's
 * ceiling (bench/lib/baseline.ts).
 */
export function admissionSql(credentialId: string, operation: string, limits: RateLimitSettings | null, nowMs: number): Prisma.Sql {
  const counting = limits ? countingCtes(operation, limits, nowMs) : null;
  return Prisma.sql`
    WITH ws AS (
      SELECT w.* FROM "ApiCredential" c JOIN "Workspace" w ON w.id = c."workspaceId"
      WHERE c.id = ${credentialId}::uuid AND c."revokedAt" IS NULL
    )${counting ? Prisma.sql`, ${counting}` : Prisma.empty}
    SELECT ws.*, ${counting ? Prisma.sql`COALESCE((SELECT expire FROM per_second WHERE refused), (SELECT expire FROM per_minute WHERE refused))` : Prisma.sql`NULL::bigint`} AS "refusedUntil"
    FROM ws`;
}
