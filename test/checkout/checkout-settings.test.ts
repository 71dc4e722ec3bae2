// A workspace's hosted-page settings: the logo and colour its pages show and the origins that may
// frame them, set over GraphQL and the CLI, checked by field path with nothing written on a
// mistake; the headers that follow from them (frame-ancestors for the listed origins on that
// workspace's pages only, every other answer DENY); and the text colour on any brand colour.
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { cliOn } from '../helpers/cli.ts';
import { orderBody } from '../helpers/orders.ts';
import { paymentBody } from '../helpers/payments.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { contrast, embedOrigin, textOn } from '../../src/domain/checkout-settings.ts';

const { t, seed } = useGateway();
const cli = cliOn(t);

const SET = `mutation($input: CheckoutSettingsInput!) { setCheckoutSettings(input: $input) { result { successful } errors { path code message } workspace { logoUrl brandColor embedOrigins } } }`;

const orderPage = async (m: Awaited<ReturnType<typeof seed>>) => {
  const res = await m.call('order-payment', orderBody(m));
  expect(res.status).toBe(200);
  return fetch(res.body.order.checkout_url, { headers: { 'Accept-Language': 'en' } });
};

describe('checkout settings', () => {
  it('developers set the logo, colour and embed origins over GraphQL; operators only read them', async () => {
    const m = await seed();
    const db = t.gateway.services.db;
    const developer = await createAccessToken(db, m.team, 'dev', { role: 'developer' });
    const operator = await createAccessToken(db, m.team, 'op', { role: 'operator' });
    const input = { logoUrl: 'https://cdn.shop.example/logo.png', brandColor: '#FFCC00', embedOrigins: ['https://shop.example', 'https://pay.shop.example:8443/', 'http://localhost:5173'] };
    const set = await gql(t, developer, SET, { input });
    expect(set.body.data.setCheckoutSettings).toEqual({
      result: { successful: true },
      errors: [],
      workspace: { logoUrl: input.logoUrl, brandColor: '#ffcc00', embedOrigins: ['https://shop.example', 'https://pay.shop.example:8443', 'http://localhost:5173'] },
    });
    expect((await gql(t, operator, SET, { input: { brandColor: '#000000' } })).body.errors?.[0]).toBeTruthy();
    expect((await gql(t, operator, '{ workspace { brandColor embedOrigins } }')).body.data.workspace.brandColor).toBe('#ffcc00');
    // null clears the logo and colour, [] the origins.
    const cleared = await gql(t, developer, SET, { input: { logoUrl: null, brandColor: '', embedOrigins: [] } });
    expect(cleared.body.data.setCheckoutSettings.workspace).toEqual({ logoUrl: null, brandColor: null, embedOrigins: [] });
  });

  it('refuses a mistake at its field path and writes nothing of the input', async () => {
    const m = await seed();
    const db = t.gateway.services.db;
    const developer = await createAccessToken(db, m.team, 'dev', { role: 'developer' });
    await gql(t, developer, SET, { input: { brandColor: '#123456', embedOrigins: ['https://shop.example'] } });
    const bad = await gql(t, developer, SET, {
      input: { logoUrl: 'http://cdn.shop.example/logo.png', brandColor: 'red', embedOrigins: ['https://ok.example', 'https://shop.example/pay', '*', 'http://shop.example'] },
    });
    expect(bad.body.data.setCheckoutSettings).toEqual({
      result: { successful: false },
      workspace: null,
      errors: [
        { path: ['logoUrl'], code: 'logo_url_invalid', message: 'The logo must be a valid https URL (at most 2048 characters).' },
        { path: ['brandColor'], code: 'brand_color_invalid', message: 'The colour must be in the form #rrggbb, e.g. #1f6feb.' },
        ...[1, 2, 3].map((i) => ({ path: ['embedOrigins', String(i)], code: 'embed_origin_invalid', message: 'The origin must be https://host[:port] (no path); http only for localhost and 127.0.0.1.' })),
      ],
    });
    const w = await db.workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    expect({ logo: w.brandLogoUrl, color: w.brandColor, origins: w.embedOrigins }).toEqual({ logo: null, color: '#123456', origins: ['https://shop.example'] });
    const many = await gql(t, developer, SET, { input: { embedOrigins: Array.from({ length: 11 }, (_, i) => `https://s${i}.example`) } });
    expect(many.body.data.setCheckoutSettings.errors).toEqual([{ path: ['embedOrigins'], code: 'too_many_items', message: expect.any(String) }]);
  });

  it('names origins as the browser does: https with an optional port, http only on localhost and 127.0.0.1', () => {
    expect(embedOrigin('https://shop.example')).toBe('https://shop.example');
    expect(embedOrigin('https://shop.example:8443/')).toBe('https://shop.example:8443');
    expect(embedOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(embedOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    for (const bad of ['http://shop.example', 'https://shop.example/pay', 'https://shop.example?x=1', 'https://user@shop.example', 'https://*.shop.example', '*', 'shop.example', 'https://shop.example:443', "https://shop.example'"]) {
      expect(embedOrigin(bad), bad).toBeNull();
    }
  });

  it('puts black or white text on every brand colour, at least 4.5:1 (WCAG AA)', () => {
    for (let r = 0; r < 256; r += 15) {
      for (let g = 0; g < 256; g += 15) {
        for (let b = 0; b < 256; b += 15) {
          const color = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          expect(contrast(color, textOn(color)), color).toBeGreaterThanOrEqual(4.5);
        }
      }
    }
    expect(textOn('#ffcc00')).toBe('#000000');
    expect(textOn('#1f3a93')).toBe('#ffffff');
  });

  it('lets only the listed origins frame the workspace pages, and leaves every other answer DENY', async () => {
    const listed = await seed();
    const other = await seed();
    await t.gateway.services.db.workspace.update({ where: { id: listed.workspaceId }, data: { embedOrigins: ['https://shop.example', 'http://127.0.0.1:8080'] } });

    const framed = await orderPage(listed);
    expect(framed.status).toBe(200);
    expect(framed.headers.get('x-frame-options')).toBeNull();
    expect(framed.headers.get('content-security-policy')).toContain("frame-ancestors https://shop.example http://127.0.0.1:8080; base-uri 'none'");
    // Nothing else of the page's policy is relaxed.
    expect(framed.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'nonce-[^']+'; script-src 'nonce-[^']+'; connect-src 'self'; img-src 'self' data:; form-action 'self';/);

    const denied = await orderPage(other);
    expect(denied.headers.get('x-frame-options')).toBe('DENY');
    expect(denied.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    // The 3D step of the listed workspace: its redirect may be framed by the same origins.
    const secure = await listed.call('secure-payment', paymentBody(listed, { transaction: { callback_url: 'https://shop.example/back' } }));
    const threeDs = await fetch(secure.body.result.redirect_url, { redirect: 'manual' });
    expect(threeDs.status).toBe(303);
    expect(threeDs.headers.get('x-frame-options')).toBeNull();
    expect(threeDs.headers.get('content-security-policy')).toContain('frame-ancestors https://shop.example http://127.0.0.1:8080;');
    const acs = await fetch(new URL(threeDs.headers.get('location')!, t.gateway.baseUrl));
    expect(acs.headers.get('x-frame-options')).toBeNull();
    expect(acs.headers.get('content-security-policy')).toContain('frame-ancestors https://shop.example http://127.0.0.1:8080;');

    for (const path of ['/', '/dashboard/', '/healthz', '/embed.js', `/checkout/order/${crypto.randomUUID()}`, `/api/${listed.team}/gateway/retrieve-payment`]) {
      const res = await fetch(`${t.gateway.baseUrl}${path}`);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('shows the logo and colour on the pages, the logo origin alone added to img-src', async () => {
    const m = await seed();
    await t.gateway.services.db.workspace.update({ where: { id: m.workspaceId }, data: { brandLogoUrl: 'https://cdn.shop.example/logo.png', brandColor: '#ffcc00' } });
    const page = await orderPage(m);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' https://cdn.shop.example data:;");
    expect(html).toContain('<header class="merchant-bar" id="merchant-bar"><img src="https://cdn.shop.example/logo.png" alt="" id="merchant-logo"><span>');
    expect(html).toContain('.primary{background:#ffcc00;color:#000000;border:2px solid #000000}');
  });

  it('serves /embed.js as a script', async () => {
    const res = await fetch(`${t.gateway.baseUrl}/embed.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const source = await res.text();
    expect(source).toContain('window.GatewayCheckout={open:open}');
    expect(source).not.toMatch(/postMessage\([^)]*'\*'/);
  });

  it('the CLI shows and sets them under workspace checkout, mistakes at their field', async () => {
    const m = await seed();
    const out = await cli.json<Record<string, unknown>>('workspace', 'checkout', m.team, '--brand-color', '#1F3A93', '--embed-origins', 'https://shop.example, http://localhost:3000');
    expect(out).toEqual({ team: m.team, logo_url: null, brand_color: '#1f3a93', embed_origins: ['https://shop.example', 'http://localhost:3000'] });
    expect((await cli.run(['workspace', 'checkout', m.team])).stdout).toContain('framed by      https://shop.example, http://localhost:3000');
    await cli.fails(['workspace', 'checkout', m.team, '--logo-url', 'ftp://x.example/logo.png'], 'logoUrl: Logo adresi');
    expect((await cli.json<Record<string, unknown>>('workspace', 'checkout', m.team, '--embed-origins', '')).embed_origins).toEqual([]);
  });
});
