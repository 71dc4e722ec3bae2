// /docs "Try it out" works: the reader types the workspace's API key and secret into the page (kept
// in its memory only: not in storage, not in the address, never sent), and each request Swagger UI
// sends is signed in the browser in the timestamp form, so Execute answers 200. Without a way to
// sign (no Web Crypto outside a secure context) the page offers no Try it out. The reference and
// GraphiQL carry no serious or critical axe violation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { axeViolations } from '../helpers/axe.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';

warnIfNoChromium('test/http/docs-try.browser.test.ts');

let t: TestGateway;
let m: Merchant;
let browser: Browser;
beforeAll(async () => {
  t = await startTestGateway({ seedDemo: true });
  m = await seedWorkspace(t);
  if (haveChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const serious = (lines: string[]) => lines.filter((l) => /\((serious|critical)\)/.test(l));

describe.skipIf(!haveChromium)('/docs in Chromium', { timeout: 180_000 }, () => {
  it('signs Try it out with the key and secret typed into the page, which it keeps nowhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const sent: Array<{ url: string; headers: Record<string, string>; body: string | null }> = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) sent.push({ url: r.url(), headers: r.headers(), body: r.postData() });
    });
    await page.goto(`${t.gateway.baseUrl}/docs#/BIN/retrieve-bin`);
    await page.getByLabel('API key').fill(m.apiKey);
    await page.getByLabel('API secret').fill(m.apiSecret);
    const op = page.locator('#operations-BIN-retrieve-bin');
    await op.waitFor({ timeout: 30_000 });
    if (!(await op.locator('.opblock-body').isVisible())) await op.locator('.opblock-summary').first().click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.locator('input[placeholder="team"]').fill(m.team);
    await op.getByRole('button', { name: 'Execute' }).click();
    await expect.poll(() => op.locator('.live-responses-table tbody .response-col_status').first().innerText(), { timeout: 30_000 }).toContain('200');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-api-key']).toBe(m.apiKey);
    expect(sent[0]!.headers['x-timestamp']).toMatch(/^\d{10}$/);
    expect(sent[0]!.headers['x-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(sent)).not.toContain(m.apiSecret);
    // Kept nowhere but the page's memory.
    const kept = await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href }));
    expect(kept).not.toContain(m.apiSecret);
    await shot(page, 'docs-try-it-out.png');
    await page.close();
  });

  it('no serious or critical axe violation on /docs (an operation open) and GraphiQL', async () => {
    const page: Page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${t.gateway.baseUrl}/docs#/Payments/regular-payment`);
    await page.locator('#operations-Payments-regular-payment .opblock-body').waitFor({ timeout: 30_000 });
    expect(serious(await axeViolations(page))).toEqual([]);
    await page.goto(`${t.gateway.baseUrl}/graphql`);
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    expect(serious(await axeViolations(page))).toEqual([]);
    await page.close();
  });
});
