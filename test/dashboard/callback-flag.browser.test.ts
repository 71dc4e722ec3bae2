// An account whose 3-D Secure callbacks keep failing their signature is flagged in the settings
// page, in Chromium: "check the store key", how many were rejected and the connector's reason. The
// rejections are real: callbacks the account's connector refused, posted to a payment's address.
import { describe, expect, it } from 'vitest';
import { haveChromium, warnIfNoChromium } from '../helpers/browser.ts';
import { useDashboard } from '../helpers/dashboard.ts';
import { paymentBody, postCallback } from '../helpers/payments.ts';

warnIfNoChromium('callback-flag.browser.test.ts');

const { t, merchant: m, open } = useDashboard();

/** A started 3D payment whose page was opened; `n` callbacks that are not the provider's posted to its address. */
async function rejectCallbacks(n: number): Promise<void> {
  const res = await m.call('secure-payment', paymentBody(m, { transaction: { channel_reference: `FLAG-${n}` } }));
  expect(res.status, res.text).toBe(200);
  expect((await fetch(res.body.result.redirect_url as string)).status).toBe(200);
  for (let i = 0; i < n; i++) expect((await postCallback(`${t.gateway.baseUrl}/checkout/3ds/callback/${res.body.transaction.token as string}`, { forged: 'yes' })).status).toBe(400);
}

describe.skipIf(!haveChromium)('the store key flag in Chromium', { timeout: 120_000 }, () => {
  it('no rejection: no flag; three signature mismatches: "check the store key" with the count and the reason (desktop, English)', async () => {
    const first = await open(1280, 900, { locale: 'en-GB', path: 'settings' });
    const row = first.page.locator(`tr:has(code:text-is("${m.accountToken}"))`);
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('[data-field="callbackVerification"]').count()).toBe(0);
    await first.page.context().close();

    await rejectCallbacks(3);

    const { page, problems } = await open(1280, 900, { locale: 'en-GB', path: 'settings' });
    const flagged = page.locator(`tr:has(code:text-is("${m.accountToken}"))`);
    await expect.poll(() => flagged.locator('[data-field="storeKeySuspect"]').textContent()).toMatch(/^Check the store key/);
    expect(await flagged.locator('[data-field="recentRejections"]').textContent()).toBe('3');
    expect(await flagged.locator('[data-field="lastReason"]').textContent()).toBe('signature');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
