// What keeps a Lighthouse score below 100, read from its JSON report: the audits that failed (score
// below 0.9) and the addresses they name, for the reader to act on. Items do not always name an
// address: Lighthouse lists work it cannot tie to a script as "Unattributable", and some items name
// none; those are left out rather than read as addresses.

export interface Audit { numericValue?: number; displayValue?: string; score: number | null; details?: { items?: { url?: string }[] } }

/** The path of an item's address (without the query or the token's fragment); none when the item names no address. */
function pathOf(url: string | undefined): string[] {
  if (!url || !URL.canParse(url)) return [];
  return [new URL(url).pathname];
}

export function failingAudits(audits: Record<string, Audit>): string[] {
  return Object.entries(audits)
    .filter(([, a]) => a.score !== null && a.score < 0.9)
    .map(([id, a]) => {
      const urls = [...new Set((a.details?.items ?? []).flatMap((i) => pathOf(i.url)))];
      return `${id}${a.displayValue ? ` (${a.displayValue})` : ''}${urls.length ? `: ${urls.join(', ')}` : ''}`;
    });
}
