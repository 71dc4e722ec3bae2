// The bank phase: the gateway in front of a bank that takes 300-800 ms to answer, as real ones do.
// The iyzico emulator runs in its own process (bank-process.ts) with that latency on every answer;
// the demo workspace's default account is an iyzico account pointing at it (bank-account.ts); 128
// clients send regular-payment (non-3D: one iyzico call each) for the phase.
//
// With zero think time, N clients can at most make N / (mean bank latency) payments a second:
// the theoretical rate, computed from the latencies the emulator measured in the same window. The
// gateway passes when it reaches 0.9 of it, answers nothing but 200 (no 503 from a pool or queue
// held across the bank call), and adds at most 50 ms to the bank's p99.
//
// The clients run through the warm-up into the measured window without pausing, so the window
// sees the steady state (a closed loop started at once needs a few latencies to spread out):
// a payment counts in the window when its answer arrives inside it, and the rate is those
// payments over the window's length. The bank's latencies are the emulator's waits that ended in
// the window; the window's edges are marked in the emulator by asking it for its latencies.
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import type { Latency } from '../../emulators/iyzico/behaviour.ts';
import { BankProcess } from './bank-process.ts';
import { useIyzicoAccount } from './bank-account.ts';
import type { DemoCredentials, GatewayProcess } from './gateway-process.ts';
import { paymentBody } from './gateway-ops.ts';
import { callRest, HttpClient } from './http-client.ts';
import type { Meter, Usage } from './meter.ts';
import { median, percentile, sleep } from './stats.ts';

/** The bounds the phase must meet (docs/performance.md, "A real bank's latency"). */
export const BANK_BOUNDS = { minRatio: 0.9, maxAddedP99Ms: 50 };

/** An approving iyzico sandbox card (Halkbank MasterCard credit): the simulator's 4111… is refused there. */
const IYZICO_CARD = '5528790000000008';

export interface BankSettings {
  clients: number;
  latency: Latency;
  /** Measured windows back to back, each after its warm-up; the bounds are judged on their medians. */
  rounds: number;
  warmupMs: number;
  durationMs: number;
}

/** One measured window. */
export interface BankResult {
  /** The worker count, when several are measured. */
  label: string;
  round: number;
  clients: number;
  latency: Latency;
  /** Payments answered 200 and successful inside the window. */
  ok: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** Over the whole phase, warm-up and drain included. */
  requests: number;
  status503: number;
  non200: number;
  /** Answered 200 but not successful (a decline, or the bank's answer lost: provider_timeout). */
  unsuccessful: number;
  firstError: string | null;
  bank: { calls: number; meanMs: number; p50: number; p99: number };
  theoreticalPerSecond: number;
  ratio: number;
  usage: Usage;
}

let paymentNumber = 0;

/** One regular-payment with the iyzico card; the HTTP status and whether it succeeded. */
async function pay(http: HttpClient, demo: DemoCredentials): Promise<{ status: number; successful: boolean; text: string }> {
  const base = paymentBody(demo, 0);
  const body = { ...base, transaction: { ...base.transaction, channel_reference: `BENCH-BANK-${paymentNumber++}` }, card: { ...base.card, number: IYZICO_CARD } };
  const res = await callRest(http, demo, 'regular-payment', body);
  let successful = false;
  if (res.status === 200) {
    try {
      successful = (JSON.parse(res.text) as { result?: { successful?: boolean } }).result?.successful === true;
    } catch {
      successful = false;
    }
  }
  return { status: res.status, successful, text: res.text };
}

/** The phase's rounds; `onRound` sees each as it ends. */
export async function runBankPhase(gateway: GatewayProcess, meter: Meter, settings: BankSettings, label: string, signal: AbortSignal, onRound: (r: BankResult) => void): Promise<BankResult[]> {
  const keys = { apiKey: 'bench-iyzico-api-key', secretKey: randomBytes(16).toString('hex') };
  const bank = await BankProcess.start({ ...keys, latency: settings.latency });
  const demo = gateway.demoCredentials();
  const http = new HttpClient(gateway.baseUrl, settings.clients);
  const account = await useIyzicoAccount(gateway.databaseUrl(), gateway.masterKey(), demo.team, { url: bank.url, ...keys });
  try {
    await untilPaidThroughBank(http, demo, bank);
    const rounds: BankResult[] = [];
    for (let round = 1; round <= settings.rounds && !signal.aborted; round++) {
      rounds.push(await drive(http, demo, bank, meter, settings, signal, { label, round }));
      onRound(rounds.at(-1)!);
    }
    return rounds;
  } finally {
    await http.drain(10_000);
    http.close();
    await account.restore();
    await bank.stop();
  }
}

/**
 * One payment at a time until one reaches the emulator: a gateway process learns of the new
 * default account from the database's announcement, milliseconds after the commit, and a payment
 * sent before that would go to the simulator.
 */
