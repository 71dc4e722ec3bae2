// "Export CSV" for a list: a link to the server's CSV of the list with the filters shown. The token
// travels only in the Authorization header (never in an address), so a click fetches the file
// with it and hands the browser the result to save; the link's address still shows what is exported.
import { useState, type MouseEvent } from 'react';
import { useT } from '../i18n.ts';
import { getToken } from '../session.ts';

/** The list's GraphQL filter (and support's workspace) as the export address's query string. */
export function exportHref(path: string, filter: Record<string, unknown>, slug?: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else if (key === 'created' && typeof value === 'object') {
      const range = value as { from?: string; to?: string };
      if (range.from) params.set('createdFrom', range.from);
      if (range.to) params.set('createdTo', range.to);
    } else params.set(key, String(value));
  }
  if (slug) params.set('workspaceSlug', slug);
  const query = params.toString();
  return `/dashboard/export/${path}${query ? `?${query}` : ''}`;
}

export function ExportLink({ href }: { href: string }) {
  const { t, lang } = useT();
  const [failed, setFailed] = useState<string | null>(null);
  const download = async (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    setFailed(null);
    const res = await fetch(href, { headers: { Authorization: `Bearer ${getToken() ?? ''}`, 'Accept-Language': lang } }).catch((err: Error) => err);
    if (res instanceof Error || !res.ok) {
      setFailed(res instanceof Error ? res.message : (((await res.json().catch(() => null)) as { result?: { message?: string } } | null)?.result?.message ?? String(res.status)));
      return;
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'export.csv';
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <p className="export">
      <a href={href} onClick={download} download>{t.exportCsv}</a>
      {failed && <span className="error" role="alert"> {failed}</span>}
    </p>
  );
}
