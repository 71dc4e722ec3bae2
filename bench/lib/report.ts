// The results as Markdown tables (readable in a terminal, pasteable into docs/performance.md) and
// the performance goals (docs/performance.md) checked against them.
import type { BankResult } from './bank-phase.ts';
import type { LoadResult } from './load.ts';
import type { Usage } from './meter.ts';
import { fmt, fmtShort, median } from './stats.ts';
import type { WebhookResult } from './webhook-phase.ts';
import { GUARD_GOAL, type GuardRounds } from './guard-phase.ts';

export interface OperationRow {
  name: string;
  /** Bare-pg rows have no gateway process to measure. */
  baseline: boolean;
  load: LoadResult;
  usage: Usage;
}

const perOp = (total: number, ops: number) => (ops > 0 ? total / ops : NaN);

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function operationsTable(rows: OperationRow[], baselinePerSecond: number | null): string {
  const header = ['operation', 'ops', 'ops/s', 'p50 ms', 'p99 ms', 'gateway CPU ms/op', 'PG CPU ms/op', 'SQL/op', 'tx/op', 'errors', '× baseline'];
  return table(
    header,
    rows.map(({ name, baseline, load, usage }) => [
      name,
      fmt(load.ok),
      fmt(load.perSecond, 0),
      fmtShort(load.p50),
      fmtShort(load.p99),
      baseline ? '—' : fmtShort(perOp(usage.gatewayCpuMs, load.ok)),
      fmtShort(perOp(usage.postgresCpuMs, load.ok)),
      fmtShort(perOp(usage.sql.statements, load.ok)),
      fmtShort(perOp(usage.sql.transactions, load.ok)),
      fmt(load.errors),
      baselinePerSecond ? fmtShort(load.perSecond / baselinePerSecond) : '—',
    ]),
  );
}

export function webhookTable(w: WebhookResult): string {
  const n = w.rowsDelivered || w.received;
  return table(
    ['webhook deliveries', 'due at once', 'delivered', 'deliveries/s', 'delay p50 s', 'delay p99 s', 'last s', 'gateway CPU ms/delivery', 'PG CPU ms/delivery', 'SQL/delivery', 'tx/delivery'],
    [
      [
        w.timedOut ? 'to a local receiver (TIMED OUT)' : 'to a local receiver',
        fmt(w.events),
        fmt(w.received),
        fmt(w.perSecond, 0),
        fmtShort(w.delayP50 / 1000),
        fmtShort(w.delayP99 / 1000),
        fmtShort(w.delayMax / 1000),
        fmtShort(perOp(w.usage.gatewayCpuMs, n)),
        fmtShort(perOp(w.usage.postgresCpuMs, n)),
        fmtShort(perOp(w.usage.sql.statements, n)),
        fmtShort(perOp(w.usage.sql.transactions, n)),
      ],
    ],
  );
}

/** The bank phase: achieved against theoretical (clients / mean bank latency), the gateway's latency against the bank's. */
export function bankTable(results: BankResult[]): string {
  return table(
    ['bank phase (regular-payment via iyzico emulator)', 'clients', 'payments', 'payments/s', 'theoretical/s', '× theoretical', 'p50 ms', 'p99 ms', 'bank mean ms', 'bank p99 ms', '503s', 'non-200', 'gateway CPU ms/payment'],
    results.map((r) => [
      `bank answering in ${r.latency.minMs}-${r.latency.maxMs} ms${r.label ? `, ${r.label}` : ''}${results.length > 1 ? `, round ${r.round}` : ''}`,
      fmt(r.clients),
      fmt(r.ok),
      fmt(r.perSecond, 0),
      fmt(r.theoreticalPerSecond, 0),
      fmtShort(r.ratio),
      fmtShort(r.p50),
      fmtShort(r.p99),
      fmtShort(r.bank.meanMs),
      fmtShort(r.bank.p99),
      fmt(r.status503),
      fmt(r.non200),
      fmtShort(perOp(r.usage.gatewayCpuMs, r.ok)),
    ]),
  );
}

/** --rounds: one worker count's back-to-back pairs of the bare-pg payment and regular-payment. */
export interface PaymentRounds {
  label: string;
  ratios: number[];
  p99s: number[];
  /** regular-payment over the floor server's payment, when the floor phase is selected. */
  floorRatios: number[];
}

const range = (values: number[]) => `${fmtShort(Math.min(...values))}–${fmtShort(Math.max(...values))}`;

/** The rounds, one line per worker count: each round's ratio and their median. */
export function roundsLines(rounds: PaymentRounds[]): string {
  return rounds
    .map((r) => {
      const floor = r.floorRatios.length ? `; × the floor ${r.floorRatios.map(fmtShort).join(', ')}: median ${fmtShort(median(r.floorRatios))} ×` : '';
      return `  ${r.label}: × baseline ${r.ratios.map(fmtShort).join(', ')}: median ${fmtShort(median(r.ratios))} ×${floor}; p99 median ${fmtShort(median(r.p99s))} ms (${range(r.p99s)})`;
    })
    .join('\n');
}

interface Goal {
  text: string;
  measured: string;
  met: boolean;
}

