// What a gateway process remembers of its calls' admissions, so that a call with a known key
// costs no statement: per credential, the workspace row its last admission statement returned,
// and the share of the workspace's per-second window (429) that statement claimed for this
// process, its lease.
//
// Why it can be trusted: every change to a workspace or a credential, by any client (another
// process, the CLI, psql), is announced on ADMISSION_CHANNEL by a trigger (migration 0016), and
// the process forgets that workspace when the notification arrives, milliseconds after the
// commit. Nothing is remembered while the LISTEN connection is down, everything is forgotten when
// it is lost and when it is back, a row read before a change's notification arrived is not kept,
// and no entry is used longer than `ttlMs` (ADMISSION_MEMORY_MS) after its read: a notification
// lost some other way costs at most that long.
//
// The lease: a call's statement adds the lease's size to the window (admission.ts), and this
// process admits that many calls before it needs the database again. A window never admits more
// than its limit; with several processes a call may be refused while another process still holds
// unused points of the same window, at most (lease - 1) per other process (decisions.md "429").
import { Prisma, type Workspace } from '../generated/prisma/client.ts';
import type { Tx } from '../db/client.ts';
import type { Notifications } from '../db/notifications.ts';
import { executeRows } from '../db/raw.ts';

export const ADMISSION_CHANNEL = 'gateway_admission';
/** Entries kept; past it the memory starts empty again (a read costs one statement). */
const MAX_ENTRIES = 10_000;

/** This process's share of a workspace's per-second window. */
export interface Lease {
  /** When the window ends (epoch ms, the gateway's clock). */
  expire: number;
  /** Points claimed and not yet used. */
  left: number;
  /** The window refused this process's claim: calls are refused until it ends. */
  refused: boolean;
}

export interface Remembered {
  workspace: Workspace;
  /** Null: the workspace's calls are not counted (no limit, or an inactive workspace). */
  lease: Lease | null;
}

/** What a remembered credential's next call gets without a statement. */
export type Recalled = { workspace: Workspace; refusedUntil: number | null };

export interface AdmissionMemory {
  /** Taken before a statement and passed to remember(): a change announced in between voids the read. */
  generation(): number;
  /** The credential's remembered admission, one point of its lease used; undefined: ask the database. */
  recall(credentialId: string, nowMs: number): Recalled | undefined;
  remember(credentialId: string, generation: number, entry: Remembered, nowMs: number): void;
  /** Resolves once every change committed before the call has reached this process (tests, tools). */
  synced(): Promise<void>;
  /**
   * The admission statement this process is running for the credential, if any. A call that found
   * nothing to recall waits for it and recalls again instead of sending its own: when a lease runs
   * out under load, every call in flight would otherwise claim a lease of its own.
   */
  pending(credentialId: string): Promise<unknown> | undefined;
  /** Marks `read` as the credential's pending statement until it settles; returns it. */
  reading<T>(credentialId: string, read: Promise<T>): Promise<T>;
}

interface Entry extends Remembered {
  readAt: number;
}

/** `ttlMs`: the longest an entry is used after its read, whatever the notifications. */
export function admissionMemory(notifications: Notifications, db: Tx, ttlMs: number): AdmissionMemory {
  const entries = new Map<string, Entry>();
  const waiting = new Map<string, () => void>();
  const reads = new Map<string, Promise<void>>();
  let generation = 0;
  let syncs = 0;

  const forgetAll = () => {
    generation++;
    entries.clear();
  };
  notifications.onGap(forgetAll);
  notifications.on(ADMISSION_CHANNEL, (payload) => {
    const sync = waiting.get(payload);
    if (sync) return waiting.delete(payload), sync();
    generation++;
    for (const [credentialId, entry] of entries) if (entry.workspace.id === payload) entries.delete(credentialId);
  });

  return {
    generation: () => generation,
    recall(credentialId, nowMs) {
      const entry = entries.get(credentialId);
      if (!entry || nowMs - entry.readAt >= ttlMs || !notifications.connected) return undefined;
      const { workspace, lease } = entry;
      if (!lease) return { workspace, refusedUntil: null };
      if (nowMs >= lease.expire) return undefined;
      if (lease.refused) return { workspace, refusedUntil: lease.expire };
      if (lease.left === 0) return undefined;
      lease.left--;
      return { workspace, refusedUntil: null };
    },
    remember(credentialId, seen, entry, nowMs) {
      if (seen !== generation || !notifications.connected) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(credentialId, { ...entry, readAt: nowMs });
    },
    pending: (credentialId) => reads.get(credentialId),
    reading(credentialId, read) {
      const settled: Promise<void> = read.then(
        () => {},
        () => {},
      ).finally(() => {
        if (reads.get(credentialId) === settled) reads.delete(credentialId);
      });
      reads.set(credentialId, settled);
      return read;
    },
    async synced() {
      if (!notifications.connected) return; // nothing is remembered meanwhile
      const payload = `sync:${process.pid}:${++syncs}`;
      const arrived = new Promise<void>((resolve) => waiting.set(payload, resolve));
      await executeRows(db, Prisma.sql`SELECT pg_notify(${ADMISSION_CHANNEL}, ${payload})`);
      await arrived;
    },
  };
}
