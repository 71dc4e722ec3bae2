// Delivery of notifications (contract: Delivery rules): first attempt 30 s after the event, 5 attempts
// in all with waits of 60 s, 5 min, 15 min and 30 min, any 2xx is success. Due notifications are
// claimed with FOR UPDATE SKIP LOCKED and a lease, so several gateway processes send each attempt
// once; all times come from the injected clock.
//
// The path is batched (docs/performance.md): one statement claims many due notifications and returns all an
// attempt needs (address, workspace slug, request id, the workspace's newest API credential);
// decrypted secrets are kept per credential id; attempts run over kept-alive connections; their
// results are written many at once, each batch in one statement (attempt rows and notification
// updates together).
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client.ts';
import { isUuid } from '../validation.ts';
import type { Notification, Workspace } from '../../generated/prisma/client.ts';
import type { Services, WebhookSettings } from '../services.ts';
import { cachedSecret, UnreadableSecretError } from '../secrets.ts';
import { signTimestamped, webhookPath } from '../signatures.ts';
import { NotFoundError, StateError } from '../errors.ts';
import { destinationAllowed } from './outbound.ts';
import { postWebhook, type AttemptResult } from './send.ts';
import { signatureHeader, signingSecretsAt, WEBHOOK_SIGNATURE_HEADER } from './signing.ts';
import { contextLogger } from '../../logger.ts';
import { executeRows, queryRows } from '../../db/raw.ts';

export const MAX_ATTEMPTS = 5;
export const RETRY_WAITS_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000] as const;

/**
 * How long a claimed notification is held: longer than one attempt can take (the HTTP timeout plus
 * a margin for the database), and never less than 2 minutes. Only notifications whose attempt
 * starts at once are claimed, so a lease never runs out while a row waits in a local queue.
 */
function leaseMs(settings: WebhookSettings): number {
  return Math.max(2 * 60_000, settings.timeoutMs + 60_000);
}

/** Results written by one statement at most (each is one attempt row and one notification update). */
const MAX_WRITE_BATCH = 500;

/** A notification held for one attempt, with everything the attempt needs. */
interface Claimed {
  id: string;
  url: string;
  body: string;
  event: string;
  attemptCount: number;
  /** When the attempt was due (epoch ms); null for a manual resend of a finished notification. */
  dueMs: number | null;
  subscriptionId: string | null;
  addressId: string | null;
  /** The address's flag; null when the address was deleted (or there is none). */
  addressEnabled: boolean | null;
  workspaceSlug: string;
  requestId: string | null;
  /** The workspace's newest unrevoked API credential, read in the same statement as the claim. */
  credentialId: string | null;
  secretEncrypted: string | null;
  /** The address's own signing secrets (signing.ts); null without an address or before its first secret. */
  signingSecretEncrypted: string | null;
  previousSecretEncrypted: string | null;
  previousSecretUntilMs: number | null;
}

/** What one attempt changes: written in batches by writeOutcomes. */
interface Outcome {
  id: string;
  /** `dropped`: the address is gone, no attempt was made; `retry`: another attempt is due later. */
  outcome: 'delivered' | 'retry' | 'failed' | 'dropped';
  number: number;
  startedAt: Date;
  result: AttemptResult;
  deliveredAt: Date | null;
  retryAt: Date | null;
}

/**
 * Sends every notification due now; returns how many attempts were made. Up to `concurrency`
 * attempts are in flight at once; freed slots are filled by claiming several due notifications in
 * one statement, until none is due (or `maxRunMs` has passed; the next run continues). Results are
 * written while other attempts go on; the run ends when every result is written.
 */
