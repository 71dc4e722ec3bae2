// A signed request's admission, in one statement: is its credential still live, the workspace as
// it is now (the request acts on this row: plan, mode, limits, test clock), and its count against
// the workspace's request limits: one round trip instead of three (credential + workspace,
// per-second window, links window). The credential's key and secret come from a per-process
// cache (credentials.ts). A process that follows the database's admission changes remembers
// what the statement returned and claims a share of the per-second window at once
// (admission-memory.ts), so most calls of a busy key run no statement here at all; the link
// operations, counted per call in their own window, always do.
import { Prisma, type Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { AdmissionMemory } from './admission-memory.ts';
import { countingCtes, isLinkOperation, retryAfterSeconds, type RateLimitSettings } from './rate-limit.ts';
import { queryRows } from '../db/raw.ts';

export type Admission =
  /** The credential is revoked or gone, or its workspace no longer has the path's slug. */
  | { kind: 'unknown' }
  | { kind: 'inactive'; workspace: Workspace }
  | { kind: 'limited'; workspace: Workspace; retryAfter: number }
  | { kind: 'admitted'; workspace: Workspace };

type Row = Workspace & { refusedUntil: bigint | null; leaseGranted: number | null; leaseExpire: bigint | null };

/** How many of this process's statements for the same credential a call waits for before it sends its own. */
const MAX_WAITS = 3;

/**
 * `limits` null: a gateway built without request limits (nothing is counted). `memory`: the
 * process's remembered admissions (admission-memory.ts); without it every call reads.
 */
export async function admit(db: Tx, credentialId: string, team: string, operation: string, limits: RateLimitSettings | null, memory?: AdmissionMemory | null): Promise<Admission> {
  const leased = memory && !isLinkOperation(operation) ? memory : null;
  if (!leased) return decided(await readAdmission(db, credentialId, operation, limits, null), team);
  for (let waits = 0; ; waits++) {
    const recalled = leased.recall(credentialId, Date.now());
    if (recalled) return decide(recalled.workspace, team, recalled.refusedUntil);
    const pending = waits < MAX_WAITS ? leased.pending(credentialId) : undefined;
    if (!pending) break;
    await pending;
  }
  return decided(await leased.reading(credentialId, readAdmission(db, credentialId, operation, limits, leased)), team);
}

type Read = { workspace: Workspace; refusedUntil: number | null } | null;

/** One admission statement; what it returned is remembered when `leased` (null: the credential is unknown). */
async function readAdmission(db: Tx, credentialId: string, operation: string, limits: RateLimitSettings | null, leased: AdmissionMemory | null): Promise<Read> {
  const seen = leased?.generation();
  const [row] = await queryRows<Row>(db, admissionSql(credentialId, operation, limits, Date.now(), leased !== null));
  if (!row) return null;
  const { refusedUntil, leaseGranted, leaseExpire, ...workspace } = row;
  if (leased && seen !== undefined) {
    const lease = leaseExpire === null || leaseGranted === null ? null : { expire: Number(leaseExpire), left: Math.max(0, leaseGranted - 1), refused: leaseGranted === 0 };
    leased.remember(credentialId, seen, { workspace, lease }, Date.now());
  }
  return { workspace, refusedUntil: refusedUntil === null ? null : Number(refusedUntil) };
}

const decided = (read: Read, team: string): Admission => (read ? decide(read.workspace, team, read.refusedUntil) : { kind: 'unknown' });

function decide(workspace: Workspace, team: string, refusedUntil: number | null): Admission {
  if (workspace.slug !== team) return { kind: 'unknown' };
  if (!workspace.active) return { kind: 'inactive', workspace };
  // Measured from now, not from before the statement: a concurrent call that opened the window
  // may have read the time a little after this one did.
  if (refusedUntil !== null) return { kind: 'limited', workspace, retryAfter: retryAfterSeconds(refusedUntil, Date.now()) };
  return { kind: 'admitted', workspace };
}

/**
 * The statement: the credential's workspace row, with `refusedUntil` (epoch ms) when a window
 * refuses the call, and the per-second window's `leaseGranted` points and `leaseExpire` (null
 * when the workspace is not counted). `lease`: claim a process's share of the per-second window
 * instead of one point. Exported for the benchmark, which runs it alone to measure one
 * workspace's ceiling (bench/lib/baseline.ts).
 */
export function admissionSql(credentialId: string, operation: string, limits: RateLimitSettings | null, nowMs: number, lease = false): Prisma.Sql {
  const counting = limits ? countingCtes(operation, limits, nowMs, lease) : null;
  const windows = counting
    ? Prisma.sql`COALESCE((SELECT expire FROM per_second WHERE refused), (SELECT expire FROM per_minute WHERE refused)) AS "refusedUntil",
      (SELECT granted FROM per_second) AS "leaseGranted", (SELECT expire FROM per_second) AS "leaseExpire"`
    : Prisma.sql`NULL::bigint AS "refusedUntil", NULL::int AS "leaseGranted", NULL::bigint AS "leaseExpire"`;
  return Prisma.sql`
    WITH ws AS (
      SELECT w.* FROM "ApiCredential" c JOIN "Workspace" w ON w.id = c."workspaceId"
      WHERE c.id = ${credentialId}::uuid AND c."revokedAt" IS NULL
    )${counting ? Prisma.sql`, ${counting}` : Prisma.empty}
    SELECT ws.*, ${windows}
    FROM ws`;
}
