// How the dashboard's files reach a real browser: every file under /dashboard/assets/ that a screen
// loads arrives compressed (brotli) and cached for good (hashed names), the chart's code (uPlot)
// only on the overview, so the payments list does not download it.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { useDashboard } from '../helpers/dashboard.ts';

warnIfNoChromium('assets.browser.test.ts');

const { open, pay } = useDashboard();

interface Loaded { path: string; status: number; cacheControl?: string; encoding?: string; body: string }

/**
 * Every asset response of the page from its next load on, with the browser cache off (what a first
 * visit gets); `settled` resolves once each one's body was read. A response of the load before the
 * reload may arrive after the page navigated away, when its body can no longer be read: it is left
 * out (the assertions are about the reload's), and its failed read never goes unhandled.
 */
async function assetsOf(page: Page): Promise<{ settled: () => Promise<Loaded[]> }> {
  await (await page.context().newCDPSession(page)).send('Network.setCacheDisabled', { cacheDisabled: true });
  const loaded: Loaded[] = [];
  const reads: Array<Promise<void>> = [];
  page.on('response', (res) => {
    const { pathname } = new URL(res.url());
    if (!pathname.startsWith('/dashboard/assets/')) return;
    const read = async () => {
      const headers = await res.allHeaders();
      loaded.push({ path: pathname, status: res.status(), cacheControl: headers['cache-control'], encoding: headers['content-encoding'], body: (await res.body()).toString() });
    };
    reads.push(read().catch(() => {}));
  });
  return { settled: async () => (await Promise.all(reads), loaded) };
}

function expectCompressedAndImmutable(loaded: Loaded[]): void {
  expect(loaded.length).toBeGreaterThan(0);
  for (const asset of loaded) {
    expect({ ...asset, body: undefined }, asset.path).toMatchObject({ status: 200, cacheControl: 'public, max-age=31536000, immutable', encoding: 'br' });
  }
}

describe.skipIf(!haveChromium)('dashboard assets in Chromium', { timeout: 120_000 }, () => {
  it('the payments list loads compressed, immutable assets and no chart code', async () => {
    await pay('ASSETS-PAY-1');
    const { page, problems } = await open(390, 844, { path: 'payments', locale: 'en-GB' });
    const assets = await assetsOf(page);
    await page.reload();
    await expect.poll(() => page.locator('main').textContent()).toContain('ASSETS-PAY-1');
    await page.waitForLoadState('networkidle');
    const loaded = await assets.settled();
    expectCompressedAndImmutable(loaded);
    // uPlot's code names its legend class: no script of this screen holds it.
    expect(loaded.filter((a) => a.path.endsWith('.js') && a.body.includes('u-legend')).map((a) => a.path)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the overview loads the chart code in a file of its own, compressed and immutable too', async () => {
    await pay('ASSETS-PAY-2');
    const { page, problems } = await open(1280, 800, { locale: 'en-GB' });
    const assets = await assetsOf(page);
    await page.reload();
    await expect.poll(() => page.locator('[data-chart] canvas').count()).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    const loaded = await assets.settled();
    expectCompressedAndImmutable(loaded);
    expect(loaded.filter((a) => /\/DailyChart-[\w-]+\.js$/.test(a.path))).toHaveLength(1);
    expect(loaded.filter((a) => /\/DailyChart-[\w-]+\.css$/.test(a.path))).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
