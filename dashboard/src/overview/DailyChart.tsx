// One currency's days drawn with uPlot (small: canvas, no dependencies): bars for the successful
// volume, a line for their count on a second axis (ChartLegend names both, with their units). The
// canvas is a picture for sighted readers (aria-hidden); the same figures are in the table beside it. Plotting converts the decimal strings
// to numbers, which is harmless for a picture and never used for a figure shown as text.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Formatters } from './format.ts';
import { SERIES } from './series.ts';

export interface ChartDay { date: string; volume: string; count: number }

const HEIGHT = 220;

export function DailyChart({ days, currency, labels, fmt }: { days: ChartDay[]; currency: string; labels: { volume: string; count: string }; fmt: Formatters }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const data: uPlot.AlignedData = [days.map((_, i) => i), days.map((d) => Number(d.volume)), days.map((d) => d.count)];
    const dayLabel = (i: number) => (days[i] ? fmt.day(days[i].date) : '');
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        scales: { x: { time: false, range: [-0.5, days.length - 0.5] }, n: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        series: [
          {},
          { label: labels.volume, stroke: SERIES.volume.stroke, fill: SERIES.volume.fill, paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } },
          { label: labels.count, stroke: SERIES.count.stroke, width: 2, scale: 'n', points: { show: days.length <= 31 } },
        ],
        axes: [
          { values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? dayLabel(i) : '')), space: 60 },
          { values: (_u, ticks) => ticks.map((v) => fmt.axisMoney(v, currency)), size: 80 },
          { scale: 'n', side: 1, grid: { show: false }, values: (_u, ticks) => ticks.map((v) => (Number.isInteger(v) ? fmt.count(v) : '')) },
        ],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, currency, labels, fmt]);
  return <div ref={ref} className="chart" aria-hidden="true" data-chart={currency} />;
}
