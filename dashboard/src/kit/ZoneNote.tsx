// A small visible line saying which zone the times above it are in ("Times in Europe/Istanbul.").
import { useDates } from './dates.ts';

export function ZoneNote({ timeZone }: { timeZone?: string | null }) {
  const { zoneNote } = useDates(timeZone);
  return <p className="muted zone-note">{zoneNote}</p>;
}
