// The moment the card-testing guard starts blocking a source (an address, a page or link, the
// workspace): the `risk_source.blocked` event, once per block and not per blocked attempt. The
// guard (guard.ts) reports, per source, whether one of its rules fired on this attempt and whether
// the source was already cooling down; a rule that fires on a source not cooling down starts a
// block. Attempts racing into the same block each see "not cooling down" (one snapshot each), so
// the start is an upsert of the source's one row (its id derived from the source) that only
// writes when the row's last block began a cool-down ago or more: the first attempt writes it and
// its event, the others find the fresh row and write nothing.
import { createHash } from 'node:crypto';
import { Prisma, type RiskSource } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { changeWithEvent } from '../events.ts';
import type { SourceFigures, SourceKind } from './guard.ts';

/** A source's row id: a UUID derived from the workspace, kind and key, so the upsert needs no lookup. */
export function riskSourceId(workspaceId: string, kind: SourceKind, key: string): string {
  const hex = createHash('sha256').update(`${workspaceId}\n${kind}\n${key}`).digest('hex');
  // Version 8 (custom) and the RFC 9562 variant, so it is a well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The guard rule that started a block on this source, or null when none did. */
export function startingRule(f: SourceFigures): string | null {
  if (f.coolingDown) return null;
  if (f.cardsFired) return `${f.kind}_cards`;
  if (f.declinesFired) return `${f.kind}_declines`;
  return null;
}

export interface BlockStart {
  workspaceId: string;
  kind: SourceKind;
  key: string;
  rule: string;
  paymentId: string;
  at: Date;
  cooldownSeconds: number;
}

/** Records a block's start and its event, unless a racing attempt already did; true when this one did. */
export async function startBlock(s: Pick<Services, 'db'>, b: BlockStart): Promise<boolean> {
  const id = riskSourceId(b.workspaceId, b.kind, b.key);
  const cooled = new Date(b.at.getTime() - b.cooldownSeconds * 1000);
  const change = Prisma.sql`
    INSERT INTO "RiskSource" (id, "workspaceId", kind, key, rule, "paymentId", "blockedAt")
    VALUES (${id}::uuid, ${b.workspaceId}::uuid, ${b.kind}, ${b.key}, ${b.rule}, ${b.paymentId}::uuid, ${b.at}::timestamp)
    ON CONFLICT (id) DO UPDATE SET rule = excluded.rule, "paymentId" = excluded."paymentId", "blockedAt" = excluded."blockedAt", blocks = "RiskSource".blocks + 1
    WHERE "RiskSource"."blockedAt" <= ${cooled}::timestamp
    RETURNING *`;
  const written = await changeWithEvent<RiskSource>(s.db, change, { workspaceId: b.workspaceId, kind: 'risk_source.blocked', recordToken: id, transactionToken: b.paymentId }, b.at);
  return written !== null;
}

/** The blocks this attempt started, one per source whose rule fired while it was not cooling down (usually none: no statement). */
export async function startBlocks(s: Pick<Services, 'db'>, a: { workspaceId: string; cooldownSeconds: number; ip: string | null; target: string | null; paymentId: string; at: Date }, figures: SourceFigures[]): Promise<void> {
  const keys: Record<SourceKind, string | null> = { ip: a.ip, target: a.target, workspace: a.workspaceId };
  for (const f of figures) {
    const rule = startingRule(f);
    const key = keys[f.kind];
    if (rule && key) await startBlock(s, { workspaceId: a.workspaceId, kind: f.kind, key, rule, paymentId: a.paymentId, at: a.at, cooldownSeconds: a.cooldownSeconds });
  }
}
