// The Tokens and Audit screens in Chromium: an owner creates an operator token (shown once, working
// at once with its role), revokes it after confirming, reads both writes in the audit trail,
// filters it and downloads it as CSV; a viewer's menu has neither screen. Desktop and phone width.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('team.browser.test.ts');

const { t, open, seed } = useDashboard();
const db = () => t.gateway.services.db;

async function roleOf(token: string): Promise<string | null> {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ viewerRole }' }),
  });
  if (res.status !== 200) return `status ${res.status}`;
  return ((await res.json()) as { data: { viewerRole: string | null } }).data.viewerRole;
}

describe.skipIf(!haveChromium)('tokens and audit screens in Chromium', { timeout: 120_000 }, () => {
  it('an owner creates a token shown once, revokes it after confirming, and finds both in the audit trail and its CSV', async () => {
    const m = await seed();
    const owner = await createAccessToken(db(), m.team, 'Owner desk');
    const { page, problems } = await open(1280, 900, { token: owner, locale: 'en-GB' });
    await page.getByRole('link', { name: 'Access tokens' }).click();
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/tokens`);
    await expect.poll(() => page.locator('tr[data-token="Owner desk"]').textContent()).toContain('Owner');

    // Create: the secret is on the page once and works at once with its role.
    await page.getByLabel('Name').fill('Refund desk');
    await page.locator('select[name="role"]').selectOption('operator');
    await page.getByRole('button', { name: 'Create' }).click();
    const secret = (await page.locator('[data-new-token]').textContent())!;
    expect(secret).toMatch(/^dash_/);
    expect(await roleOf(secret)).toBe('operator');
    await expect.poll(() => page.locator('tr[data-token="Refund desk"]').textContent()).toContain('Operator');
    expect(await page.locator('tr[data-token="Refund desk"]').textContent()).not.toContain(secret);

    // Revoke: nothing happens before the confirmation.
    await page.locator('tr[data-token="Refund desk"]').getByRole('button', { name: /Revoke/ }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Refund desk');
    expect(await roleOf(secret)).toBe('operator');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('tr[data-token="Refund desk"]').textContent()).toContain('Revoked');
    expect(await roleOf(secret)).toBe('status 401');
    await shot(page, 'tokens-desktop.png');
    await fitsWidth(page, 1280);

    // The audit trail holds both writes (never the secret), filtered and downloaded.
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await expect.poll(() => page.locator('tr[data-operation]').count()).toBe(2);
    expect(await page.locator('tr[data-operation="createAccessToken"]').textContent()).toContain('Owner desk');
    expect(await page.content()).not.toContain(secret);
    await page.getByLabel('Operation', { exact: true }).fill('revokeAccessToken');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('tr[data-operation]').count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('audit.csv');
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('time,operation,outcome,token_id,token_name,role,request_id,workspace_id,variables');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(',revokeAccessToken,done,');
    await shot(page, 'audit-desktop.png');
    await fitsWidth(page, 1280);
    expect(problems).toEqual([]);
  });

  it('at phone width in Turkish: both screens fit, dates in the Turkish format', async () => {
    const m = await seed();
    const owner = await createAccessToken(db(), m.team, 'Sahip masası');
    await createAccessToken(db(), m.team, 'Çok uzun bir anahtar adı, telefonda da sığmalı', { role: 'viewer' });
    const { page, problems } = await open(390, 844, { token: owner, path: 'tokens' });
    await expect.poll(() => page.locator('tr[data-token]').count()).toBe(2);
    expect(await page.locator('tr[data-token="Sahip masası"]').textContent()).toMatch(/Sahip\d{2}\.\d{2}\.\d{4}/);
    await page.getByLabel('Ad').fill('Gece vardiyası');
    await page.getByRole('button', { name: 'Oluştur' }).click();
    await expect.poll(() => page.locator('[data-new-token]').count()).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'tokens-phone.png');
    await page.getByRole('link', { name: 'Denetim kaydı' }).click();
    await expect.poll(() => page.locator('tr[data-operation="createAccessToken"]').count()).toBe(1);
    expect(await page.locator('tr[data-operation="createAccessToken"]').textContent()).toMatch(/\d{2}\.\d{2}\.\d{4}.*createAccessTokenyapıldı/);
    await fitsWidth(page, 390);
    await shot(page, 'audit-phone.png');
    expect(problems).toEqual([]);
  });

  it("a viewer's menu has neither screen", async () => {
    const m = await seed();
    const viewer = await createAccessToken(db(), m.team, 'Only reads', { role: 'viewer' });
    const { page } = await open(1280, 900, { token: viewer, locale: 'en-GB' });
    await expect.poll(() => page.getByRole('link', { name: 'Payments' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Access tokens' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Audit trail' }).count()).toBe(0);
  });
});
