// What a gateway process remembers of the card-testing guard's counts, so that a busy honest
// source (a shop's office or a merchant's server sending one card from one address, or API
// payments sent without an address) is judged without reading PostgreSQL on every attempt.
//
// Only a quiet picture is kept: a count after which no rule of the guard fired, nothing was
// cooling down, and the attempt's address had this one card in its window. While that stays true,
// the next attempt with the same card from the same address sees exactly the figures the count
// saw, and anything that could change them is announced on RISK_CHANNEL, by any process or client:
// a payment of the workspace refused by a bank (a trigger on "Payment", migration 0051), a count
// that found a second card on an address or fired a rule (a block starts), the workspace's row
// changed (its thresholds, lists, guard switch: ADMISSION_CHANNEL). The process forgets the
// workspace when such a notification arrives, milliseconds after the commit; its own refusals it
// forgets at once (`forget`, settle.ts), so its next call never races its own notification.
// Nothing is remembered while the LISTEN connection is down, everything is forgotten when it is
// lost and when it is back, a count taken before a notification arrived is not kept, and no entry
// is used longer than `ttlMs` (RISK_MEMORY_MS) after its count: a card's row in its address's
// window is written again at least that often, so the window never loses a card in use.
//
// An attempt judged from memory writes no attempt row. The attempts of a page or link, and any
// attempt whose workspace has list entries, are always counted in PostgreSQL; so is every new
// address or card, but while the workspace's own figures (its declines and cool-down) are
// remembered, such a count reads only its address and page (`recallWorkspace`).
import type { Notifications } from '../../db/notifications.ts';
import { RISK_CHANNEL, type GuardSource, type SourceFigures } from './types.ts';

export { RISK_CHANNEL } from './types.ts';
/** Workspaces kept, and cards per workspace; past either the memory starts empty again (the next attempts are counted). */
const MAX_WORKSPACES = 10_000;
const MAX_CARDS = 10_000;

interface Remembered {
  readAt: number;
  figures: SourceFigures;
}

interface WorkspaceEntry {
  /** The workspace source's figures as last counted. */
  own: Remembered | null;
  /** Per `${ip}\n${fingerprint}`: the address's figures when this card was last counted from it. */
  cards: Map<string, Remembered>;
}

/** What the memory reads of an attempt (guard.ts, GuardAttempt). */
export interface RememberedAttempt {
  workspaceId: string;
  fingerprint: string;
  /** The list facts the count would read; any (the workspace has entries): never remembered. */
  listed: object | null;
  sources: GuardSource[];
}

/** A count as the memory keeps and gives it back (guard.ts, Counted); a recalled one matched no list entry. */
export interface Recalled {
  figures: SourceFigures[];
  listed: [];
}

export interface RiskMemory {
  /** Taken before a count and passed to remember(): a change announced in between voids the count. */
  generation(): number;
  /** The figures a count would return for this attempt, or undefined: count it in PostgreSQL. */
  recall(attempt: RememberedAttempt, nowMs: number): Recalled | undefined;
  /**
   * The workspace's own figures (its declines and cool-down) as a count would read them, or
   * undefined. An attempt that must be counted (a new address or card, a page) then counts only
   * its other sources.
   */
  recallWorkspace(attempt: RememberedAttempt, nowMs: number): SourceFigures | undefined;
  remember(attempt: RememberedAttempt, counted: { figures: SourceFigures[] }, generation: number, nowMs: number): void;
  /** This process refused or saw refused a payment of the workspace: drop what is kept of it now. */
  forget(workspaceId: string): void;
}

/** Whether an attempt's sources can be remembered at all: its address and workspace only, no lists. */
const rememberable = (a: RememberedAttempt) => a.listed === null && a.sources.every((s) => s.kind !== 'target');

/** A figure that fires nothing under the attempt's thresholds, cooling nothing, one card at most. */
function quiet(attempt: RememberedAttempt, f: SourceFigures): boolean {
  const source = attempt.sources.find((s) => s.kind === f.kind);
  if (!source || f.coolingDown || f.cardsFired || f.declinesFired || f.threeDsFired) return false;
  if (f.kind === 'ip' && f.cards > 1) return false;
  const over = (threshold: number, seen: number) => threshold > 0 && seen >= threshold;
  return !over(source.cards, f.cards) && !over(source.cardsFor3ds, f.cards) && !over(source.declines, f.declines);
}

/** Remembered figures as an attempt judged from them keeps them: with the age of their count. */
const aged = (kept: Remembered, nowMs: number): SourceFigures => ({ ...kept.figures, countAgeMs: nowMs - kept.readAt });

/** `ttlMs`: the longest a count stands in for the next ones. */
export function riskMemory(notifications: Notifications, ttlMs: number, channels: { workspaceChanged: string }): RiskMemory {
  const workspaces = new Map<string, WorkspaceEntry>();
  let generation = 0;
  const forget = (workspaceId: string) => {
    generation++;
    workspaces.delete(workspaceId);
  };
  notifications.onGap(() => {
    generation++;
    workspaces.clear();
  });
  notifications.on(RISK_CHANNEL, forget);
  notifications.on(channels.workspaceChanged, forget);

  const fresh = (r: Remembered | null | undefined, nowMs: number): r is Remembered => !!r && nowMs - r.readAt < ttlMs;

  return {
    generation: () => generation,
    recall(attempt, nowMs) {
      if (!notifications.connected || !rememberable(attempt)) return undefined;
      const entry = workspaces.get(attempt.workspaceId);
      if (!entry) return undefined;
      const figures: SourceFigures[] = [];
      for (const source of attempt.sources) {
        const kept = source.kind === 'ip' ? entry.cards.get(`${source.key}\n${attempt.fingerprint}`) : entry.own;
        if (!fresh(kept, nowMs) || !quiet(attempt, kept.figures)) return undefined;
        figures.push(aged(kept, nowMs));
      }
      return { figures, listed: [] };
    },
    recallWorkspace(attempt, nowMs) {
      const own = notifications.connected ? workspaces.get(attempt.workspaceId)?.own : undefined;
      return fresh(own, nowMs) && quiet(attempt, own.figures) ? aged(own, nowMs) : undefined;
    },
    remember(attempt, counted, seen, nowMs) {
      if (seen !== generation || !notifications.connected) return;
      // The workspace's figures hold whatever its other sources showed; the address's only when
      // the whole count was quiet.
      const own = counted.figures.find((f) => f.kind === 'workspace');
      const ip = attempt.sources.find((s) => s.kind === 'ip');
      const card = ip && rememberable(attempt) && counted.figures.every((f) => quiet(attempt, f)) ? counted.figures.find((f) => f.kind === 'ip') : undefined;
      if (!(own && quiet(attempt, own)) && !card) return;
      let entry = workspaces.get(attempt.workspaceId);
      if (!entry) {
        if (workspaces.size >= MAX_WORKSPACES) workspaces.clear();
        entry = { own: null, cards: new Map() };
        workspaces.set(attempt.workspaceId, entry);
      }
      if (own && quiet(attempt, own)) entry.own = { readAt: nowMs, figures: own };
      if (ip && card) {
        if (entry.cards.size >= MAX_CARDS) entry.cards.clear();
        entry.cards.set(`${ip.key}\n${attempt.fingerprint}`, { readAt: nowMs, figures: card });
      }
    },
    forget,
  };
}