async function untilPaidThroughBank(http: HttpClient, demo: DemoCredentials, bank: BankProcess): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const answer = await pay(http, demo);
    if (!answer.successful) throw new Error(`bank phase: a first payment failed: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
    if ((await bank.latencies()).length > 0) return;
    await sleep(100);
  }
  throw new Error('bank phase: payments do not reach the iyzico emulator (the iyzico account did not become the default)');
}

async function drive(http: HttpClient, demo: DemoCredentials, bank: BankProcess, meter: Meter, settings: BankSettings, signal: AbortSignal, which: { label: string; round: number }): Promise<BankResult> {
  const start = performance.now();
  const windowStart = start + settings.warmupMs;
  const windowEnd = windowStart + settings.durationMs;
  const latencies: number[] = [];
  let requests = 0;
  let status503 = 0;
  let non200 = 0;
  let unsuccessful = 0;
  let firstError: string | null = null;

  // The window's edges: counters and the emulator's latencies read at each, alongside the load.
  let bankLatencies: number[] = [];
  let usage: Usage | null = null;
  const marks = (async () => {
    await sleep(windowStart - performance.now());
    await Promise.all([meter.start(), bank.latencies()]);
    await sleep(windowEnd - performance.now());
    [bankLatencies, usage] = await Promise.all([bank.latencies(), meter.stop()]);
  })();

  await Promise.all(
    Array.from({ length: settings.clients }, async () => {
      while (performance.now() < windowEnd && !signal.aborted) {
        const t0 = performance.now();
        let answer: Awaited<ReturnType<typeof pay>> | null = null;
        let error: string | null = null;
        try {
          answer = await pay(http, demo);
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
        const t1 = performance.now();
        requests++;
        if (answer?.status === 503) status503++;
        if (answer && answer.status !== 200) non200++;
        if (answer?.status === 200 && !answer.successful) unsuccessful++;
        if (!answer) non200++;
        if (!answer?.successful) firstError ??= error ?? `HTTP ${answer!.status}: ${answer!.text.slice(0, 200)}`;
        else if (t1 >= windowStart && t1 < windowEnd) latencies.push(t1 - t0);
      }
    }),
  );
  await marks;
  if (signal.aborted) throw new Error('interrupted');

  latencies.sort((a, b) => a - b);
  bankLatencies.sort((a, b) => a - b);
  const seconds = settings.durationMs / 1000;
  const meanMs = bankLatencies.reduce((sum, ms) => sum + ms, 0) / bankLatencies.length;
  const theoreticalPerSecond = settings.clients / (meanMs / 1000);
  const perSecond = latencies.length / seconds;
  return {
    ...which,
    clients: settings.clients,
    latency: settings.latency,
    ok: latencies.length,
    seconds,
    perSecond,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests,
    status503,
    non200,
    unsuccessful,
    firstError,
    bank: { calls: bankLatencies.length, meanMs, p50: percentile(bankLatencies, 50), p99: percentile(bankLatencies, 99) },
    theoreticalPerSecond,
    ratio: perSecond / theoreticalPerSecond,
    usage: usage!,
  };
}

export interface BankCheck {
  text: string;
  measured: string;
  met: boolean;
}

/**
 * The phase's bounds, each with what was measured. With several rounds the rate and the p99 are
 * judged on the medians of the rounds (a shared machine moves one window by several per cent);
 * a 503 or any other failure in any round fails the phase.
 */
export function bankChecks(rounds: BankResult[], fmt: (n: number) => string): BankCheck[] {
  const r = rounds[0]!;
  const several = rounds.length > 1;
  const over = several ? ` (median of ${rounds.length} rounds: ${rounds.map((x) => fmt(x.ratio)).join(', ')})` : '';
  const ratio = median(rounds.map((x) => x.ratio));
  const added = median(rounds.map((x) => x.p99 - x.bank.p99));
  const sum = (pick: (x: BankResult) => number) => rounds.reduce((total, x) => total + pick(x), 0);
  const [status503, non200, unsuccessful, requests] = [sum((x) => x.status503), sum((x) => x.non200), sum((x) => x.unsuccessful), sum((x) => x.requests)];
  return [
    {
      text: `bank phase ≥ ${BANK_BOUNDS.minRatio} × theoretical (${r.clients} clients / mean bank latency)`,
      measured: several ? `${fmt(ratio)} ×${over}` : `${fmt(r.perSecond)}/s of ${fmt(r.theoreticalPerSecond)}/s = ${fmt(r.ratio)} ×`,
      met: ratio >= BANK_BOUNDS.minRatio,
    },
    {
      text: 'bank phase: no 503, nothing but 200, every payment successful',
      measured: `${status503} × 503, ${non200} non-200, ${unsuccessful} unsuccessful of ${requests} requests`,
      met: status503 === 0 && non200 === 0 && unsuccessful === 0,
    },
    {
      text: `bank phase p99 ≤ bank p99 + ${BANK_BOUNDS.maxAddedP99Ms} ms`,
      measured: several
        ? `+${fmt(added)} ms (median of ${rounds.length} rounds: ${rounds.map((x) => `+${fmt(x.p99 - x.bank.p99)}`).join(', ')})`
        : `${fmt(r.p99)} ms against the bank's ${fmt(r.bank.p99)} ms (+${fmt(r.p99 - r.bank.p99)} ms)`,
      met: added <= BANK_BOUNDS.maxAddedP99Ms,
    },
  ];
}
