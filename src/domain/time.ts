/** Timestamps as ISO 8601 UTC with microseconds (spec convention 7). */
export function isoMicro(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
