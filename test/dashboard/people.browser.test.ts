// People in Chromium, at phone width (390 px): the first owner opens an invitation link, sets a
// password, signs in with e-mail and password (a cookie session, no token in the page), finds the
// team screen, invites someone, and sees their own session; no serious or critical axe violation
// on any of these screens. A wrong password is answered without saying which field was wrong.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { axeViolations } from '../helpers/axe.ts';
import { createInvitation } from '../../src/domain/people/members.ts';

warnIfNoChromium('people.browser.test.ts');

const { t, state, seed } = useDashboard();
const db = () => t.gateway.services.db;

async function seriousViolations(page: import('playwright-core').Page): Promise<string[]> {
  return (await axeViolations(page)).filter((v) => /\((serious|critical)\)/.test(v));
}

describe.skipIf(!haveChromium)('people in Chromium', { timeout: 120_000 }, () => {
  it('invitation accepted → sign-in → team screen, on a phone', async () => {
    const m = await seed({ slug: 'people-ui' });
    const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: m.team } });
    const { link } = await createInvitation(t.gateway.services, workspace, { label: 'test', role: 'owner' }, { email: 'owner@people.example', role: 'owner' });
    const context = await state.browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-GB' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
    });

    await page.goto(link);
    await expect.poll(() => page.locator('main').textContent()).toContain('owner@people.example');
    expect(page.url()).not.toContain('#invitation'); // the link's token leaves the address bar
    expect(await seriousViolations(page)).toEqual([]);
    await fitsWidth(page, 390);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the password and join' }).click();
    await expect.poll(() => page.locator('.field-error').textContent()).toContain('10 to 200 characters');
    await page.getByLabel('New password').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Set the password and join' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('You joined');

    // A wrong password: one answer for both fields.
    await page.getByLabel('E-mail').fill('owner@people.example');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('The e-mail or the password is wrong.');
    expect(await seriousViolations(page)).toEqual([]);
    await fitsWidth(page, 390);
    await shot(page, 'people-signin-phone.png');

    await page.getByLabel('Password').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.locator('header').textContent()).toContain(workspace.name);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'gw_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe(''); // the page's scripts never see it

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Team' }).click();
    await expect.poll(() => page.locator('tr[data-member="owner@people.example"]').count()).toBe(1);
    await page.getByLabel('E-mail').fill('colleague@people.example');
    await page.locator('select[name="role"]').selectOption('operator');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect.poll(() => page.locator('tr[data-invitation="colleague@people.example"]').count()).toBe(1);
    expect(await db().invitation.count({ where: { email: 'colleague@people.example', role: 'operator' } })).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await fitsWidth(page, 390);
    await shot(page, 'people-members-phone.png');
    // A pending invitation sent again (a new link) and cancelled (gone from the list, its link dead).
    const before = await db().invitation.findFirstOrThrow({ where: { email: 'colleague@people.example' } });
    await page.getByRole('button', { name: 'Send again colleague@people.example' }).click();
    await expect.poll(async () => (await db().invitation.findFirstOrThrow({ where: { id: before.id } })).tokenHash).not.toBe(before.tokenHash);
    await page.getByRole('button', { name: 'Cancel invitation colleague@people.example' }).click();
    await expect.poll(() => page.locator('tr[data-invitation="colleague@people.example"]').count()).toBe(0);
    expect(await db().invitation.count({ where: { email: 'colleague@people.example' } })).toBe(0);

    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'My sessions' }).click();
    await expect.poll(() => page.locator('tr[data-session="current"]').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await fitsWidth(page, 390);

    // The audit trail names the person (and the address) and filters by person.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await expect.poll(() => page.locator('tr[data-operation="inviteMember"]').count()).toBe(1);
    expect(await page.locator('tr[data-operation="inviteMember"] [data-field="who"]').textContent()).toBe('owner@people.example127.0.0.1');
    await page.getByLabel('Person').selectOption({ label: 'owner@people.example' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await page.locator('tr[data-operation]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-operation')))).sort()).toEqual(['acceptInvitation', 'cancelInvitation', 'inviteMember', 'resendInvitation', 'signIn', 'signIn']);
    expect(await page.locator('tr[data-operation="signIn"] [data-field="outcome"]').allTextContents()).toEqual(expect.arrayContaining(['Done', 'Wrong password']));
    expect(await seriousViolations(page)).toEqual([]);
    await fitsWidth(page, 390);
    const entry = await db().auditEntry.findFirstOrThrow({ where: { workspaceId: workspace.id, operation: 'inviteMember' } });
    expect(entry).toMatchObject({ tokenName: 'owner@people.example', tokenId: null, outcome: 'done' });
    // A member of a second workspace picks it in the header; the session acts there from then on.
    const other = await seed({ slug: 'people-ui-2' });
    const otherWorkspace = await db().workspace.update({ where: { slug: other.team }, data: { name: 'Second shop' } });
    const person = await db().person.findUniqueOrThrow({ where: { email: 'owner@people.example' } });
    await db().membership.create({ data: { personId: person.id, workspaceId: otherWorkspace.id, role: 'viewer' } });
    await page.reload();
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('select[name="person-workspace"]').selectOption('people-ui-2');
    await expect.poll(() => page.locator('header strong').first().textContent()).toContain('Second shop');
    expect(problems).toEqual([]);
    await context.close();
  });
});
