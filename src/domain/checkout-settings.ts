// A workspace's hosted-page settings: its brand (a logo at an https address and a #rrggbb colour)
// and the origins whose pages may frame its hosted pages (embedded checkout). Checked here once,
// by field path, for the dashboard, GraphQL and the CLI; nothing is written unless all of it passes.
import { z } from 'zod';
import type { Workspace } from '../generated/prisma/client.ts';
import type { Services } from './services.ts';
import { IssueList } from './errors.ts';
import { parseInput } from './validation.ts';

export const BRAND_COLOR = /^#[0-9a-f]{6}$/i;
export const MAX_EMBED_ORIGINS = 10;
const MAX_LOGO_URL = 2048;
/** Development pages may frame over http on the developer's own machine only. */
const DEV_HOSTS = new Set(['localhost', '127.0.0.1']);
/** A host name or address as a CSP source names one: no wildcard, nothing that could end the directive. */
const HOST = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/;

const input = z
  .object({
    logoUrl: z.string({ error: 'invalid_type' }).trim().nullish(),
    brandColor: z.string({ error: 'invalid_type' }).trim().nullish(),
    embedOrigins: z.array(z.string({ error: 'invalid_type' }).trim(), { error: 'invalid_type' }).nullish(),
  })
  .strict();

export type CheckoutSettings = Pick<Workspace, 'brandLogoUrl' | 'brandColor' | 'embedOrigins'>;

/** A logo address: https only (no mixed content on an https page), no credentials in it. */
export function isLogoUrl(value: string): boolean {
  if (value.length > MAX_LOGO_URL) return false;
  const url = parseUrl(value);
  return url !== null && url.protocol === 'https:' && url.username === '' && url.password === '';
}

/**
 * An origin that may frame hosted pages, as the browser names it (`https://host[:port]`, the same
 * with a trailing slash accepted), or null. http only on localhost/127.0.0.1, for development.
 */
export function embedOrigin(value: string): string | null {
  const url = parseUrl(value);
  if (!url || !HOST.test(url.hostname) || url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) return null;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && DEV_HOSTS.has(url.hostname))) return null;
  // The origin as written, less a trailing slash: `https://shop.example:443` is not silently another spelling.
  return value.replace(/\/$/, '').toLowerCase() === url.origin ? url.origin : null;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Changes the settings given (absent: kept; null: the gateway's own brand, no origins). */
export async function setCheckoutSettings(s: Pick<Services, 'db'>, workspace: Workspace, raw: unknown): Promise<Workspace> {
  const given = parseInput(input, raw);
  const issues = new IssueList();
  const change: Partial<CheckoutSettings> = {};
  if (given.logoUrl !== undefined) {
    const logo = given.logoUrl || null;
    if (logo !== null && !isLogoUrl(logo)) issues.add(['logoUrl'], 'logo_url_invalid');
    else change.brandLogoUrl = logo;
  }
  if (given.brandColor !== undefined) {
    const color = given.brandColor || null;
    if (color !== null && !BRAND_COLOR.test(color)) issues.add(['brandColor'], 'brand_color_invalid');
    else change.brandColor = color?.toLowerCase() ?? null;
  }
  if (given.embedOrigins !== undefined) {
    const listed = given.embedOrigins ?? [];
    if (listed.length > MAX_EMBED_ORIGINS) issues.add(['embedOrigins'], 'too_many_items', { max: MAX_EMBED_ORIGINS });
    const origins = listed.map((value, i) => {
      const origin = embedOrigin(value);
      if (origin === null) issues.add(['embedOrigins', i], 'embed_origin_invalid');
      return origin;
    });
    change.embedOrigins = [...new Set(origins.filter((o): o is string => o !== null))];
  }
  issues.throwIfAny();
  if (Object.keys(change).length === 0) return workspace;
  return s.db.workspace.update({ where: { id: workspace.id }, data: change });
}

/** Relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(color: string): number {
  const channel = (i: number) => {
    const c = parseInt(color.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two #rrggbb colours (WCAG 2: 1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour on a brand colour: black or white, whichever contrasts more. One of the two
 * always reaches at least 4.58:1 (the worst case is a colour of luminance 0.179), so text on any
 * brand colour meets WCAG AA (4.5:1); a dark grey instead of black would not.
 */
export function textOn(color: string): '#000000' | '#ffffff' {
  return contrast(color, '#000000') >= contrast(color, '#ffffff') ? '#000000' : '#ffffff';
}
