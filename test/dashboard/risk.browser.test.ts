// The Risk screen in Chromium. An owner writes a rule in the editor (the sentence shows as it is
// typed; a value the API refuses shows under its field), tests it on the last 90 days of payments
// before saving, saves it, turns it off, orders two rules, adds and removes a list entry, reads the
// attempts the decision stopped with their reasons and the source the guard blocked, and blocks a
// payment's card from its page (its fingerprint is listed, the page never sends a number). A
// viewer at phone width reads the same screen without a button that changes anything; axe finds
// nothing at either width. The overview counts the stopped attempts per rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { axeViolations } from '../helpers/axe.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { testCardNumber } from '../helpers/cards.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { addListEntry } from '../../src/domain/risk/lists.ts';

warnIfNoChromium('risk.browser.test.ts');

const { t, merchant: m, open } = useDashboard();
const db = () => t.gateway.services.db;
let ref = 1;
const seeded = { big: '', listed: '' };

async function pay(amount: string, ip: string, card: string = CARDS.approved, operation: 'regular-payment' | 'secure-payment' = 'regular-payment') {
  const res = await m.call(operation, paymentBody(m, { transaction: { channel_reference: `RISK-UI-${ref++}`, amount, ip }, card: { number: card } }));
  expect(res.status, res.text).toBe(200);
  return { token: res.body.transaction.token as string, code: res.body.result.error_code as string | undefined };
}

beforeAll(async () => {
  await db().workspace.update({ where: { id: m.workspaceId }, data: { riskGuard: true } });
  await t.gateway.admission.synced();
  seeded.big = (await pay('6000.00', '192.0.2.200')).token;
  await pay('100.00', '192.0.2.201');
  const workspace = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  await addListEntry(t.gateway.services, workspace, { list: 'block', kind: 'ip', value: '192.0.2.0/28', note: 'seen testing' });
  // A list change reaches the gateway's remembered workspace row as every setting does, announced.
  await t.gateway.admission.synced();
  const listed = await pay('1.00', '192.0.2.9');
  expect(listed.code).toBe('blocked');
  seeded.listed = listed.token;
  for (let i = 0; i < 5; i++) await pay('1.00', '198.51.100.77', testCardNumber(900 + i), 'secure-payment');
});

