// Command-line flags of `npm run bench` (after `--`).
import { parseArgs } from 'node:util';
import { parseLatency, type Latency } from '../../emulators/iyzico/behaviour.ts';

export const PHASES = ['baseline', 'floor', 'payment', 'secure', 'retrieve', 'list', 'guard', 'bank', 'webhooks'] as const;
export type Phase = (typeof PHASES)[number];

/** The bank phase's load: 128 merchants' calls in flight against a bank answering in 300-800 ms. */
export const BANK_DEFAULTS = { clients: 128, latency: { minMs: 300, maxMs: 800 }, rounds: 1 };

export interface BenchOptions {
  durationMs: number;
  warmupMs: number;
  /** Unmeasured mixed load once after each gateway start, before its first phase (JIT warm-up). */
  jitWarmupMs: number;
  concurrency: number;
  events: number;
  webhookTimeoutMs: number;
  /** Gateway worker processes (WORKERS); the gateway phases run once per count, in order. */
  workers: number[];
  listSizes: number[];
  /** Back-to-back pairs (bare-pg payment, regular-payment) after each worker count's phases. */
  rounds: number;
  /** The guard phase's back-to-back pairs (without, then with the guard and ten rules). */
  guardRounds: number;
  /** The guard phase's shoppers: `same` (one address, one card: a busy office) or `new` (each payment its own address and card). */
  guardShoppers: 'same' | 'new';
  /** The bank phase: concurrent clients, and the emulated bank's latency per answer. */
  bank: { clients: number; latency: Latency; rounds: number };
  phases: Set<Phase>;
  showSql: boolean;
  quick: boolean;
}

export const USAGE = `npm run bench [-- options]

Starts the gateway as a new user does (own process, embedded PostgreSQL in a temp dir, simulator),
loads it over keep-alive HTTP, and prints throughput, latency, CPU and SQL per operation beside a
bare-pg baseline on the same database. Everything it starts is stopped at the end or on Ctrl+C.

  --quick             short smoke run: 2 s phases, 0.5 s warm-up, 500 webhook events
  --duration <s>      measured seconds per phase (default 10)
  --warmup <s>        unmeasured seconds before each phase (default 2)
  --jit-warmup <s>    unmeasured seconds of the selected gateway operations, in turn, once after
                      each gateway start, so V8 has optimised the request path before anything is
                      measured (default 30; 0 measures a cold process)
  --concurrency <n>   concurrent clients (default 32)
  --events <n>        webhook events due at once (default 10000)
  --webhook-timeout <s>  give up on deliveries after this long (default 600)
  --list-sizes <a,b>  page sizes of the GraphQL payments list (default 10,50)
  --only <phases>     comma list of ${PHASES.join(', ')} (default all)
  --sql               after each phase, the statements PostgreSQL ran per operation and their execution time
  --workers <a,b>     gateway processes (WORKERS) to measure, e.g. 1,2: the gateway restarts with
                      each count and its phases run again, beside the same baseline (default 1)
  --rounds <n>        after each worker count's phases, n pairs of the bare-pg payment transaction
                      and regular-payment back to back (each --warmup, then --duration); the
                      payment ratio goal is then judged on their median, not on the one pair of
                      phases minutes apart (needs the baseline and payment phases; default 0);
                      with the floor phase, each round runs the floor's payment in between and
                      the summary gives the median ratio to the floor too
  --guard-rounds <n>  pairs of the guard phase: regular-payment with the guard off and no rules,
                      then with the default guard and ten rules that never fire (each --warmup,
                      then --duration); the guard's cost is judged on the median ratio (default 3)
  --guard-shoppers <same|new>  who pays in the guard phase: one address with one card, as the
                      other phases (same, the default), or each payment from an address and with a
                      card of its own, none of which the guard has seen (new)
  --bank-clients <n>  concurrent clients of the bank phase (default ${BANK_DEFAULTS.clients})
  --bank-latency <min-max>  the bank phase's iyzico emulator answers after a uniformly random
                      delay in this range, ms (default ${BANK_DEFAULTS.latency.minMs}-${BANK_DEFAULTS.latency.maxMs})
  --bank-rounds <n>   measured windows of the bank phase, back to back (each --warmup, then
                      --duration); its rate and p99 bounds are judged on their medians (default 1)
  --help`;

