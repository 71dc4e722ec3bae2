// An account's routing health in the settings page, in Chromium: a degraded account carries an
// "out of routing" badge, a probing one "on probation", a healthy one "healthy". A payment's page says
// why its account took it: a cascade names the account that failed.
import { describe, expect, it } from 'vitest';
import { haveChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { useDashboard } from '../helpers/dashboard.ts';
import { createPaymentAccount } from '../../src/domain/workspaces.ts';
import { paymentBody } from '../helpers/payments.ts';

warnIfNoChromium('account-health.browser.test.ts');

const { t, merchant: m, open } = useDashboard();
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('account health badges in Chromium', { timeout: 120_000 }, () => {
  it('degraded, probing and healthy accounts each carry their badge (desktop, English)', async () => {
    const probing = await createPaymentAccount(db(), m.team, { name: 'Probing bank' });
    await db().paymentAccount.update({ where: { id: m.accountToken }, data: { health: 'degraded', healthChangedAt: t.clock.now() } });
    await db().paymentAccount.update({ where: { id: probing.id }, data: { health: 'probing', healthProbesLeft: 2, healthChangedAt: t.clock.now() } });
    const healthy = await createPaymentAccount(db(), m.team, { name: 'Healthy bank' });

    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'settings' });
    const row = (id: string) => page.locator(`tr:has(code:text-is("${id}"))`);
    await expect.poll(() => row(m.accountToken).locator('[data-health] .badge').textContent()).toBe('Out of routing (failing)');
    expect(await row(probing.id).locator('[data-health] .badge').textContent()).toBe('On probation');
    expect(await row(healthy.id).locator('[data-health]').textContent()).toBe('Healthy');
    // Colours repeat the words: danger for out of routing, warning for probation.
    expect(await row(m.accountToken).locator('[data-health] .badge').getAttribute('data-tone')).toBe('danger');
    expect(await row(probing.id).locator('[data-health] .badge').getAttribute('data-tone')).toBe('warning');
    // Since when, in the workspace's zone.
    expect(await row(m.accountToken).locator('[data-field="healthSince"]').textContent()).toMatch(/^ since \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} \(Europe\/Istanbul\)$/);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a payment cascaded after a technical failure says so on its page (phone, Turkish)', async () => {
    await db().paymentAccount.update({ where: { id: m.accountToken }, data: { health: 'healthy', settings: { outage: 'errors' } } });
    await t.gateway.admission.synced();
    const res = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'DASH-CASCADE-1' } }));
    const token = res.body.transaction.token as string;
    // The first test's other accounts are live: the cascade takes the oldest of them.
    const paid = await db().payment.findUniqueOrThrow({ where: { id: token } });
    expect(paid).toMatchObject({ status: 'successful', routingReason: 'fallback', attemptNumber: 2 });
    expect(paid.paymentAccountId).not.toBe(m.accountToken);

    const { page, problems } = await open(390, 844, { path: `payments/${token}` });
    await expect.poll(() => page.locator('[data-field="routing"]').textContent()).toBe(`Yedek hesap: ${m.accountToken} hesabı teknik hata verdi`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
