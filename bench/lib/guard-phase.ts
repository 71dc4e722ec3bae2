// The guard phase (`--only guard`): what the risk decision costs the payment path. Back-to-back
// pairs of regular-payment, one half with the demo workspace's guard off and its rules disabled
// (the decision then reads nothing), the other with the default guard on and ten enabled rules
// that never fire (the decision's one statement counts the attempt; the rules come from the
// process's memory), in turn first and second. The cost is judged on the median of the pairs'
// ratios, as the payment ratio is (a shared machine drifts between phases minutes apart, much less
// between halves of one pair).
import type { GatewayProcess } from './gateway-process.ts';
import { newShopper, regularPayment } from './gateway-ops.ts';
import { callGraphQL, type HttpClient } from './http-client.ts';
import { runLoad, type LoadResult } from './load.ts';
import type { Meter, Usage } from './meter.ts';

export interface GuardRounds {
  /** Payments per second with the guard and rules ÷ without, per round. */
  ratios: number[];
  p99Without: number[];
  p99With: number[];
}

/** How much slower the guarded path may be (the goal: within 5 %). */
export const GUARD_GOAL = 0.95;

/**
 * Ten rules as a merchant writes them, each on a field the decision reads, none of which fires on
 * the bench's payments (100.00 TRY, one card, one address, no installments).
 */
export const QUIET_RULES = [
  { name: 'Very large amounts', outcome: 'block', conditions: [{ field: 'amount', operator: 'gt', value: 50_000_000 }] },
  { name: 'Big amounts need 3-D Secure', outcome: 'require_3ds', conditions: [{ field: 'amount', operator: 'gte', value: 2_000_000 }] },
  { name: 'Foreign currency', outcome: 'block', conditions: [{ field: 'currency', operator: 'in', value: ['USD', 'EUR', 'GBP'] }] },
  { name: 'Long installments', outcome: 'require_3ds', conditions: [{ field: 'installment_number', operator: 'gt', value: 9 }] },
  { name: 'Throwaway mail', outcome: 'block', conditions: [{ field: 'email_domain', operator: 'in', value: ['mailinator.com', 'guerrillamail.com'] }] },
  { name: 'A known bad address', outcome: 'block', conditions: [{ field: 'ip', operator: 'eq', value: '198.51.100.66' }] },
  { name: 'A BIN range seen in fraud', outcome: 'block', conditions: [{ field: 'card.bin', operator: 'starts_with', value: '999999' }] },
  { name: 'Far countries', outcome: 'require_3ds', conditions: [{ field: 'ip.country', operator: 'in', value: ['KP', 'IR'] }] },
  { name: 'Many cards from one address', outcome: 'block', conditions: [{ field: 'ip.cards', operator: 'gte', value: 40 }] },
  { name: 'Declines from one address', outcome: 'block', conditions: [{ field: 'ip.declines', operator: 'gte', value: 30 }, { field: 'amount', operator: 'gt', value: 100_000 }] },
] as const;

const SAVE_RULE = `mutation ($input: RiskRuleInput!) { saveRiskRule(input: $input) { rule { id } errors { path message } } }`;
const SET_GUARD = `mutation ($input: RiskGuardInput!) { setRiskGuard(input: $input) { workspace { riskGuard } errors { path message } } }`;

async function mutate(http: HttpClient, bearer: string, query: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await callGraphQL(http, bearer, query, { input });
  const body = JSON.parse(res.text) as { data?: Record<string, { errors?: unknown[] } & Record<string, unknown>>; errors?: unknown };
  const answer = body.data && Object.values(body.data)[0];
  if (res.status !== 200 || body.errors || !answer || answer.errors?.length) throw new Error(`guard phase set-up: ${res.text.slice(0, 300)}`);
  return answer;
}

/** Switches the guard and the ten rules on or off together (the rules are made the first time). */
async function setGuarded(http: HttpClient, bearer: string, ids: string[], on: boolean): Promise<string[]> {
  await mutate(http, bearer, SET_GUARD, { riskGuard: on });
  const saved: string[] = [];
  for (const [i, rule] of QUIET_RULES.entries()) {
    const answer = await mutate(http, bearer, SAVE_RULE, { ...rule, conditions: [...rule.conditions], ...(ids[i] ? { id: ids[i] } : {}), enabled: on });
    saved.push((answer.rule as { id: string }).id);
  }
  return saved;
}

