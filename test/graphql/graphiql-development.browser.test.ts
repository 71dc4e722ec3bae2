// GraphiQL in development, as a newcomer meets it after `npm start`: opened from the gateway's
// machine, its Headers pane already holds the demo workspace's token, so the schema loads (the
// explorer and autocomplete) and a query runs in one step, with nothing copied from a terminal.
// Anyone else (a request through a proxy) gets the placeholder. At phone width it says it needs a
// wider screen. Refusals are in the language the caller prefers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readDemoToken } from '../../src/demo.ts';
import { languageFrom } from '../../src/domain/messages.ts';
import { startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { haveChromium, launchChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';

warnIfNoChromium('test/graphql/graphiql-development.browser.test.ts');

let t: TestGateway;
let token: string;
beforeAll(async () => {
  t = await startTestGateway({ seedDemo: true });
  token = readDemoToken(t.dataDir)!;
  expect(token).toBeTruthy();
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('GraphiQL in development', () => {
  it('the page opened on this machine carries the demo token, kept by no cache; through a proxy, only the placeholder', { timeout: 90_000 }, async () => {
    const local = await fetch(`${t.gateway.baseUrl}/graphql`, { headers: { Accept: 'text/html' } });
    expect(local.status).toBe(200);
    expect(local.headers.get('cache-control')).toBe('no-store');
    expect(await local.text()).toContain(`Bearer ${token}`);

    const proxied = await fetch(`${t.gateway.baseUrl}/graphql`, { headers: { Accept: 'text/html', 'X-Forwarded-For': '203.0.113.9' } });
    const html = await proxied.text();
    expect(html).not.toContain(token);
    expect(html).toContain('token from npm run gateway -- token create');
    expect(proxied.headers.get('cache-control')).toBe('no-cache');
  });

  it("a refusal is in the caller's preferred language, weights read", async () => {
    const refuse = async (language: string) => {
      const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer wrong', 'Accept-Language': language }, body: JSON.stringify({ query: '{ viewerPermissions }' }) });
      expect(res.status).toBe(401);
      return ((await res.json()) as { errors: Array<{ message: string }> }).errors[0]!.message;
    };
    const english = await refuse('en-US,en;q=0.9');
    expect(await refuse('de-DE,de;q=0.9,en;q=0.8')).toBe(english);
    expect(await refuse('tr-TR,tr;q=0.9,en;q=0.8')).not.toBe(english);
    expect(languageFrom('tr;q=0.5, en-GB;q=0.7')).toBe('en');
    expect(languageFrom('fr')).toBe('tr');
    expect(languageFrom('en;q=0, tr')).toBe('tr');
  });

  describe.skipIf(!haveChromium)('in Chromium', { timeout: 120_000 }, () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('loads the schema and runs a query with the demo token at the first visit', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const answers: Array<{ status: number; errors: unknown }> = [];
      page.on('response', async (r) => {
        if (r.request().method() !== 'POST' || !r.url().endsWith('/graphql')) return;
        answers.push({ status: r.status(), errors: ((await r.json().catch(() => ({}))) as { errors?: unknown }).errors });
      });
      await page.goto(`${t.gateway.baseUrl}/graphql`);
      await page.waitForSelector('.graphiql-container', { timeout: 30_000 });
      // The schema came with the token: the explorer lists the root types.
      await page.getByRole('button', { name: /Show Documentation Explorer/i }).click();
      await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 30_000 }).toContain('Query');
      await page.locator('.graphiql-query-editor .monaco-editor').first().click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      // The editor closes the brace itself.
      await page.keyboard.type('{ viewerPermissions');
      // Autocomplete knows the schema: it offers the field being typed.
      await expect.poll(() => page.locator('.suggest-widget').innerText(), { timeout: 30_000 }).toContain('viewerPermissions');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /Execute query/i }).click();
      await expect.poll(() => page.locator('.graphiql-response').innerText(), { timeout: 30_000 }).toContain('"viewerPermissions"');
      expect(await page.locator('.graphiql-response').innerText()).not.toContain('"errors"');
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((a) => a.status === 200 && a.errors === undefined), JSON.stringify(answers)).toBe(true);
      await shot(page, 'graphiql-development.png');
      await page.close();
    });

    it('at 390 px it says it needs a wider screen; at desktop width it does not', async () => {
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.goto(`${t.gateway.baseUrl}/graphql`);
      await expect.poll(() => phone.getByRole('note').isVisible()).toBe(true);
      expect(await phone.getByRole('note').innerText()).toContain('GraphiQL needs a wider screen');
      await shot(phone, 'graphiql-phone.png');
      await phone.setViewportSize({ width: 1024, height: 800 });
      await expect.poll(() => phone.getByRole('note').isVisible()).toBe(false);
      await phone.close();
    });
  });
});
