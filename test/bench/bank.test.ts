// `npm run bench`'s bank phase, in parts: its options, its bounds, and its bank (the iyzico
// emulator in its own process, reporting the latencies it applied). No gateway load is run.
import { afterEach, describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/lib/args.ts';
import { bankChecks, type BankResult } from '../../bench/lib/bank-phase.ts';
import { BankProcess } from '../../bench/lib/bank-process.ts';
import { fmtShort } from '../../bench/lib/stats.ts';
import { iyzipay } from '../emulators/iyzipay-client.ts';

const usage = { gatewayCpuMs: 0, postgresCpuMs: 0, benchCpuMs: 0, sql: { statements: 0, transactions: 0, top: [], evicted: false, walBytes: 0 } };

/** A phase where 128 clients against a bank of mean 550 ms made `perSecond` payments. */
function result(over: Partial<BankResult> = {}): BankResult {
  const theoreticalPerSecond = 128 / 0.55;
  const perSecond = over.perSecond ?? 225;
  return {
    label: '',
    round: 1,
    clients: 128,
    latency: { minMs: 300, maxMs: 800 },
    ok: perSecond * 10,
    seconds: 10,
    perSecond,
    p50: 560,
    p99: 820,
    requests: 2800,
    status503: 0,
    non200: 0,
    unsuccessful: 0,
    firstError: null,
    bank: { calls: 2250, meanMs: 550, p50: 550, p99: 795 },
    theoreticalPerSecond,
    ratio: perSecond / theoreticalPerSecond,
    usage,
    ...over,
  };
}

const failed = (...rounds: BankResult[]) => bankChecks(rounds, fmtShort).filter((c) => !c.met).map((c) => c.text);

describe('bench bank phase', () => {
  it('runs with every phase by default, 128 clients against a 300-800 ms bank, both adjustable', () => {
    const opts = parseBenchArgs([])!;
    expect(opts.phases.has('bank')).toBe(true);
    expect(opts.bank).toEqual({ clients: 128, latency: { minMs: 300, maxMs: 800 }, rounds: 1 });
    expect(parseBenchArgs(['--only', 'bank', '--bank-clients', '64', '--bank-latency', '100-200', '--bank-rounds', '3'])!.bank).toEqual({ clients: 64, latency: { minMs: 100, maxMs: 200 }, rounds: 3 });
    expect(() => parseBenchArgs(['--bank-latency', '800-300'])).toThrow('--bank-latency must be MIN-MAX in milliseconds with MAX > 0, got "800-300"');
    expect(() => parseBenchArgs(['--bank-latency', '0'])).toThrow('--bank-latency must be MIN-MAX');
    expect(() => parseBenchArgs(['--bank-clients', '0'])).toThrow('--bank-clients must be a positive integer');
  });

  it('passes at 0.9 of 128 / mean bank latency, no 503 or other non-200, p99 within 50 ms of the bank', () => {
    expect(failed(result())).toEqual([]);
    const checks = bankChecks([result()], fmtShort);
    expect(checks[0]!.measured).toBe('225/s of 233/s = 0.967 ×');
    expect(checks[2]!.measured).toBe('820 ms against the bank\'s 795 ms (+25.0 ms)');
  });

  it('fails on each bound alone', () => {
    expect(failed(result({ perSecond: 209 }))).toEqual(['bank phase ≥ 0.9 × theoretical (128 clients / mean bank latency)']);
    expect(failed(result({ status503: 1, non200: 1 }))).toEqual(['bank phase: no 503, nothing but 200, every payment successful']);
    expect(failed(result({ non200: 1 }))).toEqual(['bank phase: no 503, nothing but 200, every payment successful']);
    expect(failed(result({ unsuccessful: 1 }))).toEqual(['bank phase: no 503, nothing but 200, every payment successful']);
    expect(failed(result({ p99: 846 }))).toEqual(['bank phase p99 ≤ bank p99 + 50 ms']);
    expect(failed(result({ p99: 845 }))).toEqual([]);
  });

  it('with rounds, judges the rate and the p99 on their medians, and fails on a 503 in any round', () => {
    // One slow round (a busy moment of the machine) among three does not fail the phase...
    expect(failed(result({ perSecond: 150, p99: 1200 }), result(), result({ round: 3 }))).toEqual([]);
    // ...two do.
    expect(failed(result({ perSecond: 150, p99: 1200 }), result({ perSecond: 200, p99: 900 }), result())).toEqual([
      'bank phase ≥ 0.9 × theoretical (128 clients / mean bank latency)',
      'bank phase p99 ≤ bank p99 + 50 ms',
    ]);
    expect(failed(result(), result({ status503: 1, non200: 1 }), result())).toEqual(['bank phase: no 503, nothing but 200, every payment successful']);
    const [rate, , p99] = bankChecks([result({ perSecond: 150, p99: 1200 }), result(), result()], fmtShort);
    expect(rate!.measured).toBe('0.967 × (median of 3 rounds: 0.645, 0.967, 0.967)');
    expect(p99!.measured).toBe('+25.0 ms (median of 3 rounds: +405, +25.0, +25.0)');
  });
});

describe('the bank phase\'s emulator process', () => {
  let bank: BankProcess | undefined;
  afterEach(async () => {
    await bank?.stop();
    bank = undefined;
  });

  it('answers signed calls after its latency and hands over the latencies it applied, once', async () => {
    const keys = { apiKey: 'bench-key', secretKey: 'bench-secret' };
    bank = await BankProcess.start({ ...keys, latency: { minMs: 60, maxMs: 80 } });
    const client = iyzipay({ ...keys, uri: bank.url });
    await bank.latencies();
    const answers = await Promise.all([1, 2, 3].map(() => client.call('binNumber', 'retrieve', { binNumber: '552879' })));
    expect(answers.map((a) => a.status)).toEqual(['success', 'success', 'success']);
    const waited = await bank.latencies();
    expect(waited).toHaveLength(3);
    for (const ms of waited) expect(ms).toBeGreaterThanOrEqual(59);
    expect(await bank.latencies()).toEqual([]);
  });
});
