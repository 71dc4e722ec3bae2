// axe-core in a playwright-core page: its source is evaluated through the DevTools protocol, which
// the dashboard's Content-Security-Policy (script-src 'self') does not govern, so no CSP bypass is
// needed and the page is tested under the policy it really ships with.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0/2.1 level A and AA: the rules the dashboard is held to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The violations axe finds on the page as it stands, one readable line per failing node. */
export async function axeViolations(page: Page): Promise<string[]> {
  const source = await axeSource;
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(source);
  const results = await page.evaluate((tags) => (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<AxeResults> } }).axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }), WCAG_TAGS);
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${v.help} — ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`));
}
