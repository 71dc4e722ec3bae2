// Routing by cost on the settings screen in Chromium: a commission table set on an account from
// its Costs form (a bad rate shown by its input, nothing written), then "Which account would take
// this card?" answering with the cheaper account first, as a payment then charges it.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { useDashboard } from '../helpers/dashboard.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addRoutingRule, createPaymentAccount } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

warnIfNoChromium('routing.browser.test.ts');

const { t, open, seed } = useDashboard();
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('routing by cost in Chromium', { timeout: 120_000 }, () => {
  it('sets a cost table from the form and the preview names the cheaper account, which then charges', async () => {
    const m = await seed();
    const bank = await createPaymentAccount(db(), m.team, { name: 'Bank', currencies: ['TRY'] });
    await addRoutingRule(db(), m.team, { paymentAccountId: m.accountToken });
    await addRoutingRule(db(), m.team, { paymentAccountId: bank.id });
    await db().accountCost.create({ data: { workspaceId: m.workspaceId, paymentAccountId: m.accountToken, installmentCounts: [1], commissionBp: [250] } });
    const token = await createAccessToken(db(), m.team, 'routing preview');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    const row = page.locator('tr[data-account="Bank"]');
    await expect.poll(() => row.locator('[data-field="costs"]').textContent()).toBe('no cost set');

    await row.locator('summary', { hasText: 'Costs' }).click();
    const form = page.getByRole('form', { name: 'Costs: Bank' });
    // A bad rate: shown by its input, nothing written
    const one = form.getByLabel('1 installments', { exact: true });
    await one.fill('1.799');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => one.getAttribute('aria-invalid')).toBe('true');
    expect(await db().accountCost.count({ where: { paymentAccountId: bank.id } })).toBe(0);

    await one.fill('1.79');
    await form.getByLabel('Fixed fee').fill('0.25');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('[data-field="costs"]').textContent()).toBe('any card: 1 × 1.79% + 0.25');

    const preview = page.getByRole('form', { name: 'Which account would take this card?' });
    await preview.getByLabel('Card BIN').fill('41111111');
    await preview.getByRole('button', { name: 'Ask' }).click();
    const first = page.locator('tr[data-candidate]').first();
    await expect.poll(() => first.getAttribute('data-candidate')).toBe('Bank');
    expect(await first.locator('[data-field="reason"] .badge').textContent()).toBe('Cheapest');
    // Amounts in the asked currency, as English writes them.
    const spaced = (s: string | null) => s?.replace(/\s/g, ' ');
    expect(spaced(await first.locator('[data-field="cost"]').textContent())).toBe('TRY 2.04 (1.79% + TRY 0.25)');
    expect(spaced(await page.locator('tr[data-candidate="Simulator"] [data-field="cost"]').textContent())).toBe('TRY 2.50 (2.50% + TRY 0.00)');

    await t.gateway.admission.synced();
    const paid = await m.call('regular-payment', paymentBody(m));
    expect((await db().payment.findUniqueOrThrow({ where: { id: paid.body.transaction.token } })).paymentAccountId).toBe(bank.id);
    await shot(page, 'dashboard-settings-route-preview.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