function positive(value: string | undefined, name: string, fallback: number, integer = true): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got "${value}"`);
  return n;
}

function bankLatency(value: string | undefined): Latency {
  if (value === undefined) return BANK_DEFAULTS.latency;
  try {
    const latency = parseLatency(value);
    if (latency.maxMs > 0) return latency;
  } catch {
    // the message below says what is expected
  }
  throw new Error(`--bank-latency must be MIN-MAX in milliseconds with MAX > 0, got "${value}"`);
}

/** null when --help was asked for. */
export function parseBenchArgs(argv: string[]): BenchOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      'jit-warmup': { type: 'string' },
      concurrency: { type: 'string' },
      events: { type: 'string' },
      'webhook-timeout': { type: 'string' },
      'list-sizes': { type: 'string' },
      only: { type: 'string' },
      sql: { type: 'boolean', default: false },
      workers: { type: 'string' },
      rounds: { type: 'string' },
      'guard-rounds': { type: 'string' },
      'guard-shoppers': { type: 'string' },
      'bank-clients': { type: 'string' },
      'bank-latency': { type: 'string' },
      'bank-rounds': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return null;
  const quick = values.quick ?? false;
  const phases = new Set<Phase>();
  for (const word of (values.only ?? PHASES.join(',')).split(',').map((w) => w.trim()).filter(Boolean)) {
    if (!(PHASES as readonly string[]).includes(word)) throw new Error(`--only: unknown phase "${word}" (expected ${PHASES.join(', ')})`);
    phases.add(word as Phase);
  }
  const rounds = values.rounds === '0' ? 0 : positive(values.rounds, 'rounds', 0);
  if (rounds > 0 && !(phases.has('baseline') && phases.has('payment'))) throw new Error('--rounds needs the baseline and payment phases');
  return {
    quick,
    durationMs: positive(values.duration, 'duration', quick ? 2 : 10, false) * 1000,
    warmupMs: values.warmup === '0' ? 0 : positive(values.warmup, 'warmup', quick ? 0.5 : 2, false) * 1000,
    jitWarmupMs: values['jit-warmup'] === '0' ? 0 : positive(values['jit-warmup'], 'jit-warmup', quick ? 0 : 30, false) * 1000,
    concurrency: positive(values.concurrency, 'concurrency', 32),
    events: positive(values.events, 'events', quick ? 500 : 10_000),
    webhookTimeoutMs: positive(values['webhook-timeout'], 'webhook-timeout', quick ? 120 : 600, false) * 1000,
    workers: (values.workers ?? '1').split(',').map((s) => positive(s.trim(), 'workers', 1)),
    listSizes: (values['list-sizes'] ?? '10,50').split(',').map((s) => positive(s.trim(), 'list-sizes', 10)),
    rounds,
    guardRounds: positive(values['guard-rounds'], 'guard-rounds', quick ? 1 : 3),
    guardShoppers: guardShoppers(values['guard-shoppers']),
    bank: {
      clients: positive(values['bank-clients'], 'bank-clients', BANK_DEFAULTS.clients),
      latency: bankLatency(values['bank-latency']),
      rounds: positive(values['bank-rounds'], 'bank-rounds', BANK_DEFAULTS.rounds),
    },
    phases,
    showSql: values.sql ?? false,
  };
}

function guardShoppers(value: string | undefined): 'same' | 'new' {
  if (value === undefined || value === 'same' || value === 'new') return value ?? 'same';
  throw new Error(`--guard-shoppers: expected same or new, got "${value}"`);
}
