// GraphiQL in production through a real browser: the sign-in page asks for the token, the token
// opens GraphiQL with its Authorization header filled in, and a query runs; a token given once in
// the URL fragment does the same and disappears from the address bar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { haveChromium, launchChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';

warnIfNoChromium('test/graphql/graphiql.browser.test.ts');

describe.skipIf(!haveChromium)('GraphiQL in production, in Chromium', { timeout: 120_000 }, () => {
  let t: TestGateway;
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    t = await startTestGateway({ env: { NODE_ENV: 'production' } });
    await seedWorkspace(t, { slug: 'acme' });
    token = await createAccessToken(t.gateway.services.db, null, 'support');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('asks for a token, refuses a wrong one, opens GraphiQL with a right one', async () => {
    const page = await browser.newPage();
    // Both pages run under the gateway's Content-Security-Policy, and nothing of either is refused.
    const refused: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
    const signIn = await page.goto(`${t.gateway.baseUrl}/graphql`);
    expect(signIn?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.getByLabel('Access token').fill('support_wrong');
    await page.getByRole('button', { name: 'Open GraphiQL' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The access token is invalid.');
    await page.getByLabel('Access token').fill(token);
    await page.getByRole('button', { name: 'Open GraphiQL' }).click();
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    expect(await page.title()).toBe('Payment gateway GraphiQL');
    await shot(page, 'graphiql-production.png');
    // The Headers pane carries the token the page was opened with.
    await expect.poll(() => page.locator('body').innerText()).toContain(token.slice(0, 24));
    expect(refused).toEqual([]);
    await page.close();
  });

  it('takes the token once from the URL fragment and removes it from the address', async () => {
    const page = await browser.newPage();
    await page.goto(`${t.gateway.baseUrl}/graphql#token=${token}`);
    await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
    expect(page.url()).toBe(`${t.gateway.baseUrl}/graphql`);
    await page.close();
  });
});
