// The gateway's pages in Chromium under their real headers: the dashboard (signed in, its live
// WebSocket open), the API reference, GraphiQL and an order's checkout page load and work with no
// console error, no CSP violation, no failed request (the favicon included).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { useDashboard } from '../helpers/dashboard.ts';
import { orderBody } from '../helpers/orders.ts';

warnIfNoChromium('pages.browser.test.ts');

const { t, merchant: m, state } = useDashboard();

interface Watched {
  page: Page;
  problems: string[];
  close(): Promise<void>;
}

async function watch(): Promise<Watched> {
  const context = await state.browser!.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /Content Security Policy|Refused to/i.test(msg.text())) problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
  });
  return { page, problems, close: () => context.close() };
}

/** The page's icon, fetched as the browser would: an image. */
async function iconOf(page: Page): Promise<{ status: number; type: string | null }> {
  return page.evaluate(async () => {
    const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')!.href;
    const res = await fetch(href);
    return { status: res.status, type: res.headers.get('content-type') };
  });
}

describe.skipIf(!haveChromium)('pages in Chromium', { timeout: 120_000 }, () => {
  it('the dashboard signs in and opens its live connection', async () => {
    const w = await watch();
    const sockets: string[] = [];
    w.page.on('websocket', (ws) => sockets.push(ws.url()));
    // The payments list, which opens the live connection (the landing page is the overview).
    await w.page.goto(`${t.gateway.baseUrl}/dashboard/payments#token=${encodeURIComponent(state.token)}`);
    await expect.poll(() => w.page.getByRole('heading', { name: 'Payments' }).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => sockets).toEqual([`${t.gateway.baseUrl.replace('http', 'ws')}/graphql`]);
    expect(await iconOf(w.page)).toEqual({ status: 200, type: 'image/svg+xml' });
    // The favicon at the address browsers try without a link.
    expect((await w.page.request.get(`${t.gateway.baseUrl}/favicon.ico`)).status()).toBe(200);
    await shot(w.page, 'pages-dashboard.png');
    expect(w.problems).toEqual([]);
    await w.close();
  });

  it('the API reference renders the operations', async () => {
    const w = await watch();
    await w.page.goto(`${t.gateway.baseUrl}/docs`);
    await expect.poll(() => w.page.locator('.opblock').count(), { timeout: 20_000 }).toBeGreaterThan(5);
    expect(await iconOf(w.page)).toEqual({ status: 200, type: 'image/svg+xml' });
    await shot(w.page, 'pages-docs.png');
    expect(w.problems).toEqual([]);
    await w.close();
  });

  it('GraphiQL renders its editors and runs a query', async () => {
    const w = await watch();
    // What a user does in the headers tab: a real token instead of the placeholder.
    await w.page.route('**/graphql', (route) => route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${state.token}` } }));
    await w.page.goto(`${t.gateway.baseUrl}/graphql`);
    await expect.poll(() => w.page.locator('.monaco-editor').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const answer = await w.page.evaluate(async () => {
      const res = await fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
      return res.json();
    });
    expect(answer).toEqual({ data: { __typename: 'Query' } });
    await shot(w.page, 'pages-graphiql.png');
    expect(w.problems).toEqual([]);
    await w.close();
  });

  it("an order's checkout page shows its card form", async () => {
    const res = await m.call('order-payment', orderBody(m));
    expect(res.status).toBe(200);
    const w = await watch();
    await w.page.goto(res.body.order.checkout_url);
    await expect.poll(() => w.page.locator('form input').count()).toBeGreaterThanOrEqual(3);
    expect(await iconOf(w.page)).toEqual({ status: 200, type: 'image/svg+xml' });
    await shot(w.page, 'pages-checkout.png');
    expect(w.problems).toEqual([]);
    await w.close();
  });
});
