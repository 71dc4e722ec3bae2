// The webhooks screen's developer tools in Chromium, against a real receiver on 127.0.0.1: the new
// address's signing secret shown once, "Send test event" showing the receiver's answer and time
// (a 503 shown as such), "Rotate signing secret" with an overlap showing the new secret and until
// when the previous one signs, what the gateway then sends; a viewer and an operator get neither
// button. Axe clean at 1366 and 390 px; nothing scrolls sideways on the phone.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { axeViolations } from '../helpers/axe.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { signTimestamped } from '../../src/domain/signatures.ts';

warnIfNoChromium('webhook-tools.browser.test.ts');

const { t, merchant: m, receiver: r, open } = useDashboard({ receiver: true });
const db = () => t.gateway.services.db;
const NIL = '00000000-0000-0000-0000-000000000000';

describe.skipIf(!haveChromium)('webhook address tools in Chromium', { timeout: 120_000 }, () => {
  it('a developer sees the secret once, sends a test event and rotates the secret with an overlap (1366 px)', async () => {
    const developer = await createAccessToken(db(), m.team, 'tools developer', { role: 'developer' });
    const { page, problems } = await open(1366, 900, { token: developer, locale: 'en-GB', path: 'webhooks' });
    const url = `${r.url}/hooks/tools`;
    await page.getByLabel('URL').fill(url);
    await page.getByLabel('order.paid').check();
    await page.getByLabel('transaction.failed').check();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const first = (await page.locator('[data-field="newSigningSecret"]').textContent({ timeout: 10_000 }))!;
    expect(first).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await page.getByRole('region', { name: 'New signing secret' }).textContent()).toContain('shown only now');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Stored it, hide' }).click();
    expect(await page.locator('[data-field="newSigningSecret"]').count()).toBe(0);

    // Send a test of a chosen kind: the receiver gets it signed, the screen shows its answer.
    const row = page.locator(`tr[data-address="${url}"]`);
    await row.getByRole('button', { name: `Send test event ${url}` }).click();
    expect(await page.locator('select[name="testEvent"] option').allTextContents()).toEqual(['order.paid', 'transaction.failed']);
    await page.locator('select[name="testEvent"]').selectOption('transaction.failed');
    r.respondWith(200, 30);
    const before = r.requests.length;
    await page.getByRole('button', { name: 'Send test event', exact: true }).click();
    const answer = page.locator('[data-field="testAnswer"]');
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toMatch(/^Receiver answered: HTTP 200 · ok \((\d+) ms\)$/);
    expect(Number(/\((\d+) ms\)/.exec((await answer.textContent())!)![1])).toBeGreaterThanOrEqual(30);
    expect(r.requests.length).toBe(before + 1);
    const sent = r.requests.at(-1)!;
    expect(JSON.parse(sent.body)).toMatchObject({ event: 'transaction.failed', transaction: { token: NIL } });
    const ts = String(sent.headers['x-timestamp']);
    expect(sent.headers['x-webhook-signature']).toBe(`t=${ts},v1=${signTimestamped(first, ts, 'POST', '/hooks/tools', sent.body)}`);
    expect(await axeViolations(page)).toEqual([]);
    r.respondWith(503);
    await page.getByRole('button', { name: 'Send test event', exact: true }).click();
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toMatch(/^Receiver answered: HTTP 503 · ok \(\d+ ms\)$/);
    r.respondWith(200);
    expect(await db().notification.count({ where: { url } })).toBe(0);

    // Rotate with a 2-hour overlap: the new secret once, and until when the previous one signs.
    await row.getByRole('button', { name: `Rotate signing secret ${url}` }).click();
    await page.getByLabel('Overlap (hours)').fill('200');
    await page.getByRole('button', { name: 'Rotate signing secret', exact: true }).click();
    await expect.poll(() => page.locator('.field[data-field-name="overlapHours"] .field-error').textContent()).toBe('The overlap must be a whole number of hours from 0 to 168.');
    await page.getByLabel('Overlap (hours)').fill('2');
    await page.getByRole('button', { name: 'Rotate signing secret', exact: true }).click();
    const second = (await page.locator('[data-field="newSigningSecret"]').textContent({ timeout: 10_000 }))!;
    expect(second).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(second).not.toBe(first);
    expect(await page.locator('[data-field="previousUntil"]').textContent()).toMatch(/^The previous secret signs too until \d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d\.$/);
    const stored = await db().webhookAddress.findFirstOrThrow({ where: { url } });
    expect(stored.previousSecretUntil!.getTime() - stored.secretRotatedAt!.getTime()).toBe(2 * 3_600_000);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'dashboard-webhook-tools-desktop.png');

    // The next test is signed with both.
    await row.getByRole('button', { name: `Send test event ${url}` }).click();
    await page.getByRole('button', { name: 'Send test event', exact: true }).click();
    await expect.poll(() => r.requests.length).toBe(before + 3);
    const both = r.requests.at(-1)!;
    const bts = String(both.headers['x-timestamp']);
    const v1 = (secret: string) => `v1=${signTimestamped(secret, bts, 'POST', '/hooks/tools', both.body)}`;
    expect(both.headers['x-webhook-signature']).toBe(`t=${bts},${v1(second)},${v1(first)}`);
    // A refused overlap changed nothing and is no entry; every change made is one, by its caller.
    const audit = async () => (await db().auditEntry.findMany({ where: { tokenName: 'tools developer' }, orderBy: { createdAt: 'asc' } })).map((e) => [e.operation, e.outcome]);
    await expect.poll(audit).toEqual([
      ['addWebhookAddress', 'done'],
      ['sendTestWebhook', 'done'],
      ['sendTestWebhook', 'done'],
      ['rotateWebhookSecret', 'done'],
      ['sendTestWebhook', 'done'],
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('on a phone the tools fit 390 px and pass axe; a viewer and an operator get neither button', async () => {
    const url = `${r.url}/hooks/tools`;
    const d = await open(390, 844, { path: 'webhooks' });
    const row = d.page.locator(`tr[data-address="${url}"]`);
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await row.getByRole('button', { name: `Test olayı gönder ${url}` }).click();
    await d.page.getByRole('button', { name: 'Test olayı gönder', exact: true }).click();
    await expect.poll(() => d.page.locator('[data-field="testAnswer"]').textContent(), { timeout: 10_000 }).toMatch(/^Alıcının yanıtı: HTTP 200/);
    await fitsWidth(d.page, 390);
    expect(await axeViolations(d.page)).toEqual([]);
    await row.getByRole('button', { name: `İmza anahtarını yenile ${url}` }).click();
    await d.page.getByRole('button', { name: 'İmza anahtarını yenile', exact: true }).click();
    await expect.poll(() => d.page.locator('[data-field="newSigningSecret"]').count()).toBe(1);
    await fitsWidth(d.page, 390);
    expect(await axeViolations(d.page)).toEqual([]);
    await shot(d.page, 'dashboard-webhook-tools-phone.png');
    expect(d.problems).toEqual([]);
    await d.page.context().close();

    for (const role of ['viewer', 'operator'] as const) {
      const token = await createAccessToken(db(), m.team, `tools ${role}`, { role });
      const v = await open(1366, 900, { token, locale: 'en-GB', path: 'webhooks' });
      await expect.poll(() => v.page.locator(`tr[data-address="${url}"]`).count(), { timeout: 15_000 }).toBe(1);
      expect(await v.page.getByRole('button', { name: /^(Send test event|Rotate signing secret)\b/ }).count()).toBe(0);
      expect(v.problems).toEqual([]);
      await v.page.context().close();
    }
  });
});
