// The card-testing guard's counting: one statement per judged attempt, shared by every process
// and machine through PostgreSQL. For each source of the attempt (the shopper's address, the page
// or link, the workspace) it reads the window's figures (distinct card fingerprints, this one
// included, and payments that reached a bank and failed: `risk_window`, a function of the
// migrations), whether the source is cooling down after a block, and records this attempt under
// the source (with whether that source's own rule blocked it, which starts its cool-down). Rows
// that no window or cool-down reads any more are deleted by a recurring job
// (`sweepRiskAttempts`), not here: concurrent attempts from one busy address would otherwise all
// try to delete the same aged rows and wait on each other. A card new to a source's window waits
// for that source's lock and counts again (risk_window), so attempts sent in parallel with new
// cards are counted one after the other and none passes a threshold the others reached. The
// statement also announces what processes may no longer take from their memory of earlier counts
// (memory.ts): an address with a second card, a rule that fired.
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/raw.ts';
import type { GuardSettings } from './settings.ts';
import type { GuardSource, SourceFigures, SourceKind } from './types.ts';
import { listMatchesSql, type ListedFacts, type ListMatch } from './lists.ts';
import { RISK_CHANNEL } from './types.ts';

/**
 * How many of a source's most recent attempts its window reads, per unit of its largest threshold.
 * The figures only need to reach the thresholds: a card-testing run shows a new card (and mostly
 * declines) on nearly every attempt, so it reaches them within a few times their size, while a busy
 * honest source (a shop's office behind one address, thousands of payments an hour with a few
 * cards) must not cost a scan of its whole window on every payment. With the default thresholds an
 * address reads at most 20 rows and a page or link 100. The workspace's declines are read from its
 * failed payments instead (an index range, at most its threshold of rows), and it keeps a row only
 * when its rule fires (its cool-down).
 */
const ROWS_PER_THRESHOLD = 4;

export type { GuardSource, SourceFigures, SourceKind } from './types.ts';

export interface GuardAttempt {
  workspaceId: string;
  paymentId: string;
  fingerprint: string;
  at: Date;
  sources: GuardSource[];
  /** Read by the same statement: the block and allow list entries the attempt matches (null: the workspace has none, nothing is read). */
  listed: ListedFacts | null;
}

/** The sources of an attempt from what is known of it, with the workspace's thresholds. */
export function guardSources(settings: GuardSettings, ip: string | null, target: string | null, workspaceId: string): GuardSource[] {
  const sources: GuardSource[] = [];
  if (ip) sources.push({ kind: 'ip', key: ip, cards: settings.riskIpCards, cardsFor3ds: settings.riskIpCardsFor3ds, declines: settings.riskIpDeclines });
  if (target) sources.push({ kind: 'target', key: target, cards: 0, cardsFor3ds: 0, declines: settings.riskTargetDeclines });
  sources.push({ kind: 'workspace', key: workspaceId, cards: 0, cardsFor3ds: 0, declines: settings.riskWorkspaceDeclines });
  return sources;
}

interface CountedRow {
  kind: SourceKind;
  cards: number;
  declines: number;
  cooling: boolean;
  cards_fired: boolean;
  declines_fired: boolean;
  three_ds_fired: boolean;
  listed: ListMatch[];
}

/** What a count returns: each source's figures (in the attempt's order of sources) and the list entries matched. */
export interface Counted {
  figures: SourceFigures[];
  listed: ListMatch[];
}

export async function countAttempt(db: Db, settings: GuardSettings, attempt: GuardAttempt): Promise<Counted> {
  return countedOf(attempt, await queryRows<CountedRow>(db, guardStatement(settings, attempt)));
}

/**
 * Another write that runs in the count's own statement (the payment's row: payments/counted-write.ts),
 * so that counting costs the payment no statement of its own: its CTEs follow the guard's and `row`,
 * a SELECT over them, returns one row whose columns come back beside the figures (named apart from them).
 */
/** The CTE of the count's statement that holds each source's figures, once every window is read. */
export const COUNT_CTE = 'judged';

export interface AlongsideWrite {
  ctes: Prisma.Sql;
  row: Prisma.Sql;
}

/**
 * The count and `write` as one statement. It commits as the write needs (the guard's own statement
 * relaxes its commit; this one does not), and a source's lock (risk_window) is held until the
 * write has committed too.
 */
export async function countAttemptWith<R>(db: Db, settings: GuardSettings, attempt: GuardAttempt, write: AlongsideWrite): Promise<Counted & { row: R }> {
  const rows = await queryRows<CountedRow & R>(
    db,
    Prisma.sql`WITH ${guardCtes(settings, attempt)}, ${write.ctes}
    SELECT ${figuresColumns(attempt)}, written.* FROM judged CROSS JOIN (${write.row}) written`,
  );
  return { ...countedOf(attempt, rows), row: rows[0]! };
}

function countedOf(attempt: GuardAttempt, rows: CountedRow[]): Counted {
  const order: SourceKind[] = attempt.sources.map((s) => s.kind);
  const figures = rows
    .map((r) => ({ kind: r.kind, cards: r.cards, declines: r.declines, coolingDown: r.cooling, cardsFired: r.cards_fired, declinesFired: r.declines_fired, threeDsFired: r.three_ds_fired }))
    .sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  return { figures, listed: rows[0]?.listed ?? [] };
}

/**
 * The one statement. Every read in it has an index that holds only what it reads (the blocked
 * attempts, the declined payments) or is bounded by a LIMIT, because the gateway sends it as a
 * named prepared statement: the generic plan PostgreSQL keeps for it is made once per connection,
 * often while the tables are nearly empty, and must stay cheap whatever they grow to.
 */
