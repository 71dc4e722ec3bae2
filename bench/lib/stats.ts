// Numbers as the benchmark reports them: nearest-rank percentiles and en-US grouping.

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function fmt(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Two significant figures at most, so small and large values read alike in one column. */
export function fmtShort(n: number): string {
  if (!Number.isFinite(n)) return '—';
  if (n === 0) return '0';
  const abs = Math.abs(n);
  if (abs >= 100) return fmt(n, 0);
  if (abs >= 10) return fmt(n, 1);
  if (abs >= 1) return fmt(n, 2);
  return fmt(n, 3);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