export interface GuardPhaseSettings {
  rounds: number;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** `new`: every payment from an address and with a card of its own, so the guard counts each one. */
  shoppers: 'same' | 'new';
  /** Called with each half's usage (`--sql` prints its statements per payment). */
  onHalf?: (label: string, usage: Usage, payments: number) => void;
}

export async function runGuardPhase(
  gateway: GatewayProcess,
  http: HttpClient,
  settings: GuardPhaseSettings,
  signal: AbortSignal,
  log: (line: string) => void,
  meter: Meter,
): Promise<GuardRounds> {
  const demo = gateway.demoCredentials();
  const { token } = await gateway.cli<{ token: string }>(['token', 'create', '--workspace', demo.team, '--name', 'bench-guard']);
  let n = 1_000_000;
  // Each half's CPU too (gateway and PostgreSQL, per payment): what the decision costs each side.
  const load = async (): Promise<LoadResult & { usage: Usage }> => {
    let usage: Usage | undefined;
    const around = { before: () => meter.start(), after: async () => void (usage = await meter.stop()) };
    const result = await runLoad(async () => {
      const i = n++;
      await regularPayment(http, demo, i, settings.shoppers === 'new' ? newShopper(i) : undefined);
    }, { concurrency: settings.concurrency, signal, warmupMs: settings.warmupMs, durationMs: settings.durationMs, around });
    return { ...result, usage: usage! };
  };
  const cpu = (r: LoadResult & { usage: Usage }) => {
    const per = (ms: number) => (r.ok ? ms / r.ok : 0).toFixed(2);
    // BENCH_PLANS=1: statements planned again per payment (a plan cache that keeps custom plans).
    const plans = r.usage.sql.top.reduce((sum, [, , , planned]) => sum + planned, 0);
    return `CPU ms/payment gateway ${per(r.usage.gatewayCpuMs)}, PostgreSQL ${per(r.usage.postgresCpuMs)}, ${per(r.usage.sql.statements)} statements${plans ? `, ${per(plans)} plans` : ''}`;
  };
  const result: GuardRounds = { ratios: [], p99Without: [], p99With: [] };
  let ids: string[] = [];
  try {
    for (let round = 1; round <= settings.rounds && !signal.aborted; round++) {
      // Every other pair runs the guarded half first, so that what grows during the phase (tables,
      // indexes, the WAL since the last checkpoint) does not always weigh on the same half.
      const half = async (on: boolean) => ((ids = await setGuarded(http, token, ids, on)), await load());
      const guardedFirst = round % 2 === 0;
      const first = await half(guardedFirst);
      const second = await half(!guardedFirst);
      const [without, guarded] = guardedFirst ? [second, first] : [first, second];
      result.ratios.push(guarded.perSecond / without.perSecond);
      result.p99Without.push(without.p99);
      result.p99With.push(guarded.p99);
      const errors = without.errors + guarded.errors;
      log(
        `  guard round ${round} of ${settings.rounds}: without ${without.perSecond.toFixed(0)}/s (p99 ${without.p99.toFixed(1)} ms; ${cpu(without)}), with the guard and ten rules ${guarded.perSecond.toFixed(0)}/s (p99 ${guarded.p99.toFixed(1)} ms; ${cpu(guarded)}): ${result.ratios.at(-1)!.toFixed(3)} ×` +
          (errors ? `; ${errors} errors, first: ${without.firstError ?? guarded.firstError}` : ''),
      );
      for (const [label, r] of [['without', without], ['with the guard and ten rules', guarded]] as const) settings.onHalf?.(label, r.usage, r.ok || 1);
      if (errors) throw new Error(`guard phase: ${errors} payments failed`);
    }
  } finally {
    // The demo workspace as it was: the guard on (its default), the bench's rules off.
    if (ids.length) await setGuarded(http, token, ids, false).then(() => mutate(http, token, SET_GUARD, { riskGuard: true }));
  }
  return result;
}
