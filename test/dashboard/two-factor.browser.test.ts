// Two-factor authentication in Chromium at phone width (390 px): a person enrols from the Security
// screen (QR code and typed secret; the test computes the code from the secret with the RFC 6238
// implementation test/people/totp.test.ts checks against the RFC's vectors), a wrong code is
// refused, the recovery codes are shown once, a refund some minutes later asks for a fresh code in
// a dialog and runs once it is given, and the next sign-in asks for the code; where the workspace
// requires it, a member without it sees only the Security screen until set up. No serious or
// critical axe violation on these screens, and nothing wider than the phone.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { axeViolations } from '../helpers/axe.ts';
import { paymentBody } from '../helpers/payments.ts';
import { acceptInvitation, createInvitation } from '../../src/domain/people/members.ts';
import { base32Decode, totp } from '../../src/domain/people/totp.ts';
import { STEP_UP_MINUTES } from '../../src/domain/people/two-factor.ts';

warnIfNoChromium('two-factor.browser.test.ts');

const { t, state, seed } = useDashboard();
const db = () => t.gateway.services.db;
const PASSWORD = 'a long enough passphrase';
const EMAIL = 'owner@2fa-ui.example';

async function seriousViolations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).filter((v) => /\((serious|critical)\)/.test(v));
}

async function phoneReady(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  await fitsWidth(page, 390);
  await shot(page, name);
}

/** The code the authenticator app shows at the gateway's time; the clock moves a step first (a code works once). */
function codeOf(secret: string): string {
  t.clock.advance(30_000);
  return totp(base32Decode(secret), t.clock.now().getTime());
}

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe.skipIf(!haveChromium)('two-factor authentication in Chromium', { timeout: 180_000 }, () => {
  it('enrolment with a computed code, a wrong code refused, a refund asking for a fresh code, the code at sign-in; on a phone', async () => {
    const m = await seed({ slug: 'twofactor-ui' });
    const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: m.team } });
    const { link } = await createInvitation(t.gateway.services, workspace, { label: 'test', role: 'owner' }, { email: EMAIL, role: 'owner' });
    await acceptInvitation(db(), { token: decodeURIComponent(link.split('#invitation=')[1]!), password: PASSWORD }, t.clock);
    const context = await state.browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-GB' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
    });

    await page.goto(`${t.gateway.baseUrl}/dashboard/`);
    await signIn(page);
    await expect.poll(() => page.locator('header').textContent()).toContain(workspace.name);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secretText = page.locator('[data-field="totp-secret"]');
    await expect.poll(() => secretText.textContent()).toMatch(/^[A-Z2-7]{32}$/);
    const secret = (await secretText.textContent())!;
    expect(await page.getByRole('img', { name: /otpauth:\/\/totp\// }).count()).toBe(1);
    await phoneReady(page, 'two-factor-enrol-phone.png');

    const right = codeOf(secret);
    await page.getByLabel('Authentication code').fill(String((Number(right) + 1) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.locator('.field-error').textContent()).toContain('The authentication code is wrong or already used.');
    expect(await db().person.count({ where: { email: EMAIL, totpEnabledAt: { not: null } } })).toBe(0);
    await page.getByLabel('Authentication code').fill(right);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByRole('list', { name: 'Recovery codes' }).locator('li').count()).toBe(10);
    await phoneReady(page, 'two-factor-recovery-phone.png');
    await page.getByRole('button', { name: 'I saved them' }).click();
    await expect.poll(() => page.locator('[data-field="two-factor"]').textContent()).toBe('Two-factor authentication is on; 10 recovery codes left.');
    await phoneReady(page, 'two-factor-on-phone.png');

    // Minutes later, a refund asks for a fresh code first.
    const paid = await m.call('regular-payment', paymentBody(m, { transaction: { channel_reference: 'TWO-FACTOR-1', amount: '50.00' } }));
    expect(paid.body.result?.successful, JSON.stringify(paid.body)).toBe(true);
    const token = paid.body.transaction.token as string;
    t.clock.advance(STEP_UP_MINUTES * 60_000);
    await page.goto(`${t.gateway.baseUrl}/dashboard/payments/${token}`);
    await page.getByRole('button', { name: 'Refund all that is left (TRY\u00a050.00)' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    const dialog = page.getByRole('dialog', { name: 'Authentication code' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await db().auditEntry.count({ where: { operation: 'refundPayment', outcome: 'code_asked', tokenName: EMAIL } })).toBe(1);
    await dialog.getByLabel('Authentication code').fill('abcdef');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toBe('The authentication code is wrong or already used.');
    await phoneReady(page, 'two-factor-step-up-phone.png');
    await dialog.getByLabel('Authentication code').fill(codeOf(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field="paymentStatus"]').textContent()).toBe('Refunded');
    expect(await dialog.count()).toBe(0);
    expect(await db().auditEntry.count({ where: { operation: 'refundPayment', outcome: 'done', tokenName: EMAIL } })).toBe(1);

    // The next sign-in asks for the code after the password.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page);
    await expect.poll(() => page.getByLabel('Authentication code (or a recovery code)').isVisible()).toBe(true);
    await phoneReady(page, 'two-factor-sign-in-phone.png');
    await page.getByLabel('Authentication code (or a recovery code)').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.locator('header').textContent()).toContain(workspace.name);
    expect(problems).toEqual([]);
    await context.close();
  });
  it('in a workspace that requires two-factor, a member without it sees only the Security screen until they set it up', async () => {
    const m = await seed({ slug: 'twofactor-required' });
    const workspace = await db().workspace.update({ where: { slug: m.team }, data: { requireTwoFactor: true } });
    const { link } = await createInvitation(t.gateway.services, workspace, { label: 'test', role: 'owner' }, { email: 'hand@2fa-ui.example', role: 'operator' });
    await acceptInvitation(db(), { token: decodeURIComponent(link.split('#invitation=')[1]!), password: PASSWORD }, t.clock);
    const context = await state.browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${t.gateway.baseUrl}/dashboard/payments`);
    await page.getByLabel('E-mail').fill('hand@2fa-ui.example');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('This workspace requires two-factor authentication: set it up below to go on.');
    const links = () => page.locator('#shell-nav a').allTextContents();
    expect(await links()).toEqual(['Security', 'My sessions']);
    await phoneReady(page, 'two-factor-required-phone.png');

    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secretText = page.locator('[data-field="totp-secret"]');
    await expect.poll(() => secretText.textContent()).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Authentication code').fill(codeOf((await secretText.textContent())!));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'I saved them' }).click();
    await expect.poll(links).toContain('Payments');
    expect(await page.getByRole('alert').count()).toBe(0);
    await context.close();
  });
});
