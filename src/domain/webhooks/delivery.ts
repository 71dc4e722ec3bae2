// Delivery of notifications (spec: Delivery rules): first attempt 30 s after the event, 5 attempts
// in all with waits of 60 s, 5 min, 15 min and 30 min, any 2xx is success. Due notifications are
// claimed with FOR UPDATE SKIP LOCKED and a lease, so several gateway processes send each attempt
// once; all times come from the injected clock.
import { isUuid } from '../validation.ts';
import type { Notification, Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { decryptSecret } from '../secrets.ts';
import { signTimestamped, webhookPath } from '../signatures.ts';
import { NotFoundError, StateError } from '../errors.ts';
import { destinationAllowed } from './outbound.ts';
import { postWebhook, type AttemptResult } from './send.ts';
import { contextLogger } from '../../logger.ts';

export const MAX_ATTEMPTS = 5;
export const RETRY_WAITS_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000] as const;

export interface WebhookSettings {
  production: boolean;
  timeoutMs: number;
  /** Parallel HTTP attempts per process. */
  concurrency: number;
}

/**
 * How long a claimed notification is held: longer than one attempt can take (the HTTP timeout plus
 * a margin for the database), and never less than 2 minutes. Only notifications whose attempt
 * starts at once are claimed, so a lease never runs out while a row waits in a local queue.
 */
function leaseMs(settings: WebhookSettings): number {
  return Math.max(2 * 60_000, settings.timeoutMs + 60_000);
}

/**
 * Sends every notification due now; returns how many attempts were made. Up to `concurrency`
 * workers each claim one notification, attempt it, and claim the next, until none is due (or
 * `maxRunMs` has passed; the next run continues).
 */
export async function deliverDue(s: Services, maxRunMs = 30_000): Promise<number> {
  const stopAt = Date.now() + maxRunMs;
  let attempts = 0;
  const first = await claimDue(s, s.webhooks.concurrency);
  const worker = async (claimed: string | undefined) => {
    let id = claimed;
    while (id) {
      await attemptDelivery(s, id, { manual: false });
      attempts++;
      if (Date.now() >= stopAt) return;
      [id] = await claimDue(s, 1);
    }
  };
  // Every worker finishes before the run ends (a stopping process waits for the run).
  const outcomes = await Promise.allSettled(first.map(worker));
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failure) throw failure.reason;
  return attempts;
}

async function claimDue(s: Services, limit: number): Promise<string[]> {
  const now = s.clock.now();
  const until = new Date(now.getTime() + leaseMs(s.webhooks));
  const rows = await s.db.$queryRaw<{ id: string }[]>`
    UPDATE "Notification" SET "leasedUntil" = (${until}::timestamptz AT TIME ZONE 'UTC')
    WHERE id IN (
      SELECT id FROM "Notification"
      WHERE status = 'pending' AND "nextAttemptAt" <= (${now}::timestamptz AT TIME ZONE 'UTC')
        AND ("leasedUntil" IS NULL OR "leasedUntil" <= (${now}::timestamptz AT TIME ZONE 'UTC'))
      ORDER BY "nextAttemptAt" LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id`;
  return rows.map((r) => r.id);
}

/**
 * One attempt. Automatic attempts skip disabled or deleted addresses; a manual resend does not. A
 * subscription's own webhook_url has no address row to disable.
 */
async function attemptDelivery(s: Services, id: string, opts: { manual: boolean }): Promise<Notification> {
  const n = await s.db.notification.findUniqueOrThrow({ where: { id }, include: { address: true, workspace: true, outboxEvent: { select: { requestId: true } } } });
  const addressGone = n.subscriptionId === null && (!n.address || !n.address.enabled);
  if (!opts.manual && (n.status !== 'pending' || addressGone)) {
    return s.db.notification.update({ where: { id }, data: { status: n.status === 'pending' ? 'dropped' : n.status, leasedUntil: null, nextAttemptAt: null } });
  }
  const startedAt = s.clock.now();
  const result = (await destinationAllowed(n.url, s.webhooks))
    ? await send(s, n, n.workspace, startedAt)
    : { httpStatus: null, responseExcerpt: null, error: 'destination not allowed', durationMs: 0 };
  // Any 2xx that arrived whole within the timeout; a cut-off answer or a timeout is a failure.
  const ok = result.error === null && result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
  const number = n.attemptCount + 1;
  const exhausted = number >= MAX_ATTEMPTS;
  logAttempt(s, n, number, startedAt, result, ok ? 'delivered' : opts.manual || exhausted ? 'failed' : 'retry');
  return s.db.$transaction(async (tx) => {
    await tx.notificationAttempt.create({ data: { notificationId: id, number, startedAt, ...result } });
    if (ok) return tx.notification.update({ where: { id }, data: { status: 'delivered', attemptCount: number, deliveredAt: s.clock.now(), nextAttemptAt: null, leasedUntil: null } });
    if (opts.manual || exhausted) return tx.notification.update({ where: { id }, data: { status: 'failed', attemptCount: number, nextAttemptAt: null, leasedUntil: null } });
    // Disabled or deleted while this attempt was under way: the attempt is recorded, nothing more is queued.
    const current = await tx.notification.findUniqueOrThrow({ where: { id }, select: { status: true } });
    const wait = RETRY_WAITS_MS[number - 1]!;
    const nextAttemptAt = current.status === 'pending' ? new Date(startedAt.getTime() + wait) : null;
    return tx.notification.update({ where: { id }, data: { attemptCount: number, nextAttemptAt, leasedUntil: null } });
  });
}

/** One log line and one metrics sample per attempt, carrying the request id of the request that caused the event. */
function logAttempt(s: Services, n: Notification & { workspace: Workspace; outboxEvent: { requestId: string | null } }, number: number, startedAt: Date, result: AttemptResult, outcome: 'delivered' | 'retry' | 'failed'): void {
  const lag = n.nextAttemptAt ? (startedAt.getTime() - n.nextAttemptAt.getTime()) / 1000 : null;
  s.observe?.webhookAttempt(outcome, lag);
  contextLogger()?.info('webhook attempt', {
    ...(n.outboxEvent.requestId ? { request_id: n.outboxEvent.requestId } : {}),
    notification_id: n.id, event: n.event, workspace: n.workspace.slug, attempt: number, outcome,
    http_status: result.httpStatus, error: result.error, duration_ms: result.durationMs,
  });
}

async function send(s: Services, n: Notification, workspace: Workspace, at: Date): Promise<AttemptResult> {
  const credential = await s.db.apiCredential.findFirst({ where: { workspaceId: workspace.id, revokedAt: null }, orderBy: { createdAt: 'desc' } });
  if (!credential) return { httpStatus: null, responseExcerpt: null, error: 'workspace has no API secret', durationMs: 0 };
  const secret = decryptSecret(s.masterKey, credential.secretEncrypted);
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'payment-gateway-webhooks/1',
    'X-Timestamp': timestamp,
    'X-Signature': signTimestamped(secret, timestamp, 'POST', webhookPath(n.url), n.body),
  };
  return postWebhook(n.url, headers, n.body, s.webhooks);
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
  return attemptDelivery(s, n.id, { manual: true });
}