/** The performance goals (docs/performance.md, "Performance goals"), each with what this run measured; a phase that did not run is left out. */
export function goals(rows: OperationRow[], baselinePerSecond: number | null, webhooks: WebhookResult | null, rounds: PaymentRounds[] = [], guard: GuardRounds | null = null): string {
  const find = (prefix: string) => rows.filter((r) => !r.baseline && r.name.startsWith(prefix));
  // With several worker counts (--workers 1,2), a goal is judged on the fastest of them.
  const fastest = (prefix: string) => find(prefix).sort((a, b) => b.load.perSecond - a.load.perSecond)[0];
  const list: Goal[] = [];
  const payment = fastest('regular-payment');
  const retrieve = fastest('retrieve-payment');
  // With --rounds, the payment goals are judged on the medians of the best worker count's rounds.
  const best = [...rounds].sort((a, b) => median(b.ratios) - median(a.ratios))[0];
  if (best) {
    const [ratio, p99] = [median(best.ratios), median(best.p99s)];
    const over = `${best.ratios.length} rounds, ${best.label}`;
    list.push({ text: 'regular-payment ≥ 0.4 × baseline', measured: `median ${fmtShort(ratio)} × (${range(best.ratios)}) over ${over}`, met: ratio >= 0.4 });
    list.push({ text: 'regular-payment p99 ≤ 60 ms', measured: `median ${fmtShort(p99)} ms (${range(best.p99s)}) over ${over}`, met: p99 <= 60 });
  } else if (payment && baselinePerSecond) {
    const ratio = payment.load.perSecond / baselinePerSecond;
    list.push({ text: 'regular-payment ≥ 0.4 × baseline', measured: `${fmtShort(ratio)} ×`, met: ratio >= 0.4 });
  }
  if (payment && !best) list.push({ text: 'regular-payment p99 ≤ 60 ms', measured: `${fmtShort(payment.load.p99)} ms`, met: payment.load.p99 <= 60 });
  if (payment) {
    const sql = perOp(payment.usage.sql.statements, payment.load.ok);
    const tx = perOp(payment.usage.sql.transactions, payment.load.ok);
    list.push({ text: 'payment in ≤ 8 statements and ≤ 2 transactions', measured: `${fmtShort(sql)} statements, ${fmtShort(tx)} transactions`, met: sql <= 8.05 && tx <= 2.05 });
  }
  if (retrieve && baselinePerSecond) {
    const ratio = retrieve.load.perSecond / baselinePerSecond;
    list.push({ text: 'retrieve-payment ≥ 1.0 × baseline', measured: `${fmtShort(ratio)} ×`, met: ratio >= 1 });
  }
  if (retrieve) {
    const sql = perOp(retrieve.usage.sql.statements, retrieve.load.ok);
    list.push({ text: 'retrieve in ≤ 2 statements', measured: `${fmtShort(sql)} statements`, met: sql <= 2.05 });
  }
  const lists = find('GraphQL payments');
  if (lists.length > 1) {
    const counts = lists.map((r) => perOp(r.usage.sql.statements, r.load.ok));
    list.push({ text: 'list statements constant over page size', measured: lists.map((r, i) => `${r.name.replace(/^.*\(/, '(')} ${fmtShort(counts[i]!)}`).join(', '), met: Math.max(...counts) - Math.min(...counts) < 0.5 });
  }
  if (guard?.ratios.length) {
    const ratio = median(guard.ratios);
    list.push({
      text: `regular-payment with the guard and ten rules ≥ ${GUARD_GOAL} × without`,
      measured: `median ${fmtShort(ratio)} × (${range(guard.ratios)}) over ${guard.ratios.length} pairs; p99 median ${fmtShort(median(guard.p99With))} ms against ${fmtShort(median(guard.p99Without))} ms`,
      met: ratio >= GUARD_GOAL,
    });
  }
  if (webhooks) {
    list.push({ text: 'webhook deliveries ≥ 1,500/s', measured: `${fmt(webhooks.perSecond, 0)}/s`, met: webhooks.perSecond >= 1500 });
    list.push({ text: `last of ${fmt(webhooks.events)} due at once delivered within 10 s`, measured: webhooks.timedOut ? 'timed out' : `${fmtShort(webhooks.delayMax / 1000)} s`, met: !webhooks.timedOut && webhooks.delayMax <= 10_000 });
  }
  return list.map((g) => `  ${g.met ? 'met    ' : 'not met'}  ${g.text}: ${g.measured}`).join('\n');
}

/** The floor rows against the same baseline: the most a Node service reaches on this machine. */
export function floorLine(rows: OperationRow[], baselinePerSecond: number | null): string | null {
  const floor = rows.filter((r) => r.name.startsWith('bare node:'));
  if (!floor.length || !baselinePerSecond) return null;
  const parts = floor.map((r) => `${r.name.slice('bare node: '.length)} ${fmtShort(r.load.perSecond / baselinePerSecond)} × (server CPU ${fmtShort(perOp(r.usage.gatewayCpuMs, r.load.ok))} ms/op)`);
  return `  floor, a bare node:http server on the same SQL (its CPU in the gateway column): ${parts.join('; ')}`;
}

/** What PostgreSQL ran per operation in one phase, busiest first (--sql). */
export function statementsPerOp(usage: Usage, ops: number, limit = 30): string {
  const planned = usage.sql.top.some(([, , , plans]) => plans > 0);
  const planHead = planned ? `  ${'plans'.padStart(6)}  ${'plan ms'.padStart(7)}` : '';
  const lines = [`    WAL written: ${fmt(usage.sql.walBytes / ops, 0)} bytes per op`, `    ${'per op'.padStart(7)}  ${'exec ms'.padStart(7)}${planHead}  statement`];
  for (const [query, calls, execMs, plans, planMs] of usage.sql.top.slice(0, limit)) {
    const planCols = planned ? `  ${fmtShort(plans / ops).padStart(6)}  ${(planMs / ops).toFixed(3).padStart(7)}` : '';
    lines.push(`    ${fmtShort(calls / ops).padStart(7)}  ${(execMs / ops).toFixed(3).padStart(7)}${planCols}  ${query.replace(/\s+/g, ' ').trim().slice(0, 150)}`);
  }
  if (usage.sql.top.length > limit) lines.push(`    … ${usage.sql.top.length - limit} more statement texts`);
  return lines.join('\n');
}
