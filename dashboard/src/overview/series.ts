// The chart's two series, drawn by DailyChart and named by the legend beside it: one place for
// their colours so the legend always matches the picture.
export const SERIES = {
  /** Bars, on the left axis: the successful volume in the block's currency. */
  volume: { stroke: '#0b5cad', fill: 'rgba(11,92,173,.35)' },
  /** A line, on the right axis: how many payments succeeded. */
  count: { stroke: '#b54708' },
} as const;
