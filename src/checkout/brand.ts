// A workspace's look on its hosted pages: its logo and colour in a bar above the page and on the
// pay button, text on the colour black or white by its luminance (domain/checkout-settings.ts),
// and the origins whose pages may frame them. Pages without a workspace look like the gateway's.
import type { Workspace } from '../generated/prisma/client.ts';
import { contrast, textOn } from '../domain/checkout-settings.ts';

export interface Brand {
  name: string;
  logoUrl: string | null;
  color: string | null;
}

export type BrandedWorkspace = Pick<Workspace, 'name' | 'brandLogoUrl' | 'brandColor' | 'embedOrigins'>;

/** What a page of this workspace carries: its brand, and who may frame it. */
export function workspacePage(w: BrandedWorkspace): { brand: Brand; frameAncestors: readonly string[] } {
  return { brand: { name: w.name, logoUrl: w.brandLogoUrl, color: w.brandColor }, frameAncestors: w.embedOrigins };
}

/** The logo's origin, which the page's img-src then allows (that one origin, nothing else). */
export const logoOrigins = (brand: Brand | undefined): string[] => (brand?.logoUrl ? [new URL(brand.logoUrl).origin] : []);

/**
 * The brand colour behind the bar and the pay button, with black or white text on it. A colour
 * too light to stand out from the white card (under 3:1, WCAG's contrast for a control's edge)
 * gets a border in the text colour so the button is still seen as one.
 */
export function brandStyle(brand: Brand | undefined): string {
  if (!brand?.color && !brand?.logoUrl) return '';
  const bar = `.merchant-bar{display:flex;align-items:center;gap:12px;padding:12px 16px;margin:0 0 16px;border-radius:12px;min-height:64px;font-weight:600}
    .merchant-bar img{max-height:40px;max-width:160px;object-fit:contain}`;
  if (!brand.color) return `${bar}.merchant-bar{background:#fff;color:#1f2430}`;
  const text = textOn(brand.color);
  const edge = contrast(brand.color, '#ffffff') < 3 ? `;border:2px solid ${text}` : '';
  return `${bar}.merchant-bar{background:${brand.color};color:${text}${edge}}.primary{background:${brand.color};color:${text}${edge}}`;
}

/** The bar above the page: the logo (its text is the name beside it) and the merchant's name. */
export function brandBar(brand: Brand | undefined, escape: (v: unknown) => string): string {
  if (!brand?.color && !brand?.logoUrl) return '';
  const logo = brand.logoUrl ? `<img src="${escape(brand.logoUrl)}" alt="" id="merchant-logo">` : '';
  return `<header class="merchant-bar" id="merchant-bar">${logo}<span>${escape(brand.name)}</span></header>`;
}
