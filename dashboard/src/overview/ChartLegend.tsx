// What the chart's two series are and which axis each is read on: bars for the volume in the
// block's currency (left), a line for the count of successful payments (right). Part of the
// picture, so hidden from screen readers like the canvas (the table says the same in words).
import { useT } from '../i18n.ts';
import { SERIES } from './series.ts';

export function ChartLegend({ currency }: { currency: string }) {
  const { t } = useT();
  return (
    <ul className="chart-legend" aria-hidden="true" data-legend={currency}>
      <li data-series="volume">
        <svg width="14" height="14" viewBox="0 0 14 14"><rect x="1" y="1" width="12" height="12" fill={SERIES.volume.fill} stroke={SERIES.volume.stroke} /></svg>
        {t.overviewLegendVolume.replace('{currency}', currency)}
      </li>
      <li data-series="count">
        <svg width="14" height="14" viewBox="0 0 14 14"><line x1="0" y1="7" x2="14" y2="7" stroke={SERIES.count.stroke} strokeWidth="2" /><circle cx="7" cy="7" r="2.5" fill={SERIES.count.stroke} /></svg>
        {t.overviewLegendCount}
      </li>
    </ul>
  );
}
