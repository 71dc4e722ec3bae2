// The Tokens and Audit screens in Chromium: an owner creates an operator token (shown once, working
// at once with its role), revokes it after confirming, reads both writes in the audit trail,
// filters it and downloads it as CSV; a viewer's menu has neither screen. Desktop and phone width.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { axeViolations } from '../helpers/axe.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { recordAudit } from '../../src/domain/audit.ts';

warnIfNoChromium('team.browser.test.ts');

// Late evening in UTC, already the next day in Istanbul (the workspaces' zone): a day filter
// that counted days in UTC, or in the browser's zone, would miss the entries of "today".
const { t, open, seed } = useDashboard({ now: '2026-11-25T22:30:00.000Z' });
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
    // Shown once, with a button that copies it.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('.new-token').getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('.new-token').textContent()).toContain('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await roleOf(secret)).toBe('operator');
    await expect.poll(() => page.locator('tr[data-token="Refund desk"] [data-field="role"] .badge').textContent()).toBe('Operator');
    expect(await page.locator('tr[data-token="Refund desk"] [data-field="state"] .badge').textContent()).toBe('Active');
    expect(await page.locator('main').textContent()).toContain('Times in Europe/Istanbul.');
    // 22:30 UTC is 01:30 the next day in Istanbul, whatever zone the browser is in.
    expect(await page.locator('tr[data-token="Refund desk"]').textContent()).toContain('26/11/2026, 01:30:00');
    expect(await page.locator('tr[data-token="Refund desk"]').textContent()).not.toContain(secret);

    // Revoke: nothing happens before the confirmation.
    await page.locator('tr[data-token="Refund desk"]').getByRole('button', { name: /Revoke/ }).click();
    expect(await page.getByRole('alertdialog').textContent()).toContain('Refund desk');
    expect(await roleOf(secret)).toBe('operator');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('tr[data-token="Refund desk"] [data-field="state"] .badge').textContent()).toBe('Revoked');
    expect(await roleOf(secret)).toBe('status 401');
    await shot(page, 'tokens-desktop.png');
    await fitsWidth(page, 1280);

    // The audit trail holds both writes (never the secret), filtered and downloaded.
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await expect.poll(() => page.locator('tr[data-operation]').count()).toBe(2);
    expect(await page.locator('tr[data-operation="createAccessToken"]').textContent()).toContain('Owner desk');
    expect(await page.locator('tr[data-operation="createAccessToken"] [data-field="outcome"] .badge').textContent()).toBe('Done');
    expect(await page.locator('tr[data-operation="createAccessToken"]').textContent()).toContain('26/11/2026, 01:30:00');
    expect(await page.locator('tr[data-operation="createAccessToken"] [data-field="role"] .badge').textContent()).toBe('Owner');
    expect(await page.locator('main').textContent()).toContain('Days are counted in Europe/Istanbul.');
    expect(await page.content()).not.toContain(secret);
    // Operations by their words; each row says what was done and names the operation.
    expect(await page.locator('tr[data-operation="createAccessToken"] [data-field="operation"]').textContent()).toBe('Access token createdcreateAccessToken');
    await page.getByLabel('Operation', { exact: true }).selectOption({ label: 'Access token revoked' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('tr[data-operation]').count()).toBe(1);
    // Days of the workspace's calendar: from today (in Istanbul) keeps the entry, from tomorrow drops it.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Istanbul' }).format(t.clock.now());
    await page.getByLabel('From', { exact: true }).fill(today);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('tr[data-operation]').count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('audit.csv');
    const csv = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('time,operation,outcome,token_id,token_name,role,request_id,workspace_id,variables,person_id,session_id,address');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(',revokeAccessToken,done,');
    // A filter that matches nothing says so.
    await page.getByLabel('Operation', { exact: true }).selectOption({ label: 'Refund' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.locator('main .empty').textContent()).toBe('Nothing matches this filter; change it and try again.');
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
    const mine = page.locator('tr[data-token="Sahip masası"]');
    expect(await mine.locator('[data-field="role"] .badge').textContent()).toBe('Sahip');
    expect(await mine.locator('[data-field="role"]').getAttribute('data-label')).toBe('Rol');
    expect(await mine.locator('[data-field="state"] .badge').textContent()).toBe('Etkin');
    expect(await mine.textContent()).toMatch(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}/);
    expect(await mine.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    expect(await page.locator('main').textContent()).toContain('Saatler Europe/Istanbul saat diliminde.');
    // A bad lifetime: its message under its field, in Turkish, once; nothing created.
    await page.getByLabel('Ad').fill('Gece vardiyası');
    await page.getByLabel(/^Geçerlilik/).fill('0');
    await page.getByRole('button', { name: 'Oluştur' }).click();
    const days = page.getByLabel(/^Geçerlilik/);
    await expect.poll(() => days.getAttribute('aria-invalid')).toBe('true');
    const dayError = (await page.locator(`[id="${await days.getAttribute('aria-describedby')}"]`).textContent())!;
    expect(dayError).toMatch(/gün/);
    expect((await page.locator('form[aria-labelledby="new-token-title"]').textContent())!.split(dayError)).toHaveLength(2);
    expect(await page.locator('[data-new-token]').count()).toBe(0);
    await days.fill('');
    await page.getByRole('button', { name: 'Oluştur' }).click();
    await expect.poll(() => page.locator('[data-new-token]').count()).toBe(1);
    await fitsWidth(page, 390);
    await shot(page, 'tokens-phone.png');
    // The navigation is folded behind the menu button on a phone.
    await page.getByRole('button', { name: 'Menü' }).click();
    await page.getByRole('link', { name: 'Denetim kaydı' }).click();
    await expect.poll(() => page.locator('tr[data-operation="createAccessToken"]').count()).toBeGreaterThan(0);
    const entry = page.locator('tr[data-operation="createAccessToken"]').first();
    expect(await entry.textContent()).toMatch(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}Erişim anahtarı oluşturmacreateAccessTokenYapıldı/);
    expect(await entry.locator('[data-field="outcome"]').getAttribute('data-label')).toBe('Sonuç');
    // The role reads as a badge.
    expect(await entry.locator('[data-field="role"] .badge').textContent()).toBe('Sahip');
    await fitsWidth(page, 390);
    await shot(page, 'audit-phone.png');
    expect(problems).toEqual([]);
  });

  it('at phone width a page of 20 entries with large inputs stays compact, and the panel shows what each sent, value by value', async () => {
    const m = await seed();
    const owner = await createAccessToken(db(), m.team, 'Bulk desk');
    const token = await db().accessToken.findFirstOrThrow({ where: { name: 'Bulk desk', workspaceId: m.workspaceId } });
    // A payment link of twelve items, each with a long description: some 2 kB of input per entry.
    const input = (n: number) => ({
      input: {
        paymentLink: {
          channelToken: m.channelToken, reference: `BULK-LINK-${n}`, currency: 'TRY', description: 'Toplu sipariş bağlantısı, uzun bir açıklama ile birlikte gönderildi',
          items: Array.from({ length: 12 }, (_, i) => ({ name: `Ürün ${i + 1} — seramik kupa, el yapımı, 350 ml`, unitAmount: `${10 + i}.50`, quantity: i + 1, description: 'Bulaşık makinesinde yıkanabilir; her parça biraz farklıdır.' })),
        },
      },
    });
    for (let n = 1; n <= 20; n += 1) {
      await recordAudit(db(), { workspaceId: m.workspaceId, token: { id: token.id, name: token.name, role: token.role }, requestId: `req-bulk-${n}`, operation: 'createPaymentLink', outcome: 'done', variables: input(n), at: new Date(t.clock.now().getTime() + n * 1000) });
    }
    const { page, problems } = await open(390, 844, { token: owner, path: 'audit' });
    const rows = page.locator('tr[data-operation="createPaymentLink"]');
    // The first screen of a fresh page loads the whole bundle: on a busy machine that takes a while.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(20);
    await fitsWidth(page, 390);
    // Every row a card of bounded height: the input is one clipped line, not the whole JSON.
    const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThanOrEqual(300);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(6_500);
    const newest = rows.first();
    expect(await newest.locator('[data-field="sent"]').getAttribute('data-label')).toBe('Gönderilen');
    expect(await newest.locator('[data-field="sent"] button').textContent()).toMatch(/^Ayrıntılar \(52 alan\)/);
    expect(await newest.locator('.sent-preview').textContent()).toContain('reference: BULK-LINK-20');
    expect(await newest.locator('[data-field="sent"]').textContent()).not.toContain('{');
    await shot(page, 'audit-bulk-phone.png');

    // The panel: each value under its path, inside the phone's width, closed by its button.
    await newest.locator('[data-field="sent"] button').click();
    const panel = page.getByRole('dialog', { name: 'Gönderilenler: Ödeme linki oluşturma' });
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await panel.textContent()).toContain('req-bulk-20');
    const lines = new Map(await panel.locator('[data-field="sent"] > div').evaluateAll((divs) => divs.map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent] as const)));
    expect(lines.size).toBe(52);
    expect(lines.get('input.paymentLink.reference')).toBe('BULK-LINK-20');
    expect(lines.get('input.paymentLink.items[0].name')).toBe('Ürün 1 — seramik kupa, el yapımı, 350 ml');
    expect(lines.get('input.paymentLink.items[11].unitAmount')).toBe('21.50');
    expect(lines.get('input.paymentLink.items[11].description')).toBe('Bulaşık makinesinde yıkanabilir; her parça biraz farklıdır.');
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await fitsWidth(page, 390);
    await shot(page, 'audit-sent-panel-phone.png');
    expect(await axeViolations(page)).toEqual([]);
    await panel.getByRole('button', { name: 'Kapat' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a viewer's menu has neither screen", async () => {
    const m = await seed();
    const viewer = await createAccessToken(db(), m.team, 'Only reads', { role: 'viewer' });
    const { page } = await open(1280, 900, { token: viewer, locale: 'en-GB' });
    await expect.poll(() => page.getByRole('link', { name: 'Payments' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Access tokens' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Audit trail' }).count()).toBe(0);
  });

  it("a viewer who opens the screens' addresses gets the refusal as an error with a retry, after a loading state", async () => {
    const m = await seed();
    const viewer = await createAccessToken(db(), m.team, 'Reader', { role: 'viewer' });
    const { page, problems } = await open(1280, 900, { token: viewer, locale: 'en-GB', path: 'tokens' });
    // Hold the tokens query a moment (it still reaches the gateway): the screen says it is loading meanwhile.
    let held = 0;
    await page.route('**/graphql**', async (route) => {
      // urql sends queries as GET (the document in the address), mutations as POST.
      if (new URL(route.request().url()).searchParams.get('query')?.startsWith('query AccessTokens')) {
        held += 1;
        await new Promise((r) => setTimeout(r, 800));
      }
      await route.continue();
    });
    await page.reload();
    const busy = page.locator('section[aria-labelledby="tokens-title"] [aria-busy="true"]');
    await expect.poll(() => busy.count()).toBe(1);
    expect(await busy.textContent()).toBe('Loading…');
    const error = page.locator('main .error-state');
    await expect.poll(() => error.count()).toBe(1);
    expect(await error.textContent()).toContain('Could not load this');
    expect(await error.textContent()).toMatch(/viewer/);
    expect(await page.locator('main form').count()).toBe(0);
    await error.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => held).toBeGreaterThanOrEqual(2);
    // A held query may still be waiting: let it go on before the next navigation cancels it, or its
    // handler's continue() finds the request gone ("Route is already handled").
    await page.unrouteAll({ behavior: 'wait' });
    await page.goto(`${t.gateway.baseUrl}/dashboard/audit`);
    await expect.poll(() => page.locator('main .error-state').count()).toBe(1);
    expect(await page.locator('main .error-state button').textContent()).toBe('Try again');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('an operator finds the tokens of its reach and makes one within its role; no revoke, no audit trail', async () => {
    const m = await seed();
    await createAccessToken(db(), m.team, 'The owner');
    await createAccessToken(db(), m.team, 'CI robot', { role: 'developer' });
    await createAccessToken(db(), m.team, 'Report reader', { role: 'viewer' });
    const operator = await createAccessToken(db(), m.team, 'Refund desk', { role: 'operator' });
    const { page, problems } = await open(1280, 900, { token: operator, locale: 'en-GB' });
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await expect.poll(() => page.locator('tr[data-token="Refund desk"]').count()).toBe(1);
    expect(await page.locator('tr[data-token]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-token')).sort())).toEqual(['Refund desk', 'Report reader']);
    expect(await page.getByRole('link', { name: 'Audit trail' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    const roleSelect = page.locator('form[aria-labelledby="new-token-title"] select');
    expect(await roleSelect.locator('option').allTextContents()).toEqual(['Operator', 'Viewer']);
    await page.getByLabel('Name').fill('Night shift');
    await roleSelect.selectOption('viewer');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('[data-new-token]').count()).toBe(1);
    await expect.poll(() => page.locator('tr[data-token="Night shift"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('support staff read the tokens with no create or revoke control', async () => {
    const m = await seed();
    await createAccessToken(db(), m.team, 'Shop owner');
    const support = await createAccessToken(db(), null, 'Support desk');
    const { page, problems } = await open(1280, 900, { token: support, locale: 'en-GB', path: 'tokens' });
    await expect.poll(() => page.locator('tr[data-token="Shop owner"]').count()).toBe(1);
    expect(await page.locator('tr[data-token="Support desk"] [data-field="role"] .badge').textContent()).toBe('Support');
    expect(await page.locator('main button').count()).toBe(0);
    expect(await page.locator('main form').count()).toBe(0);
    expect(await page.locator('thead').textContent()).not.toContain('Actions');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
