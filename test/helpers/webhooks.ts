// Webhook test tools: wait for the deliver-webhooks job to run after the clock moved, read
// notifications, produce events, and call the dashboard GraphQL API with a bearer token.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { TestGateway } from './gateway.ts';
import { recordEvent, type DomainEvent, type EventKind } from '../../src/domain/events.ts';
import { DELIVER_WEBHOOKS_JOB } from '../../src/jobs/deliver-webhooks.ts';

/**
 * Waits until `rounds` runs of the deliver-webhooks job have started after this call and finished,
 * so everything due by the (already moved) clock has been attempted. Works for any gateway on the
 * database (the recurring job is one row shared by every process).
 */
export async function deliveryRounds(t: Pick<TestGateway, 'databaseUrl'>, rounds = 1, timeoutMs = 20_000): Promise<void> {
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < rounds; i++) {
      const marker = new Date();
      for (;;) {
        const { rows } = await client.query<{ done: boolean }>(
          `SELECT (last_run_at >= $2 AND coalesce(greatest(last_finished_at, failed_at), 'epoch') >= last_run_at) AS done
             FROM agenda.agenda_jobs WHERE name = $1`,
          [DELIVER_WEBHOOKS_JOB, marker],
        );
        if (rows.some((r) => r.done)) break;
        if (Date.now() > deadline) throw new Error(`${DELIVER_WEBHOOKS_JOB} did not run ${rounds} time(s) within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }
  } finally {
    await client.end();
  }
}

/** Polls until `check` returns a value other than undefined/false. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function notificationsOf(t: TestGateway, where: { recordToken?: string; workspaceId?: string } = {}) {
  return t.gateway.services.db.notification.findMany({
    where,
    include: { attempts: { orderBy: { number: 'asc' } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}

/** Waits until the notification has `count` attempts recorded (the answer came and was written). */
export function attemptsRecorded(t: TestGateway, id: string, count: number) {
  return eventually(async () => {
    const n = await t.gateway.services.db.notification.findUniqueOrThrow({ where: { id }, include: { attempts: { orderBy: { number: 'asc' } } } });
    return n.attempts.length >= count && n.leasedUntil === null ? n : undefined;
  }, `${count} attempt(s) of notification ${id}`);
}

/** Records one event (as a domain module does, in a transaction) at the gateway clock's time. */
export async function emitEvent(t: TestGateway, workspaceId: string, kind: EventKind, extra: Partial<DomainEvent> = {}): Promise<{ recordToken: string; at: Date }> {
  const recordToken = extra.recordToken ?? randomUUID();
  const at = t.clock.now();
  await t.gateway.services.db.$transaction((tx) => recordEvent(tx, { workspaceId, kind, recordToken, ...extra }, at));
  return { recordToken, at };
}

export interface GqlResult {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely
  body: { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

export async function gql(t: TestGateway, token: string | null, query: string, variables?: Record<string, unknown>): Promise<GqlResult> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'Accept-Language': 'en' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as GqlResult['body'] };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