export function guardStatement(settings: GuardSettings, attempt: GuardAttempt): Prisma.Sql {
  // The statement's own transaction commits without waiting for its WAL to reach the disk:
  // attempts are counts, not money, and a crash loses at most the last fraction of a second of
  // them (the guard then counts a little less for one window). The wait for the flush was two
  // thirds of the statement's database CPU (docs/performance.md). It ends with the statement:
  // countAttempt takes the root client, never a transaction that also writes money.
  return Prisma.sql`
    WITH ${guardCtes(settings, attempt)},
    relaxed AS (SELECT set_config('synchronous_commit', 'off', true) AS was)
    SELECT ${figuresColumns(attempt)} FROM judged CROSS JOIN relaxed`;
}

/** What the statement returns per source, and the list entries matched (the same on every row). */
function figuresColumns(attempt: GuardAttempt): Prisma.Sql {
  return Prisma.sql`kind, cards, declines, cooling, cards_fired, declines_fired, three_ds_fired, (SELECT count(*)::int FROM announced) AS announced,
      ${attempt.listed ? listMatchesSql(attempt.workspaceId, attempt.listed) : Prisma.sql`'[]'::json`} AS listed`;
}

/** The count's CTEs: the sources, what each one's window shows, what fired, and the attempt recorded. */
function guardCtes(settings: GuardSettings, attempt: GuardAttempt): Prisma.Sql {
  const at = attempt.at.getTime();
  const windowStart = new Date(at - settings.riskWindowSeconds * 1000);
  const coolStart = new Date(at - settings.riskCooldownSeconds * 1000);
  const values = Prisma.join(attempt.sources.map((s) => Prisma.sql`(${s.kind}::text, ${s.key}::text, ${s.cards}::int, ${s.cardsFor3ds}::int, ${s.declines}::int)`));
  const ws = Prisma.sql`${attempt.workspaceId}::uuid`;
  return Prisma.sql`src (kind, key, cards_block, cards_3ds, declines_block) AS (VALUES ${values}),
    seen AS (
      SELECT src.kind, src.key, facts.cards, facts.declines + failed.declines AS declines, cool.cooling
      FROM src
      CROSS JOIN LATERAL (
        SELECT w.cards, w.declines
        FROM risk_window(${ws}, src.kind, src.key, ${attempt.fingerprint}::text, ${windowStart}::timestamp,
                         greatest(src.cards_block, src.cards_3ds, src.declines_block, 1) * ${ROWS_PER_THRESHOLD}::int) w
        WHERE src.kind <> 'workspace'
        UNION ALL SELECT 1, 0 WHERE src.kind = 'workspace'
      ) facts
      CROSS JOIN LATERAL (
        SELECT count(*)::int AS declines FROM (
          SELECT 1 FROM "Payment" p
          WHERE src.kind = 'workspace' AND src.declines_block > 0 AND p."workspaceId" = ${ws} AND p.status = 'failed'
            AND p."createdAt" > ${windowStart}::timestamp AND p."paymentAccountId" IS NOT NULL
          LIMIT src.declines_block) x
      ) failed
      CROSS JOIN LATERAL (
        SELECT EXISTS (SELECT 1 FROM "RiskAttempt" f WHERE f."workspaceId" = ${ws} AND f.kind = src.kind AND f.key = src.key AND f.blocked AND f.at > ${coolStart}::timestamp) AS cooling
      ) cool
    ),
    judged AS (
      SELECT seen.kind, seen.key, seen.cards, seen.declines, seen.cooling,
        src.cards_block > 0 AND seen.cards >= src.cards_block AS cards_fired,
        src.declines_block > 0 AND seen.declines >= src.declines_block AS declines_fired,
        src.cards_3ds > 0 AND seen.cards >= src.cards_3ds AS three_ds_fired
      FROM seen JOIN src ON src.kind = seen.kind AND src.key = seen.key
    ),
    recorded AS (
      INSERT INTO "RiskAttempt" ("workspaceId", kind, key, fingerprint, "paymentId", blocked, at)
      SELECT ${ws}, kind, key, ${attempt.fingerprint}, ${attempt.paymentId}::uuid, cards_fired OR declines_fired, ${attempt.at}::timestamp
      FROM judged WHERE kind <> 'workspace' OR cards_fired OR declines_fired
    ),
    -- What processes may remember of the workspace (memory.ts) stops holding: an address with a
    -- second card, a rule that fired. Sent at the commit, to every process.
    announced AS (
      SELECT pg_notify(${RISK_CHANNEL}, ${attempt.workspaceId}) FROM judged
      WHERE (kind = 'ip' AND cards > 1) OR cards_fired OR declines_fired OR three_ds_fired
    )`;
}

/** Rows a sweep deletes at most per statement, so that one sweep never holds many locks at once. */
const SWEEP_BATCH = 5_000;

/**
 * Deletes the attempts that no window or cool-down of their workspace reads any more (older than
 * the longer of the two), in batches; the number deleted.
 */
export async function sweepRiskAttempts(db: Db, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      db,
      Prisma.sql`
      WITH aged AS (
        SELECT r.id FROM "RiskAttempt" r JOIN "Workspace" w ON w.id = r."workspaceId"
        WHERE r.at <= ${now}::timestamp - make_interval(secs => greatest(w."riskWindowSeconds", w."riskCooldownSeconds"))
        LIMIT ${SWEEP_BATCH}::int FOR UPDATE OF r SKIP LOCKED),
      gone AS (DELETE FROM "RiskAttempt" d USING aged WHERE d.id = aged.id RETURNING 1)
      SELECT count(*)::int AS n FROM gone`,
    );
    total += row?.n ?? 0;
    if ((row?.n ?? 0) < SWEEP_BATCH) return total;
  }
}
