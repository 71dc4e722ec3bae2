// The settings screen in Chromium: rotating the API key and secret (the secret shown once, the
// old key refused at once, the new pair accepted), a channel, a payment account made the default,
// a routing rule that then picks the account for a matching card, the test/live switch and the
// unknown-keys switch (the next REST call follows it). The workspace is its own: rotation would
// break the other tests' key.
import { describe, expect, it } from 'vitest';
import { haveChromium, shot, warnIfNoChromium } from '../helpers/browser.ts';
import { fitsWidth, useDashboard } from '../helpers/dashboard.ts';
import { call } from '../helpers/client.ts';
import { paymentBody } from '../helpers/payments.ts';
import { addRoutingRule } from '../../src/domain/workspaces.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { decryptSecret } from '../../src/domain/secrets.ts';

warnIfNoChromium('settings.browser.test.ts');

const { t, open, seed } = useDashboard();
const db = () => t.gateway.services.db;

describe.skipIf(!haveChromium)('settings screen in Chromium', { timeout: 120_000 }, () => {
  it('rotates the key and secret (shown once), adds a channel, an account made default and a routing rule, and switches the mode', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings test');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB' });
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.locator('[data-field="apiKey"]').textContent()).toBe(m.apiKey);

    // Rotation: nothing happens before the confirmation; then the new pair is shown once.
    await page.getByRole('button', { name: 'Rotate the key and secret' }).click();
    expect((await m.call('retrieve-bin', { bin: '41111111' })).status).not.toBe(401);
    await page.getByRole('button', { name: 'Confirm' }).click();
    const newKey = (await page.locator('[data-field="newApiKey"]').textContent())!;
    const newSecret = (await page.locator('[data-field="newApiSecret"]').textContent())!;
    expect(newKey).not.toBe(m.apiKey);
    expect(newSecret.length).toBeGreaterThan(20);
    await expect.poll(() => page.locator('[data-field="apiKey"]').textContent()).toBe(newKey);
    await t.gateway.admission.synced(); // the rotation's announcement reaches the API's memory
    expect((await m.call('regular-payment', paymentBody(m))).status).toBe(401);
    const fresh = { team: m.team, apiKey: newKey, apiSecret: newSecret };
    const paid = await call(t.gateway.baseUrl, fresh, 'regular-payment', paymentBody(m));
    expect(paid.status).toBe(200);
    expect(paid.body.result.successful).toBe(true);
    await page.getByRole('button', { name: 'Stored it, hide' }).click();
    expect(await page.locator('[data-field="newApiSecret"]').count()).toBe(0);
    expect(await page.content()).not.toContain(newSecret);

    // A channel.
    await page.getByLabel('Channel name').fill('Mağaza 2');
    await page.getByRole('button', { name: 'Add a channel' }).click();
    await expect.poll(() => page.locator('[data-channel="Mağaza 2"]').count()).toBe(1);
    expect(await db().channel.count({ where: { workspaceId: m.workspaceId, name: 'Mağaza 2' } })).toBe(1);

    // A payment account for TRY and USD, made the default.
    await page.getByLabel('Account name').fill('Sim ikinci');
    await page.getByRole('checkbox', { name: 'USD' }).check();
    await page.getByRole('checkbox', { name: 'Make default' }).check();
    await page.getByRole('button', { name: 'Add a payment account' }).click();
    await expect.poll(() => page.locator('tr[data-account="Sim ikinci"] [data-field="isDefault"]').count()).toBe(1);
    const second = await db().paymentAccount.findFirstOrThrow({ where: { workspaceId: m.workspaceId, name: 'Sim ikinci' } });
    expect(second).toMatchObject({ currencies: ['TRY', 'USD'], conversion: false, secure: true, provider: 'simulator' });
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).defaultPaymentAccountId).toBe(second.id);
    // And the first one back as the default.
    await page.getByRole('button', { name: 'Make default: Simulator' }).click();
    await expect.poll(async () => (await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).defaultPaymentAccountId).toBe(m.accountToken);

    // A routing rule: a bad BIN prefix is refused by field; a good rule routes a visa card.
    await page.getByLabel('Account to pick').selectOption({ label: 'Sim ikinci' });
    await page.getByLabel('BIN prefix').fill('41a');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    const bin = page.getByLabel('BIN prefix');
    await expect.poll(() => bin.getAttribute('aria-invalid')).toBe('true');
    const binError = (await page.locator(`[id="${await bin.getAttribute('aria-describedby')}"]`).textContent())!;
    expect(binError.length).toBeGreaterThan(5);
    // In the user's words, once, never the internal path.
    const ruleForm = page.locator('form[aria-labelledby="add-rule-title"]');
    expect(await ruleForm.textContent()).not.toContain('binPrefix');
    expect((await ruleForm.textContent())!.split(binError)).toHaveLength(2);
    expect(await db().routingRule.count({ where: { workspaceId: m.workspaceId } })).toBe(0);
    await page.getByLabel('BIN prefix').fill('411111');
    await page.getByLabel('Card scheme').selectOption('visa');
    await page.getByRole('button', { name: 'Add a rule' }).click();
    await expect.poll(() => page.locator('li[data-rule]').count()).toBe(1);
    expect(await page.locator('li[data-rule]').textContent()).toContain('Visa · BIN 411111… → Sim ikinci');
    await t.gateway.admission.synced();
    const routed = await call(t.gateway.baseUrl, fresh, 'regular-payment', paymentBody(m));
    expect((await db().payment.findUniqueOrThrow({ where: { id: routed.body.transaction.token } })).paymentAccountId).toBe(second.id);
    await shot(page, 'dashboard-settings-desktop.png');
    await page.getByRole('button', { name: /^Delete: Visa/ }).click();
    await expect.poll(() => page.locator('li[data-rule]').count()).toBe(0);
    expect(await db().routingRule.count({ where: { workspaceId: m.workspaceId } })).toBe(0);

    // Test to live and back, each after a confirmation.
    await page.getByRole('button', { name: 'Switch to live mode' }).click();
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).mode).toBe('test');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field="mode"]').textContent()).toBe('Live');
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).mode).toBe('live');
    await page.getByRole('button', { name: 'Switch to test mode' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('[data-field="mode"]').textContent()).toBe('Test');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('creates an iyzico account (credentials typed as passwords, shown only masked), replaces its credentials and makes it the BIN source', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings credentials');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    const secrets = { api_key: 'sandbox-dash-api-key-4d5e', secret_key: 'sandbox-dash-secret-key-6f7a' };
    const create = page.locator('form[aria-labelledby="add-account-title"]');
    await create.getByLabel('Account name').fill('iyzico TRY');
    await create.getByLabel('Provider').selectOption({ label: 'iyzico' });
    for (const name of ['api_key', 'secret_key'] as const) {
      const input = create.getByLabel(name, { exact: true });
      expect(await input.getAttribute('type')).toBe('password');
      expect(await input.getAttribute('autocomplete')).toBe('off');
      await input.fill(secrets[name]);
    }
    expect(await create.getByLabel('base_url').getAttribute('placeholder')).toBe('https://sandbox-api.iyzipay.com');
    // A bad setting: refused by its field path, nothing written.
    await create.getByLabel('base_url').fill('ftp://bank.example');
    await create.getByRole('button', { name: 'Add a payment account' }).click();
    const baseUrl = create.getByLabel('base_url');
    await expect.poll(() => baseUrl.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await baseUrl.getAttribute('aria-describedby')}"]`).textContent()).toMatch(/\S/);
    expect(await create.textContent()).not.toContain('settings.base_url');
    expect(await db().paymentAccount.count({ where: { workspaceId: m.workspaceId, provider: 'iyzico' } })).toBe(0);
    await create.getByLabel('base_url').fill('');
    await create.getByRole('button', { name: 'Add a payment account' }).click();
    const row = page.locator('tr[data-account="iyzico TRY"]');
    await expect.poll(() => row.locator('[data-credential="api_key"]').textContent()).toBe('api_key••••4d5e');
    expect(await row.locator('[data-credential="secret_key"]').textContent()).toBe('secret_key••••6f7a');
    expect(await row.locator('[data-setting="base_url"]').textContent()).toBe('base_urlhttps://sandbox-api.iyzipay.com');
    expect(await row.locator('[data-field="provider"]').textContent()).toBe('iyzico');
    expect(await create.getByLabel('api_key', { exact: true }).inputValue()).toBe(''); // not left in the form
    const account = await db().paymentAccount.findFirstOrThrow({ where: { workspaceId: m.workspaceId, provider: 'iyzico' } });
    expect(JSON.parse(decryptSecret(t.gateway.masterKey, account.credentials!))).toEqual(secrets);
    expect(account).toMatchObject({ secure: true, conversion: false });

    // Replacing: the new pair is stored, the hints follow, the old ciphertext is gone.
    await row.getByText('Replace credentials').click();
    const replace = page.getByRole('form', { name: 'Replace credentials: iyzico TRY' });
    await replace.getByLabel('api_key', { exact: true }).fill('sandbox-dash-new-key-8b9c');
    await replace.getByLabel('secret_key', { exact: true }).fill('sandbox-dash-new-secret-0d1e');
    await replace.getByRole('button', { name: 'Replace', exact: true }).click();
    await expect.poll(() => row.locator('[data-credential="api_key"]').textContent()).toBe('api_key••••8b9c');
    const replaced = await db().paymentAccount.findUniqueOrThrow({ where: { id: account.id } });
    expect(replaced.credentials).not.toBe(account.credentials);
    expect(JSON.parse(decryptSecret(t.gateway.masterKey, replaced.credentials!))).toEqual({ api_key: 'sandbox-dash-new-key-8b9c', secret_key: 'sandbox-dash-new-secret-0d1e' });
    const html = await page.content();
    for (const secret of [...Object.values(secrets), 'sandbox-dash-new-key-8b9c', 'sandbox-dash-new-secret-0d1e']) expect(html).not.toContain(secret);

    // The BIN source: this account, then the default again.
    await page.getByLabel('Account answering BIN lookups').selectOption({ label: 'iyzico TRY' });
    await expect.poll(async () => (await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).binSourceAccountId).toBe(account.id);
    await page.getByLabel('Account answering BIN lookups').selectOption({ label: 'The default account' });
    await expect.poll(async () => (await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).binSourceAccountId).toBeNull();
    await shot(page, 'dashboard-settings-credentials.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('an EST account picks its bank from a list; bank accounts show the bank and the 3D return address to allow at the bank', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings banks');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    const pattern = `${t.gateway.baseUrl}/checkout/3ds/callback/{payment_id}`;
    const create = page.locator('form[aria-labelledby="add-account-title"]');
    await create.getByLabel('Account name').fill('İşbank POS');
    await create.getByLabel('Provider').selectOption({ label: 'EST virtual POS (Payten)' });
    const facts = create.locator('[data-field="newAccountBank"]');
    await expect.poll(() => facts.locator('[data-field="callbackPattern"] code').textContent()).toBe(pattern);
    expect(await facts.locator('[data-field="bankName"]').count()).toBe(0);
    await create.locator('select[name="setting.bank"]').selectOption({ label: 'İşbank' });
    await expect.poll(() => facts.locator('[data-field="bankName"]').textContent()).toBe('İşbank');
    const secrets = { client_id: '700655000200', store_key: 'TRPS0200-dash', api_user: 'ISBANKAPI', api_password: 'ISBANK07-dash' };
    for (const [name, value] of Object.entries(secrets)) await create.getByLabel(name, { exact: true }).fill(value);
    await create.getByRole('button', { name: 'Add a payment account' }).click();

    const row = page.locator('tr[data-account="İşbank POS"]');
    await expect.poll(() => row.locator('[data-field="bankName"]').textContent()).toBe('İşbank');
    expect(await row.locator('[data-field="callbackPattern"] code').textContent()).toBe(pattern);
    expect(await row.locator('[data-setting="bank"] dd').textContent()).toBe('isbank');
    await row.locator('[data-field="callbackPattern"] summary').click();
    expect(await row.locator('[data-field="callbackPattern"] code').isVisible()).toBe(true);
    expect((await db().paymentAccount.findFirstOrThrow({ where: { workspaceId: m.workspaceId, name: 'İşbank POS' } })).settings).toMatchObject({ bank: 'isbank' });

    // Garanti is one bank: no list, its name shown from the start.
    await create.getByLabel('Provider').selectOption({ label: 'Garanti BBVA virtual POS' });
    await expect.poll(() => facts.locator('[data-field="bankName"]').textContent()).toBe('Garanti BBVA');
    expect(await facts.locator('[data-field="callbackPattern"] code').textContent()).toBe(pattern);
    // The simulator is no bank: nothing of it.
    await create.getByLabel('Provider').selectOption({ label: 'Simulator (test cards, no real money)' });
    await expect.poll(() => facts.count()).toBe(0);
    expect(await page.locator('tr[data-account="Simulator"] [data-field="callbackPattern"]').count()).toBe(0);
    await shot(page, 'dashboard-settings-bank-account.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("sets an account's installment plan (a rate per count, card programs) and retrieve-bin follows it; a bad rate is shown by its input", async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings installments');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    const row = page.locator('tr[data-account="Simulator"]');
    await expect.poll(() => row.locator('[data-field="installmentPlan"]').textContent()).toBe('every count, default rates · any card');
    expect((await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00' } })).body.installments).toHaveLength(12);

    await row.locator('summary', { hasText: 'Installments' }).click();
    const form = page.getByRole('form', { name: 'Installments: Simulator' });
    await form.getByLabel('3 installments', { exact: true }).fill('4.5');
    await form.getByLabel(/^Card programs/).fill('Simülasyon Bonus');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('[data-field="installmentPlan"]').textContent()).toBe('3 × 4.50% · Simülasyon Bonus');
    const account = await db().paymentAccount.findUniqueOrThrow({ where: { id: m.accountToken } });
    expect(account).toMatchObject({ installmentCounts: [3], installmentPrograms: ['Simülasyon Bonus'] });
    await t.gateway.admission.synced();
    const quoted = await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00' } });
    expect(quoted.status).toBe(200);
    expect(quoted.body.installments).toEqual([
      { number: 1, amount: '100.00', total: '100.00' },
      { number: 3, amount: '34.83', total: '104.50' },
    ]);

    // Three decimals: refused by the field, shown by its input and described to it, nothing changed.
    const three = form.getByLabel('3 installments', { exact: true });
    await three.fill('4.555');
    await form.getByLabel('6 installments', { exact: true }).fill('9');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => three.getAttribute('aria-invalid')).toBe('true');
    const described = (await three.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('The rate must be between 0 and 100 with at most two decimals.');
    expect(await form.getByLabel('6 installments', { exact: true }).getAttribute('aria-describedby')).toBeNull();
    // The form says it was not sent; the message itself stands only by its input.
    expect(await form.locator('.form-errors').textContent()).toBe('The form was not sent');
    expect(await db().paymentAccount.findUniqueOrThrow({ where: { id: m.accountToken } })).toEqual(account);
    expect(await row.locator('[data-field="installmentPlan"]').textContent()).toBe('3 × 4.50% · Simülasyon Bonus');
    await shot(page, 'dashboard-settings-installments.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("shows the provider's own code and text on a failed payment", async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings provider code');
    const paid = await m.call('regular-payment', paymentBody(m, { card: { number: '4000000000000002' } }));
    const id = paid.body.transaction.token;
    await db().payment.update({ where: { id }, data: { providerErrorCode: '10051', providerErrorMessage: 'Kart limiti yetersiz' } });
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: `payments/${id}` });
    await expect.poll(() => page.locator('[data-field="providerError"]').textContent()).toBe('10051: Kart limiti yetersiz');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('switches what REST calls do with unknown keys, and the next call follows', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings unknown keys');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    const extra = { card: { bin: '41111111', nickname: 'x' }, transaction: { amount: '100.00' } };
    await expect.poll(() => page.locator('[data-field="unknownKeys"]').textContent()).toBe('A key the operation does not know is refused with 422.');
    expect((await m.call('retrieve-bin', extra, { unlistedKeys: true })).status).toBe(422);

    await page.getByRole('button', { name: 'Ignore unknown keys' }).click();
    await expect.poll(() => page.locator('[data-field="unknownKeys"]').textContent()).toContain('are ignored');
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).ignoreUnknownKeys).toBe(true);
    await t.gateway.admission.synced();
    expect((await m.call('retrieve-bin', extra, { unlistedKeys: true })).status).toBe(200);

    await page.getByRole('button', { name: 'Refuse unknown keys' }).click();
    await expect.poll(() => page.locator('[data-field="unknownKeys"]').textContent()).toBe('A key the operation does not know is refused with 422.');
    await t.gateway.admission.synced();
    expect((await m.call('retrieve-bin', extra, { unlistedKeys: true })).status).toBe(422);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows mode, capabilities, currencies and health as labelled badges (desktop, English)', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings badges');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    const row = page.locator('tr[data-account="Simulator"]');
    await expect.poll(() => row.locator('[data-field="capabilities"] .badge').allTextContents()).toContain('3-D Secure');
    const capabilities = await row.locator('[data-field="capabilities"] .badge').allTextContents();
    expect(capabilities).toEqual(expect.arrayContaining(['Refunds', 'Card storage', 'Hosted page']));
    expect(capabilities.join()).not.toMatch(/card_storage|hosted_page|non_secure/);
    expect(await row.locator('[data-field="currencies"] .badge').allTextContents()).toEqual(['Turkish lira', 'US dollar', 'Euro', 'Pound sterling']);
    expect(await row.locator('[data-health] .badge').textContent()).toBe('Healthy');
    expect(await page.locator('[data-field="mode"] .badge').textContent()).toBe('Test');
    // No routing rule yet: a sentence says what happens then.
    expect(await page.locator('.empty', { hasText: 'No rules yet' }).textContent()).toBe('No rules yet: every payment goes through the default account.');
    // The new account's form offers the capabilities by their names too.
    const create = page.locator('form[aria-labelledby="add-account-title"]');
    expect(await create.getByRole('checkbox', { name: 'Card storage' }).isChecked()).toBe(true);
    expect(await create.getByRole('checkbox', { name: /US dollar/ }).count()).toBe(1);
    // A form error sits by its field in the user's words, once: an empty channel name.
    await page.getByRole('button', { name: 'Add a channel' }).click();
    const channel = page.getByLabel('Channel name');
    await expect.poll(() => channel.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(`[id="${await channel.getAttribute('aria-describedby')}"]`).textContent()).toBe('This field is required.');
    expect(await page.getByRole('form', { name: 'Add a channel' }).textContent()).not.toContain('name:');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows each role only the controls its role may use; the page reads the same for all', async () => {
    const m = await seed();
    const buttons = async (token: string) => {
      const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
      // The owner's page is the heaviest (every control): a loaded machine takes more than a second.
      await expect.poll(() => page.locator('tr[data-account="Simulator"]').count(), { timeout: 15_000 }).toBe(1);
      await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
      const seen = {
        buttons: (await page.locator('main button').allTextContents()).sort(),
        forms: await page.locator('main form').evaluateAll((fs) => fs.map((f) => f.getAttribute('aria-label') ?? f.getAttribute('aria-labelledby'))),
        apiKey: await page.locator('[data-field="apiKey"]').count(),
        binSourceDisabled: await page.getByLabel('Account answering BIN lookups').isDisabled(),
        mode: await page.locator('[data-field="mode"]').textContent(),
      };
      expect(problems).toEqual([]);
      await page.context().close();
      return seen;
    };

    // A developer: the API key (rotate, copy), the checkout pages, channels and unknown keys; no account, routing or mode control.
    const developer = await buttons(await createAccessToken(db(), m.team, 'dev desk', { role: 'developer' }));
    expect(developer.buttons).toEqual(['Add a channel', 'Ask', 'Copy', 'Ignore unknown keys', 'Rotate the key and secret', 'Save the checkout settings']);
    expect(developer.forms).toEqual(['Save the checkout settings', 'Add a channel', 'route-preview-title']);
    expect(developer).toMatchObject({ apiKey: 1, binSourceDisabled: true, mode: 'Test' });

    // An operator and a viewer: nothing to change here, and no key to read.
    for (const role of ['operator', 'viewer'] as const) {
      const seen = await buttons(await createAccessToken(db(), m.team, `${role} desk`, { role }));
      expect(seen.buttons, role).toEqual(['Ask']);
      expect(seen, role).toMatchObject({ apiKey: 0, binSourceDisabled: true, mode: 'Test' });
    }

    // The owner: every control.
    const owner = await buttons(await createAccessToken(db(), m.team, 'owner desk'));
    expect(owner.buttons).toEqual(expect.arrayContaining(['Add a channel', 'Add a payment account', 'Add a rule', 'Ask', 'Ignore unknown keys', 'Replace', 'Rotate the key and secret', 'Save', 'Switch to live mode']));
    expect(owner.binSourceDisabled).toBe(false);
  });

  it('shows a loading state until the settings arrive', async () => {
    const m = await seed();
    const token = await createAccessToken(db(), m.team, 'settings loading');
    const { page, problems } = await open(1280, 900, { token, locale: 'en-GB', path: 'settings' });
    await expect.poll(() => page.locator('[data-field="mode"]').count()).toBe(1);
    // Hold the settings query a moment (it still reaches the gateway); urql sends queries as GET.
    await page.route('**/graphql**', async (route) => {
      if (new URL(route.request().url()).searchParams.get('query')?.startsWith('query Settings')) await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await page.reload();
    const busy = page.locator('section[aria-labelledby="settings-title"] [aria-busy="true"]');
    await expect.poll(() => busy.count()).toBe(1);
    expect(await busy.textContent()).toBe('Loading…');
    await expect.poll(() => page.locator('[data-field="mode"]').count()).toBe(1);
    await expect.poll(() => busy.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('support staff read the settings with no control at all', async () => {
    await seed();
    const support = await createAccessToken(db(), null, 'support desk');
    const { page, problems } = await open(1280, 900, { token: support, locale: 'en-GB', path: 'settings' });
    await expect.poll(() => page.locator('tr[data-account]').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    expect(await page.locator('main button').allTextContents()).toEqual(['Copy']);
    expect(await page.locator('main form').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('fits a phone (Turkish) and shows no secret before a rotation', async () => {
    const m = await seed();
    await addRoutingRule(db(), m.team, { paymentAccountId: m.accountToken, cardType: 'debit', currency: 'TRY', minAmount: 123456n, maxAmount: 1000000n });
    await db().accountCost.create({ data: { workspaceId: m.workspaceId, paymentAccountId: m.accountToken, installmentCounts: [1, 3], commissionBp: [179, 249], fixedFee: 125050n } });
    const token = await createAccessToken(db(), m.team, 'settings phone');
    const { page, problems } = await open(390, 844, { token, path: 'settings' });
    await expect.poll(() => page.locator('[data-field="apiKey"]').textContent()).toBe(m.apiKey);
    expect(await page.content()).not.toContain(m.apiSecret);
    expect(await page.getByRole('button', { name: 'Anahtarı ve gizli anahtarı yenile' }).count()).toBe(1);
    // The accounts as cards, each value under its column's name, in Turkish.
    const row = page.locator('tr[data-account="Simulator"]');
    expect(await row.locator('[data-field="capabilities"]').getAttribute('data-label')).toBe('Yetenekler');
    expect(await row.locator('[data-field="capabilities"] .badge').allTextContents()).toEqual(expect.arrayContaining(['3D Secure', 'İade', 'Kart saklama']));
    expect(await row.locator('[data-field="currencies"] .badge').allTextContents()).toEqual(['Türk lirası', 'ABD doları', 'Euro', 'İngiliz sterlini']);
    expect(await page.locator('[data-field="mode"] .badge').textContent()).toBe('Test');
    // Amounts and rates as Turkish writes them.
    expect((await page.locator('li[data-rule]').textContent())?.replace(/\s/g, ' ')).toContain('Banka kartı · TRY · ₺1.234,56–₺10.000,00 → Simulator');
    expect((await row.locator('[data-field="costs"]').textContent())?.replace(/\s/g, ' ')).toBe('her kart: 1 × %1,79, 3 × %2,49 + 1.250,50');
    expect(await row.evaluate((tr) => getComputedStyle(tr).display)).toBe('block');
    await fitsWidth(page, 390);
    // The account's forms open inside its card and still fit.
    for (const summary of ['Taksit', 'Maliyet', 'Kimlik bilgilerini değiştir']) await row.locator('summary', { hasText: summary }).click();
    await expect.poll(() => row.getByRole('form', { name: 'Taksit: Simulator' }).isVisible()).toBe(true);
    await fitsWidth(page, 390);
    // Their cell gives them the card's whole width, its label above them.
    const cell = await row.locator('[data-field="plans"]').boundingBox();
    const plan = await row.getByRole('form', { name: 'Taksit: Simulator' }).boundingBox();
    expect(plan!.width).toBeGreaterThan(cell!.width * 0.8);
    await shot(page, 'dashboard-settings-phone.png');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
