// Real Chromium for the hosted-page and dashboard tests: Debian's build driven by playwright-core.
// Without it (a machine where `apt-get install -y chromium` was not possible) the browser tests
// say so and skip; screenshots go to test-artifacts/ (gitignored), kept by CI as artifacts.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Merchant } from './gateway.ts';
import { paymentBody } from './payments.ts';
import { orderOf } from './bank-orders.ts';

const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('test-artifacts');
export const haveChromium = existsSync(CHROMIUM);

export function warnIfNoChromium(file: string): void {
  if (!haveChromium) console.warn(`${file} skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

export async function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A full-page screenshot in test-artifacts/. */
export const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console lines about blocked content (CSP) and page errors: a page under test should have none. */
  problems: string[];
  close: () => Promise<void>;
}

/** A page in a context of its own at `viewport` (phone: touch, 2x pixels) that collects its problems. */
export async function openWatchedPage(browser: Browser, viewport: { width: number; height: number }, mobile: boolean, locale = 'tr-TR'): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: mobile ? 2 : 1, isMobile: mobile, hasTouch: mobile, locale });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  return { context, page, problems, close: () => context.close() };
}

/**
 * A shopper's 3-D step at phone width: opens `redirectUrl`, lets `before` act on the page first (a
 * bank's own card page), waits for the emulator's ACS and clicks Approve or Decline, and resolves
 * once the browser is on `returnUrl` (the merchant's address) with no page problem; the addresses
 * the browser asked for on the way.
 */
export async function walkAcs(
  browser: Browser,
  redirectUrl: string,
  returnUrl: string,
  button: '#approve' | '#decline',
  opts: { before?: (page: Page) => Promise<void>; screenshot?: string } = {},
): Promise<string[]> {
  const w = await openWatchedPage(browser, { width: 390, height: 844 }, true);
  const urls: string[] = [];
  w.page.on('request', (r) => urls.push(r.url()));
  try {
    await w.page.goto(redirectUrl);
    await opts.before?.(w.page);
    await w.page.waitForSelector(button);
    if (opts.screenshot) await shot(w.page, opts.screenshot);
    await Promise.all([w.page.waitForURL(returnUrl), w.page.click(button)]);
    if (w.problems.length) throw new Error(`the 3-D step's pages had problems: ${w.problems.join('; ')}`);
  } finally {
    await w.close();
  }
  return urls;
}

/**
 * A bank's 3-D payments in Chromium (launched for the file when this machine has it): `start`
 * asks the merchant (seeded on first use) for a secure payment with `card` whose callback is the
 * shop's /payment-return, under channel references `<prefix>-<n>` (its token and the bank's order
 * id with it); `walk` takes the browser from
 * its redirect_url through the ACS, pressing `button`, back to the shop (walkAcs); `retrieve`
 * reads a payment as the merchant would.
 */
export function useBankBrowser(shop: { url: string }, seed: () => Promise<Merchant>, payment: { card: string; prefix: string }) {
  let browser: Browser;
  let merchant: Merchant | undefined;
  let reference = 1;
  beforeAll(async () => {
    if (haveChromium) browser = await launchChromium();
  });
  afterAll(() => browser?.close());
  // The shop listens only once the file's setup ran: its address is read when a test runs.
  const returnUrl = () => `${shop.url}/payment-return`;
  return {
    async start() {
      const m = (merchant ??= await seed());
      const res = await m.call('secure-payment', paymentBody(m, { card: { number: payment.card }, transaction: { channel_reference: `${payment.prefix}-${reference++}`, callback_url: returnUrl() } }));
      expect(res.status, res.text).toBe(200);
      const token = res.body.transaction.token as string;
      return { m, token, orderId: orderOf(token), redirectUrl: res.body.result.redirect_url as string };
    },
    walk: (redirectUrl: string, button: '#approve' | '#decline') => walkAcs(browser, redirectUrl, returnUrl(), button),
    retrieve: async (m: Merchant, token: string) => (await m.call('retrieve-payment', { transaction: { token } })).body.result,
  };
}
