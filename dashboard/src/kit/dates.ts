// Dates and instants as the reader's language writes them, in the workspace's time zone when the
// screen knows it (else the browser's), with a note naming that zone so "14:05" is never ambiguous.
import { useMemo } from 'react';
import { fill, useT, type Lang } from '../i18n.ts';
import { localeOf } from './money.ts';

export interface Dates {
  /** An instant as a calendar day: "25.11.2026" / "25 Nov 2026". */
  date: (iso: string | null | undefined) => string;
  /** An instant with the time to the second. */
  dateTime: (iso: string | null | undefined) => string;
  /** A YYYY-MM-DD day that already belongs to the workspace: shown as is, never moved to a zone. */
  day: (yyyyMmDd: string | null | undefined) => string;
  /** The IANA zone the times are in. */
  zone: string;
  /** "Times in Europe/Istanbul" for under a list or a timeline. */
  zoneNote: string;
}

export function dates(lang: Lang, zoneNote: string, timeZone?: string | null): Dates {
  const locale = localeOf(lang);
  const zone = usableZone(timeZone) ?? usableZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: zone });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium', timeZone: zone });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const show = (fmt: Intl.DateTimeFormat) => (iso: string | null | undefined) => (iso ? fmt.format(new Date(iso)) : '—');
  return {
    date: show(date),
    dateTime: show(dateTime),
    day: (d) => (d ? day.format(new Date(`${d}T00:00:00Z`)) : '—'),
    zone,
    zoneNote: fill(zoneNote, { zone }),
  };
}

/**
 * `zone` when Intl can format in it, else undefined. A browser on a machine whose own zone is
 * misconfigured reports 'Etc/Unknown', which Intl then refuses: times fall back to UTC (named in
 * the zone note) rather than the screen failing to render.
 */
function usableZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return undefined;
  }
}

/** Date formatters in the chosen language and `timeZone` (the workspace's, when the screen has it). */
export function useDates(timeZone?: string | null): Dates {
  const { lang, t } = useT();
  return useMemo(() => dates(lang, t.kitZoneNote, timeZone), [lang, t, timeZone]);
}
