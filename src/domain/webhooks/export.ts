// Webhook notifications as CSV records, the same way as the other lists (domain/exports.ts):
// keyset batches, newest first; what was sent where and how it went, never the body.
import type { Prisma } from '../../generated/prisma/client.ts';
import type { Tx } from '../../db/client.ts';
import { batchQuery, CREATED_COLUMNS, createdCells, keysetRows } from '../exports.ts';

export const NOTIFICATION_CSV_COLUMNS = [
  'id',
  ...CREATED_COLUMNS,
  'event',
  'record_token',
  'url',
  'status',
  'attempt_count',
  'next_attempt_at',
  'delivered_at',
] as const;

export type NotificationCsvRecord = Record<(typeof NOTIFICATION_CSV_COLUMNS)[number], string>;

const SELECT = {
  id: true,
  createdAt: true,
  event: true,
  recordToken: true,
  url: true,
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  deliveredAt: true,
  workspace: { select: { timeZone: true } },
} as const satisfies Prisma.NotificationSelect;

type ExportRow = Prisma.NotificationGetPayload<{ select: typeof SELECT }>;

/** The notifications matching `where`, newest first, as records, one batch in memory at a time. */
export async function* notificationRecords(db: Tx, where: Prisma.NotificationWhereInput, signal?: AbortSignal, batch?: number): AsyncGenerator<NotificationCsvRecord> {
  const page = (after: ExportRow | null, take: number): Promise<ExportRow[]> =>
    db.notification.findMany({ ...batchQuery(where, after, take), select: SELECT });
  for await (const n of keysetRows(page, signal, batch)) {
    yield {
      id: n.id,
      ...createdCells(n),
      event: n.event,
      record_token: n.recordToken,
      url: n.url,
      status: n.status,
      attempt_count: String(n.attemptCount),
      next_attempt_at: n.nextAttemptAt?.toISOString() ?? '',
      delivered_at: n.deliveredAt?.toISOString() ?? '',
    };
  }
}
