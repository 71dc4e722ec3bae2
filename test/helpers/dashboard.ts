// The dashboard in Chromium for the test files under test/dashboard/: one gateway with a merchant,
// one browser, an access token, and `open()` for a signed-in page at a given width and locale that
// records page errors, CSP refusals and every request.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { haveChromium, launchChromium } from './browser.ts';
import { useGateway, type UseGatewayOptions } from './fixture.ts';
import { paymentBody } from './payments.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { DASHBOARD_DIST } from '../../src/dashboard/static.ts';

export interface Opened { page: Page; problems: string[]; requests: { url: string; authorization?: string }[] }

export function useDashboard<K extends string = never>(opts: UseGatewayOptions<K> = {}) {
  const fixture = useGateway<K>({ merchant: true, ...opts });
  const { t, merchant: m } = fixture;
  const state = { browser: undefined as Browser | undefined, token: '' };

  beforeAll(async () => {
    if (!haveChromium) return;
    if (!existsSync(path.join(DASHBOARD_DIST, 'index.html'))) throw new Error('dashboard/dist is missing: npm install runs its build (npm run dashboard:build)');
    state.token = await createAccessToken(t.gateway.services.db, m.team, 'browser test');
    state.browser = await launchChromium();
  });
  afterAll(async () => {
    await state.browser?.close();
  });

  /** A new browser context signed in through the link (token in the fragment), at `path` under /dashboard/. */
  async function open(width: number, height: number, o: { token?: string; locale?: string; path?: string } = {}): Promise<Opened> {
    const mobile = width < 600;
    const context = await state.browser!.newContext({ viewport: { width, height }, isMobile: mobile, hasTouch: mobile, locale: o.locale ?? 'tr-TR' });
    const page = await context.newPage();
    const opened: Opened = { page, problems: [], requests: [] };
    page.on('pageerror', (err) => opened.problems.push(err.message));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) opened.problems.push(msg.text());
    });
    page.on('request', (r) => opened.requests.push({ url: r.url(), authorization: r.headers()['authorization'] }));
    await page.goto(`${t.gateway.baseUrl}/dashboard/${o.path ?? ''}#token=${encodeURIComponent(o.token ?? state.token)}`);
    return opened;
  }

  /** A successful card payment through the REST API; its transaction token. */
  async function pay(reference: string, amount = '100.00'): Promise<string> {
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: reference, amount } }));
    expect(res.status).toBe(200);
    expect(res.body.result.successful).toBe(true);
    return res.body.transaction.token as string;
  }

  return { ...fixture, state, open, pay };
}

/** The page is no wider than the phone's screen: nothing scrolls sideways. */
export async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}
