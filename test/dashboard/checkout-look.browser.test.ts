// The checkout settings card in Chromium: a refused colour and origin shown at their fields (the
// origin by its line) with nothing saved, then the logo, colour and origins saved; and the hosted
// checkout's text readable on the colour (axe clean, AA contrast) for light, middle and dark ones.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { useDashboard } from '../helpers/dashboard.ts';
import { axeViolations } from '../helpers/axe.ts';
import { orderBody } from '../helpers/orders.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('checkout-look.browser.test.ts');

const { t, open, seed, state } = useDashboard();
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('checkout settings in Chromium', { timeout: 120_000 }, () => {
  it('refuses mistakes at their fields with nothing saved, then saves the logo, colour and origins', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'checkout look test');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB' });
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Colour (#rrggbb)').fill('orange');
    await page.getByLabel('Origins that may frame the pages').fill('https://shop.example\nhttps://shop.example/pay');
    await page.getByRole('button', { name: 'Save the checkout settings' }).click();
    const colorField = page.locator('[data-field-name="brandColor"] .field-error');
    await expect.poll(() => colorField.textContent()).toBe('The colour must be in the form #rrggbb, e.g. #1f6feb.');
    expect(await page.locator('[data-field-name="embedOrigins"] .field-error').textContent()).toBe('Line 2: The origin must be https://host[:port] (no path); http only for localhost and 127.0.0.1.');
    expect(await page.getByLabel('Colour (#rrggbb)').getAttribute('aria-invalid')).toBe('true');
    const before = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    expect([before.brandColor, before.embedOrigins]).toEqual([null, []]);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Logo address (https)').fill('https://cdn.shop.example/logo.png');
    await page.getByLabel('Colour (#rrggbb)').fill('#1F3A93');
    await page.getByLabel('Origins that may frame the pages').fill('https://shop.example\nhttp://localhost:3000');
    await page.getByRole('button', { name: 'Save the checkout settings' }).click();
    await expect.poll(() => page.locator('[data-field="brandColor"] code').textContent()).toBe('#1f3a93');
    expect(await page.locator('[data-field="embedOrigins"] li').allTextContents()).toEqual(['https://shop.example', 'http://localhost:3000']);
    const after = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    expect({ logo: after.brandLogoUrl, color: after.brandColor, origins: after.embedOrigins }).toEqual({ logo: 'https://cdn.shop.example/logo.png', color: '#1f3a93', origins: ['https://shop.example', 'http://localhost:3000'] });
    expect(problems).toEqual([]);
    await shot(page, 'settings-checkout-look.png');
    await page.context().close();
  });

  it('keeps the checkout readable on any brand colour: black or white text, axe clean', async () => {
    const m = await seed();
    // Colour only: no https server here to serve a logo from (checkout-settings.test.ts checks its markup and policy).
    for (const [color, text] of [['#ffff00', 'rgb(0, 0, 0)'], ['#777777', 'rgb(0, 0, 0)'], ['#1f3a93', 'rgb(255, 255, 255)'], ['#ffffff', 'rgb(0, 0, 0)']] as const) {
      await db().workspace.update({ where: { id: m.workspaceId }, data: { brandColor: color } });
      const res = await m.call('order-payment', orderBody(m));
      const context = await state.browser!.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
      const page = await context.newPage();
      await page.goto(res.body.order.checkout_url);
      const bar = await page.locator('#merchant-bar').evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
      const button = await page.locator('#pay-button').evaluate((el) => getComputedStyle(el).color);
      expect(bar[1], color).toBe(text);
      expect(button, color).toBe(text);
      expect(await axeViolations(page), color).toEqual([]);
      if (color === '#ffff00') await shot(page, 'checkout-brand-light-phone.png');
      await context.close();
    }
  });
});
