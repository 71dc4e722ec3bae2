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

export class Behaviour {
  private rules: BehaviourRule[] = [];

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
