// Closed-loop load: `concurrency` clients each send the next operation as soon as the previous
// one answered. A warm-up runs first and drains; then the measured window runs and drains too,
// so the counters read around it (CPU, SQL) cover exactly the measured operations.
import { performance } from 'node:perf_hooks';
import { percentile } from './stats.ts';

/** Resolves when the operation succeeded; throws (with a short reason) when it did not. */
export type Operation = (client: number) => Promise<unknown>;

export interface LoadOptions {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /** Stops sending (Ctrl+C): the clients finish the operation in hand and return. */
  signal: AbortSignal;
  /** Called between the drained warm-up and the measured window, and after the window drained. */
  around: { before(): Promise<void>; after(): Promise<void> };
}

export interface LoadResult {
  ok: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

async function drive(op: Operation, concurrency: number, durationMs: number, signal: AbortSignal, onDone: (ms: number, error: unknown) => void): Promise<number> {
  const start = performance.now();
  const stopAt = start + durationMs;
  let last = start;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (performance.now() < stopAt && !signal.aborted) {
        const t0 = performance.now();
        let error: unknown = null;
        try {
          await op(client);
        } catch (err) {
          error = err;
        }
        last = performance.now();
        onDone(last - t0, error);
      }
    }),
  );
  return (last - start) / 1000;
}

/**
 * Unmeasured load that lets a freshly started gateway's JIT settle: V8 keeps optimising the
 * request path's functions (Prisma, pg, GraphQL, ours) on its background threads for the first
 * tens of seconds, and that compiling is CPU the measured phases would otherwise be charged.
 * Returns how many operations failed.
 */
export async function warmUp(ops: Operation[], concurrency: number, durationMs: number, signal: AbortSignal): Promise<number> {
  let n = 0;
  let failed = 0;
  await drive((client) => ops[n++ % ops.length]!(client), concurrency, durationMs, signal, (_ms, err) => void (err === null || failed++));
  return failed;
}

export async function runLoad(op: Operation, opts: LoadOptions): Promise<LoadResult> {
  if (opts.warmupMs > 0) await drive(op, opts.concurrency, opts.warmupMs, opts.signal, () => {});
  await opts.around.before();
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const seconds = await drive(op, opts.concurrency, opts.durationMs, opts.signal, (ms, err) => {
    if (err === null) {
      latencies.push(ms);
      return;
    }
    errors++;
    firstError ??= err instanceof Error ? err.message : String(err);
  });
  if (opts.signal.aborted) throw new Error('interrupted');
  await opts.around.after();
  latencies.sort((a, b) => a - b);
  return { ok: latencies.length, errors, firstError, seconds, perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
