// The overview's chart legend, days and phone layout in Chromium: a legend naming both series with
// their units and axes (bars: volume in the block's currency, left; line: count, right), in both
// languages; the days (period line, table, chart axis) written as the reader's locale writes them
// (en-US "Mar 4", en-GB "4 Mar", tr-TR "4 Mar"); the daily table of large amounts fitting a 390 px
// phone with no sideways scroll, of the page or of the table itself. Axe clean at 1366 and 390 px.
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { insertPayments } from '../helpers/seed-payments.ts';
import { axeViolations } from '../helpers/axe.ts';

warnIfNoChromium('overview-legend.browser.test.ts');

// 15:00 in Istanbul on 10 March 2026: the 7-day period is 4-10 March.
const { t, merchant: m, open } = useDashboard({ now: '2026-03-10T12:00:00Z' });

beforeAll(async () => {
  // Amounts as wide as a busy day's: the table must still fit a phone.
  await insertPayments(t.databaseUrl, m.workspaceId, [
    { createdAt: '2026-03-04T09:00:00Z', amount: 987654321n, refunds: [{ amount: 12345678n, at: '2026-03-04T10:00:00Z' }] },
    { createdAt: '2026-03-05T09:00:00Z', amount: 123456789n },
    { createdAt: '2026-03-06T09:00:00Z', amount: 5000n, status: 'failed', errorCode: 'insufficient_funds' },
  ]);
});

describe.skipIf(!haveChromium)('overview legend, days and phone layout in Chromium', { timeout: 120_000 }, () => {
  it('names both series with units and axes; days in the reader’s locale; axe clean (1366 px, en-US)', async () => {
    const { page, problems } = await open(1366, 900, { locale: 'en-US' });
    const legend = page.locator('[data-legend="TRY"]');
    await expect.poll(() => legend.count(), { timeout: 15_000 }).toBe(1);
    expect(await legend.locator('li').allTextContents()).toEqual(['Bars: successful volume in TRY (left axis)', 'Line: number of successful payments (right axis)']);
    // The legend's swatches are the chart's own colours.
    expect(await legend.locator('[data-series="volume"] rect').getAttribute('stroke')).toBe('#0b5cad');
    expect(await legend.locator('[data-series="count"] line').getAttribute('stroke')).toBe('#b54708');
    await expect.poll(() => page.locator('[data-chart="TRY"] canvas').count()).toBe(1);
    expect(await page.locator('[data-currency="TRY"] tr[data-date="2026-03-04"] th').textContent()).toBe('Mar 4');
    expect(await page.locator('section[aria-labelledby="overview-title"] > p.muted').textContent()).toMatch(/^Mar 4 – Mar 10 \(/);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dashboard-overview-legend-desktop.png');
    expect(problems).toEqual([]);
    await page.context().close();

    const gb = await open(1366, 900, { locale: 'en-GB' });
    await expect.poll(() => gb.page.locator('[data-currency="TRY"] tr[data-date="2026-03-04"] th').textContent(), { timeout: 15_000 }).toBe('4 Mar');
    await gb.page.context().close();
  });

  it('fits a 390 px phone: the daily table scrolls neither the page nor itself sideways; Turkish legend; axe clean', async () => {
    const { page, problems } = await open(390, 844, { locale: 'tr-TR' });
    const legend = page.locator('[data-legend="TRY"]');
    await expect.poll(() => legend.count(), { timeout: 15_000 }).toBe(1);
    expect(await legend.locator('li').allTextContents()).toEqual(['Çubuklar: başarılı ödeme tutarı, TRY (sol eksen)', 'Çizgi: başarılı ödeme adedi (sağ eksen)']);
    const row = page.locator('[data-currency="TRY"] tr[data-date="2026-03-04"]');
    expect(await row.locator('th').textContent()).toBe('4 Mar');
    expect((await row.locator('td').first().textContent())!.replace(/\s/g, ' ')).toBe('₺9.876.543,21');
    const wrap = page.locator('[data-currency="TRY"] .overview-days');
    const { scroll, client } = await wrap.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(scroll).toBeLessThanOrEqual(client);
    // Every cell's text stays inside its cell (nothing overflows into the next column).
    const spill = await wrap.locator('td, th').evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
    expect(spill).toEqual([]);
    await fitsWidth(page, 390);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dashboard-overview-legend-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