describe.skipIf(!haveChromium)('the Risk screen in Chromium', { timeout: 180_000 }, () => {
  it('an owner writes, tests, saves, switches and orders rules, keeps the lists, reads what was stopped and blocks a card from its payment', async () => {
    const { page, problems } = await open(1280, 900, { locale: 'en-GB' });
    // The overview counts the stopped attempts per rule.
    await expect.poll(() => page.locator('#overview-risk').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('#overview-risk ~ * tr[data-rule]').evaluateAll((rows) => rows.map((r) => r.textContent))).toEqual(['block_list_ip1', 'ip_cards1']);
    await page.getByRole('link', { name: 'Risk' }).click();
    expect(page.url()).toBe(`${t.gateway.baseUrl}/dashboard/risk`);
    await expect.poll(() => page.locator('main').textContent()).toContain('No rules yet');

    // What was stopped, with its reasons, and the address the guard blocked.
    await expect.poll(() => page.locator(`tr[data-stopped="${seeded.listed}"] [data-field="reasons"]`).textContent()).toBe('block_list_ip');
    expect(await page.locator('tr[data-source="198.51.100.77"]').textContent()).toContain('ip_cards');
    expect(await page.locator('tr[data-entry="192.0.2.0/28"]').textContent()).toContain('seen testing');

    // The editor: the sentence as typed, a refused value under its field, nothing saved.
    const form = page.locator('form.risk-rule-form');
    await form.getByLabel('Rule name').fill('Big amounts');
    await form.locator('[data-condition="0"] select').first().selectOption('amount');
    await form.locator('[data-condition="0"] input').fill('5000 TL');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => form.locator('[data-field-name="conditions.0.value"] .field-error').textContent()).toBe('Must be a whole number (amounts in minor units).');
    expect(await db().riskRule.count({ where: { workspaceId: m.workspaceId } })).toBe(0);
    await form.locator('[data-condition="0"] input').fill('5000');
    expect(await form.locator('[data-field="preview"]').textContent()).toBe('The rule reads: Block when the amount is at least 5,000.00');

    // Tested on the last 90 days before it is saved: one payment of the seeded ones, which succeeded.
    await form.locator('select[name="testDays"]').selectOption('90');
    await form.getByRole('button', { name: 'Test on past attempts' }).click();
    await expect.poll(() => form.locator('[data-field="testAnswer"]').textContent()).toMatch(/^Of \d+ payments in the last 90 days, the rule would have fired on 1; 1 of them succeeded\.$/);
    expect(await form.locator(`.risk-matched a[href="/dashboard/payments/${seeded.big}"]`).count()).toBe(1);

    await form.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => page.locator('tr[data-rule="Big amounts"] [data-field="sentence"]').textContent()).toBe('Block when the amount is at least 5,000.00');
    expect(await db().riskRule.findFirstOrThrow({ where: { workspaceId: m.workspaceId } })).toMatchObject({ name: 'Big amounts', outcome: 'block', enabled: true, conditions: [{ field: 'amount', operator: 'gte', value: 500000 }] });

    // Off, then a second rule moved above it.
    await page.getByRole('button', { name: 'Turn off Big amounts' }).click();
    await expect.poll(() => page.locator('tr[data-rule="Big amounts"] [data-field="enabled"]').textContent()).toBe('Off');
    expect((await db().riskRule.findFirstOrThrow({ where: { name: 'Big amounts', workspaceId: m.workspaceId } })).enabled).toBe(false);
    await form.getByLabel('Rule name').fill('Test domains');
    await form.getByLabel('Outcome').selectOption('require_3ds');
    await form.locator('[data-condition="0"] select').first().selectOption('email_domain');
    await form.locator('[data-condition="0"] select').nth(1).selectOption('in');
    await form.locator('[data-condition="0"] input').fill('mailinator.com, example.net');
    await form.getByRole('button', { name: 'Save rule' }).click();
    await expect.poll(() => page.locator('tr[data-rule="Test domains"] [data-field="sentence"]').textContent()).toBe('Require 3-D Secure when the e-mail’s domain is one of mailinator.com, example.net');
    await page.getByRole('button', { name: 'Move up Test domains' }).click();
    await expect.poll(async () => (await db().riskRule.findMany({ where: { workspaceId: m.workspaceId }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] })).map((r) => r.name)).toEqual(['Test domains', 'Big amounts']);
    await expect.poll(() => page.locator('tr[data-rule]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-rule')))).toEqual(['Test domains', 'Big amounts']);

    // Lists: add an e-mail domain, remove it after confirming.
    const entry = page.locator('form.risk-entry-form');
    await entry.getByLabel('Kind').selectOption('domain');
    await entry.getByLabel('Value').fill('Mailinator.com');
    await entry.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.locator('tr[data-entry="mailinator.com"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Remove mailinator.com' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('tr[data-entry="mailinator.com"]').count()).toBe(0);
    expect(await db().riskListEntry.count({ where: { workspaceId: m.workspaceId, kind: 'domain' } })).toBe(0);

    // Block this card from its payment's page: the fingerprint is listed; no request carries the number.
    const sent: string[] = [];
    page.on('request', (r) => void (r.postData() && sent.push(r.postData()!)));
    await page.goto(`${t.gateway.baseUrl}/dashboard/payments/${seeded.big}`);
    await page.getByRole('button', { name: 'Block this card' }).click();
    await expect.poll(() => page.locator('.block-card [role="status"]').textContent()).toBe('The card is on the block list.');
    const card = await db().riskListEntry.findFirstOrThrow({ where: { workspaceId: m.workspaceId, kind: 'card' } });
    expect(card).toMatchObject({ list: 'block' });
    expect(card.value).not.toContain(CARDS.approved);
    expect(sent.some((b) => b.includes(CARDS.approved))).toBe(false);
    // The same card is now blocked.
    expect((await pay('10.00', '192.0.2.210')).code).toBe('blocked');

    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${t.gateway.baseUrl}/dashboard/risk`);
    await expect.poll(() => page.locator('tr[data-rule]').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a viewer at phone width reads rules, lists and stopped attempts, with nothing to change; the screen fits and passes axe', async () => {
    const viewer = await createAccessToken(db(), m.team, 'Risk viewer', { role: 'viewer' });
    const { page, problems } = await open(390, 844, { token: viewer, locale: 'tr-TR', path: 'risk' });
    await expect.poll(() => page.locator(`tr[data-stopped="${seeded.listed}"]`).count()).toBe(1);
    await expect.poll(() => page.locator('tr[data-rule]').count()).toBe(2);
    expect(await page.locator('tr[data-rule="Big amounts"] [data-field="sentence"]').textContent()).toBe('tutar en az 5.000,00 ise engelle');
    expect(await page.locator('[data-field="readOnly"]').textContent()).toBe('Kuralları ve listeleri yalnızca sahipler ve geliştiriciler değiştirebilir.');
    expect(await page.locator('main').getByRole('button', { name: /Kapat|Aç|Sil|Kaldır|Kuralı kaydet|Ekle$/ }).count()).toBe(0);
    expect(await page.locator('form.risk-entry-form').count()).toBe(0);
    // The tester reads, so a viewer may try conditions.
    await page.locator('form.risk-rule-form [data-condition="0"] input').fill('5000');
    await page.getByRole('button', { name: 'Geçmiş denemelerde dene' }).click();
    await expect.poll(() => page.locator('[data-field="testAnswer"]').textContent()).toContain('Son 30 günün');
    await fitsWidth(page, 390);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
