// Idempotency-Key for money-moving calls (beyond the spec, as merchants expect): the first
// request with a key claims it; a retry with the same key and body within 24 hours gets the
// stored answer without touching the bank again; the same key with another body is refused.
import { createHash } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { Clock } from './clock.ts';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type Claim =
  | { state: 'claimed'; id: string }
  | { state: 'replay'; status: number; body: string }
  | { state: 'mismatch' }
  | { state: 'in_progress' };

export const requestHash = (raw: Buffer): string => createHash('sha256').update(raw).digest('hex');

export async function claimIdempotencyKey(db: Db, clock: Clock, scope: { workspaceId: string; operation: string; key: string; hash: string }): Promise<Claim> {
  const where = { workspaceId_operation_key: { workspaceId: scope.workspaceId, operation: scope.operation, key: scope.key } };
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = clock.now();
    try {
      const { hash, ...key } = scope;
      const created = await db.idempotencyRecord.create({ data: { ...key, requestHash: hash, createdAt: now } });
      return { state: 'claimed', id: created.id };
    } catch (err) {
      if ((err as { code?: string }).code !== 'P2002') throw err;
    }
    const existing = await db.idempotencyRecord.findUnique({ where });
    if (!existing) continue;
    if (now.getTime() - existing.createdAt.getTime() > IDEMPOTENCY_WINDOW_MS) {
      // Expired: forget it and claim afresh (the conditional delete lets one racer win).
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id, createdAt: existing.createdAt } });
      continue;
    }
    if (existing.requestHash !== scope.hash) return { state: 'mismatch' };
    if (existing.httpStatus !== null && existing.responseBody !== null) return { state: 'replay', status: existing.httpStatus, body: existing.responseBody };
    return { state: 'in_progress' };
  }
  return { state: 'in_progress' };
}

export async function storeIdempotentResponse(db: Db, id: string, status: number, body: string): Promise<void> {
  await db.idempotencyRecord.update({ where: { id }, data: { httpStatus: status, responseBody: body } });
}

/** An answer that should not be replayed (a crash or 5xx): free the key for a real retry. */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.idempotencyRecord.deleteMany({ where: { id } });
}
