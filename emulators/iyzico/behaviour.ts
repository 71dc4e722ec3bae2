/**
 * Test controls: what the next API calls do instead of (or before) answering normally.
 *  - decline: payment-making calls (auth, 3DS initialize, 3DS auth) fail with a bank decline
 *  - fail:    any API call answers iyzico's system error (HTTP 500, errorCode 1)
 *  - timeout: any API call never answers (the socket stays open until the client gives up)
 *  - slow:    any API call answers normally after delayMs
 * Each rule applies to `count` calls (default 1), or to every call with count = -1.
 */
export type BehaviourMode = 'decline' | 'fail' | 'timeout' | 'slow';

export interface BehaviourRule {
  mode: BehaviourMode;
  count: number;
  delayMs: number;
}

/**
 * A real bank's time to answer: every API call (whatever it answers) waits a uniformly random
 * delay in [minMs, maxMs] first. A server option (`latency`) and `--latency MIN-MAX` of
 * `npm run emulator`, not a rule: it stays through /_emulator/reset.
 */
export interface Latency {
  minMs: number;
  maxMs: number;
}

/** "300-800" or "500" (fixed); throws with what is wrong. */
export function parseLatency(text: string): Latency {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`latency must be MIN-MAX or MS in milliseconds, got "${text}"`);
  return checkLatency({ minMs: Number(match[1]), maxMs: Number(match[2] ?? match[1]) });
}

function checkLatency(latency: Latency): Latency {
  const { minMs, maxMs } = latency;
  if (!Number.isInteger(minMs) || !Number.isInteger(maxMs) || minMs < 0 || maxMs < minMs) throw new Error('latency needs integers 0 <= minMs <= maxMs');
  return { minMs, maxMs };
}

/** How many waits are kept until read (a long manual run drops the older half). */
const LATENCIES_KEPT = 200_000;

export class Behaviour {
  private rules: BehaviourRule[] = [];
  private readonly latency: Latency | null;
  private waited: number[] = [];

  constructor(latency?: Latency) {
    this.latency = latency ? checkLatency(latency) : null;
  }

  /** The `latency` delay of one API call; records how long it actually waited (timer lateness included). */
  async wait(): Promise<void> {
    if (!this.latency) return;
    const { minMs, maxMs } = this.latency;
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, minMs + Math.random() * (maxMs - minMs)));
    if (this.waited.length >= LATENCIES_KEPT) this.waited = this.waited.slice(LATENCIES_KEPT / 2);
    this.waited.push(performance.now() - started);
  }

  /** The waits (ms) since the last call, in the order they ended; a benchmark's measured bank latency. */
  takeLatencies(): number[] {
    const taken = this.waited;
    this.waited = [];
    return taken;
  }

  set(input: { mode?: unknown; count?: unknown; delayMs?: unknown }): BehaviourRule {
    const modes: BehaviourMode[] = ['decline', 'fail', 'timeout', 'slow'];
    if (!modes.includes(input.mode as BehaviourMode)) throw new Error(`mode must be one of ${modes.join(', ')}`);
    const count = input.count === undefined ? 1 : Number(input.count);
    const delayMs = input.delayMs === undefined ? 2_000 : Number(input.delayMs);
    if (!Number.isInteger(count) || count === 0 || count < -1) throw new Error('count must be a positive integer or -1');
    if (!Number.isInteger(delayMs) || delayMs < 0) throw new Error('delayMs must be a non-negative integer');
    const rule = { mode: input.mode as BehaviourMode, count, delayMs };
    this.rules.push(rule);
    return rule;
  }

  /** Takes the first rule that applies to this call, using one of its counts. */
  take(isPaymentCall: boolean): BehaviourRule | null {
    const rule = this.rules.find((r) => r.mode !== 'decline' || isPaymentCall);
    if (!rule) return null;
    if (rule.count > 0 && --rule.count === 0) this.rules.splice(this.rules.indexOf(rule), 1);
    return rule;
  }

  list(): BehaviourRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  clear(): void {
    this.rules = [];
  }
}
