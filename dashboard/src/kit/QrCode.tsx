// A QR code of `value` as inline SVG (uqr encodes; React draws one path): no script, no data:
// image and no inline style, so it passes the dashboard's Content-Security-Policy.
import { useMemo } from 'react';
import { encode } from 'uqr';
import { fill, useT } from '../i18n.ts';

/** The dark modules as one SVG path, one unit per module. */
export function qrPath(value: string): { size: number; d: string } {
  const { data } = encode(value, { ecc: 'M', border: 2 });
  let d = '';
  data.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x} ${y}h1v1h-1z`; }));
  return { size: data.length, d };
}

export function QrCode({ value, size = 192 }: { value: string; size?: number }) {
  const { t } = useT();
  const qr = useMemo(() => qrPath(value), [value]);
  return (
    <svg className="qr" role="img" aria-label={fill(t.kitQr, { value })} width={size} height={size} viewBox={`0 0 ${qr.size} ${qr.size}`} shapeRendering="crispEdges">
      <rect width={qr.size} height={qr.size} fill="#fff" />
      <path d={qr.d} fill="#000" />
    </svg>
  );
}