export async function deliverDue(s: Services, maxRunMs = 30_000): Promise<number> {
  const stopAt = Date.now() + maxRunMs;
  const { concurrency } = s.webhooks;
  // Claim when at least this many slots are free (or nothing is in flight): fewer, larger claims.
  const claimAtLeast = Math.max(1, Math.ceil(concurrency / 4));
  const writer = new OutcomeWriter(s);
  const inFlight = new Set<Promise<void>>();
  let attempts = 0;
  let failure: { reason: unknown } | null = null;
  let more = true;
  while (more && !failure && !writer.failed && Date.now() < stopAt) {
    const room = concurrency - inFlight.size;
    if (room < claimAtLeast && inFlight.size > 0) {
      await Promise.race(inFlight);
      continue;
    }
    let rows: Claimed[];
    try {
      rows = await claimDue(s, room);
    } catch (reason) {
      // Attempts under way still finish and are written below before the error is reported.
      failure = { reason };
      break;
    }
    // Fewer than asked: nothing else is due now (or another process holds it).
    if (rows.length < room) more = false;
    for (const n of rows) {
      const p: Promise<void> = attempt(s, n, { manual: false })
        .then((o) => {
          if (o.outcome !== 'dropped') attempts++;
          writer.add(o);
        })
        .catch((reason: unknown) => {
          failure ??= { reason };
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  }
  // Every attempt finishes and is written before the run ends (a stopping process waits for the run).
  await Promise.all(inFlight);
  await writer.drain();
  if (failure) throw (failure as { reason: unknown }).reason;
  return attempts;
}

/** Columns an attempt needs, from a set `c` of notification rows (the claimed ones, or one by id). */
const attemptColumns = Prisma.sql`
  c.id::text AS id, c.url, c.body, c.event, c."attemptCount",
  (extract(epoch FROM c."nextAttemptAt") * 1000)::float8 AS "dueMs",
  c."subscriptionId"::text AS "subscriptionId", c."addressId"::text AS "addressId", a.enabled AS "addressEnabled",
  w.slug AS "workspaceSlug", o."requestId", k.id::text AS "credentialId", k."secretEncrypted",
  a."signingSecretEncrypted", a."previousSecretEncrypted",
  (extract(epoch FROM a."previousSecretUntil") * 1000)::float8 AS "previousSecretUntilMs"`;
const attemptJoins = Prisma.sql`
  JOIN "Workspace" w ON w.id = c."workspaceId"
  JOIN "OutboxEvent" o ON o.id = c."outboxEventId"
  LEFT JOIN "WebhookAddress" a ON a.id = c."addressId"
  LEFT JOIN LATERAL (
    SELECT id, "secretEncrypted" FROM "ApiCredential"
    WHERE "workspaceId" = c."workspaceId" AND "revokedAt" IS NULL
    ORDER BY "createdAt" DESC LIMIT 1) k ON true`;

/** Claims up to `limit` due notifications in one statement, oldest due first. */
async function claimDue(s: Services, limit: number): Promise<Claimed[]> {
  const now = s.clock.now();
  const until = new Date(now.getTime() + leaseMs(s.webhooks));
  return queryRows<Claimed>(s.db, Prisma.sql`
    WITH picked AS (
      SELECT id FROM "Notification"
      WHERE status = 'pending' AND "nextAttemptAt" <= (${now}::timestamptz AT TIME ZONE 'UTC')
        AND ("leasedUntil" IS NULL OR "leasedUntil" <= (${now}::timestamptz AT TIME ZONE 'UTC'))
      ORDER BY "nextAttemptAt" LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), c AS (
      UPDATE "Notification" n SET "leasedUntil" = (${until}::timestamptz AT TIME ZONE 'UTC')
      FROM picked WHERE n.id = picked.id
      RETURNING n.*
    )
    SELECT ${attemptColumns} FROM c ${attemptJoins}
    ORDER BY c."nextAttemptAt"`);
}

async function loadForAttempt(s: Services, id: string): Promise<Claimed> {
  const [row] = await queryRows<Claimed>(s.db, Prisma.sql`
    SELECT ${attemptColumns} FROM "Notification" c ${attemptJoins} WHERE c.id = ${id}::uuid`);
  if (!row) throw new Error(`notification ${id} not found`);
  return row;
}

/**
 * One attempt. Automatic attempts skip disabled or deleted addresses; a manual resend does not. A
 * subscription's own webhook_url has no address row to disable. Returns what to write.
 */
async function attempt(s: Services, n: Claimed, opts: { manual: boolean }): Promise<Outcome> {
  const startedAt = s.clock.now();
  const addressGone = n.subscriptionId === null && n.addressEnabled !== true;
  if (!opts.manual && addressGone) {
    return { id: n.id, outcome: 'dropped', number: n.attemptCount, startedAt, result: { httpStatus: null, responseExcerpt: null, error: null, durationMs: 0 }, deliveredAt: null, retryAt: null };
  }
  const result = (await destinationAllowed(n.url, s.webhooks))
    ? await send(s, n, startedAt)
    : { httpStatus: null, responseExcerpt: null, error: 'destination not allowed', durationMs: 0 };
  // Any 2xx that arrived whole within the timeout; a cut-off answer or a timeout is a failure.
  const ok = result.error === null && result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
  const number = n.attemptCount + 1;
  const exhausted = number >= MAX_ATTEMPTS;
  const outcome = ok ? 'delivered' : opts.manual || exhausted ? 'failed' : 'retry';
  logAttempt(s, n, number, startedAt, result, outcome);
  return {
    id: n.id,
    outcome,
    number,
    startedAt,
    result,
    deliveredAt: ok ? s.clock.now() : null,
    retryAt: outcome === 'retry' ? new Date(startedAt.getTime() + RETRY_WAITS_MS[number - 1]!) : null,
  };
}

/**
 * Writes attempt results in one statement: the attempt rows and the notifications' new state.
 * A notification dropped (address disabled or deleted) while its attempt was under way keeps the
 * attempt and gets no further one; a delivered or finally failed one takes that status whatever
 * happened meanwhile (as a single attempt always did).
 */
async function writeOutcomes(s: Services, outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const rows = outcomes.map((o) => ({
    attempt_id: o.outcome === 'dropped' ? null : randomUUID(),
    id: o.id,
    outcome: o.outcome,
    number: o.number,
    started_at: o.startedAt.toISOString(),
    duration_ms: o.result.durationMs,
    http_status: o.result.httpStatus,
    response_excerpt: o.result.responseExcerpt,
    error: o.result.error,
    delivered_at: o.deliveredAt?.toISOString() ?? null,
    retry_at: o.retryAt?.toISOString() ?? null,
  }));
  await executeRows(s.db, Prisma.sql`
    WITH v AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS v(
        attempt_id uuid, id uuid, outcome text, number int, started_at timestamptz, duration_ms int,
        http_status int, response_excerpt text, error text, delivered_at timestamptz, retry_at timestamptz)
    ), attempts AS (
      INSERT INTO "NotificationAttempt" (id, "notificationId", number, "startedAt", "durationMs", "httpStatus", "responseExcerpt", error)
      SELECT attempt_id, id, number, started_at AT TIME ZONE 'UTC', duration_ms, http_status, response_excerpt, error
      FROM v WHERE outcome <> 'dropped'
    )
    UPDATE "Notification" n SET
      status = CASE v.outcome
        WHEN 'delivered' THEN 'delivered'::"NotificationStatus"
        WHEN 'failed' THEN 'failed'::"NotificationStatus"
        WHEN 'dropped' THEN (CASE WHEN n.status = 'pending' THEN 'dropped' ELSE n.status END)::"NotificationStatus"
        ELSE n.status END,
      "attemptCount" = CASE WHEN v.outcome = 'dropped' THEN n."attemptCount" ELSE v.number END,
      "deliveredAt" = CASE WHEN v.outcome = 'delivered' THEN v.delivered_at AT TIME ZONE 'UTC' ELSE n."deliveredAt" END,
      "nextAttemptAt" = CASE WHEN v.outcome = 'retry' AND n.status = 'pending' THEN v.retry_at AT TIME ZONE 'UTC' ELSE NULL END,
      "leasedUntil" = NULL
    FROM v WHERE n.id = v.id`);
}

/**
 * Collects outcomes and writes them while attempts go on: one write at a time, taking everything
 * that arrived meanwhile (up to MAX_WRITE_BATCH), so the batch grows with the rate of attempts.
 */
class OutcomeWriter {
  private queue: Outcome[] = [];
  private running: Promise<void> | null = null;
  private error: { reason: unknown } | null = null;

  constructor(private readonly s: Services) {}

  get failed(): boolean {
    return this.error !== null;
  }

  add(o: Outcome): void {
    this.queue.push(o);
    this.running ??= this.run();
  }

  private async run(): Promise<void> {
    try {
      while (this.queue.length > 0 && !this.error) {
        const batch = this.queue.splice(0, MAX_WRITE_BATCH);
        await writeOutcomes(this.s, batch);
      }
    } catch (reason) {
      // The batch's notifications stay leased; another attempt follows when the lease ends.
      this.error ??= { reason };
    } finally {
      this.running = null;
    }
  }

  async drain(): Promise<void> {
    while (this.running) await this.running;
    if (this.error) throw this.error.reason;
  }
}

/** One log line and one metrics sample per attempt, carrying the request id of the request that caused the event. */
function logAttempt(s: Services, n: Claimed, number: number, startedAt: Date, result: AttemptResult, outcome: 'delivered' | 'retry' | 'failed'): void {
  const lag = n.dueMs !== null ? (startedAt.getTime() - n.dueMs) / 1000 : null;
  s.observe?.webhookAttempt(outcome, lag);
  contextLogger()?.info('webhook attempt', {
    ...(n.requestId ? { request_id: n.requestId } : {}),
    notification_id: n.id, event: n.event, workspace: n.workspaceSlug, attempt: number, outcome,
    http_status: result.httpStatus, error: result.error, duration_ms: result.durationMs,
  });
}

async function send(s: Services, n: Claimed, at: Date): Promise<AttemptResult> {
  if (!n.credentialId || !n.secretEncrypted) return { httpStatus: null, responseExcerpt: null, error: 'workspace has no API secret', durationMs: 0 };
  let secret: string;
  try {
    secret = cachedSecret(s.masterKey, n.credentialId, n.secretEncrypted);
  } catch (err) {
    // Nothing can be signed: an attempt that failed (and is retried), not a run that broke.
    if (!(err instanceof UnreadableSecretError)) throw err;
    return { httpStatus: null, responseExcerpt: null, error: `API secret cannot be decrypted with this master key (${err.subject}): start with the key it was written with, or rotate the key`, durationMs: 0 };
  }
  let addressSecrets: string[];
  try {
    addressSecrets = signingSecretsAt(s.masterKey, { id: n.addressId, signingSecretEncrypted: n.signingSecretEncrypted, previousSecretEncrypted: n.previousSecretEncrypted, previousSecretUntil: n.previousSecretUntilMs === null ? null : new Date(n.previousSecretUntilMs) }, at);
  } catch (err) {
    if (!(err instanceof UnreadableSecretError)) throw err;
    return { httpStatus: null, responseExcerpt: null, error: `signing secret cannot be decrypted with this master key (${err.subject}): start with the key it was written with, or rotate the address's secret`, durationMs: 0 };
  }
  return postWebhook(n.url, signedHeaders(secret, addressSecrets, at, n.url, n.body), n.body, s.webhooks);
}

/**
 * The headers of every webhook POST, real or test: the contract's X-Timestamp and X-Signature (API
 * secret), and X-Webhook-Signature when the address has its own secrets (signing.ts).
 */
export function signedHeaders(apiSecret: string, addressSecrets: readonly string[], at: Date, url: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const path = webhookPath(url);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'payment-gateway-webhooks/1',
    'X-Timestamp': timestamp,
    'X-Signature': signTimestamped(apiSecret, timestamp, 'POST', path, body),
    ...(addressSecrets.length > 0 ? { [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(addressSecrets, timestamp, path, body) } : {}),
  };
}

/** Resend by hand after the attempts ended: at once, same id and body, to the stored address. */
export async function resendNotification(s: Services, workspace: Workspace, id: string): Promise<Notification> {
  const n = isUuid(id) ? await s.db.notification.findFirst({ where: { id, workspaceId: workspace.id } }) : null;
  if (!n) throw NotFoundError.single(['id'], 'notification_not_found');
  if (n.status === 'pending') throw StateError.single(['id'], 'notification_still_pending');
  // Claimed like an automatic attempt, so two resends at once (two clicks, two processes) make one attempt.
  const now = s.clock.now();
  const claimed = await s.db.notification.updateMany({
    where: { id: n.id, status: { not: 'pending' }, OR: [{ leasedUntil: null }, { leasedUntil: { lte: now } }] },
    data: { leasedUntil: new Date(now.getTime() + leaseMs(s.webhooks)) },
  });
  if (claimed.count === 0) throw StateError.single(['id'], 'notification_still_pending');
  const outcome = await attempt(s, await loadForAttempt(s, n.id), { manual: true });
  await writeOutcomes(s, [outcome]);
  return s.db.notification.findUniqueOrThrow({ where: { id: n.id } });
}
