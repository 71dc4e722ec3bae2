// Payment accounts with a provider's credentials and settings, over the dashboard's GraphQL with a
// real gateway and database: bad credentials or settings are 422s at `credentials.<field>` /
// `settings.<field>` and write nothing; capabilities only the provider offers; credentials sealed
// with the master key, replaced wholesale, shown only masked (never in an answer or a log line);
// the BIN source account (checked end to end against the iyzico emulator); the provider catalog
// for forms; the provider's own failure code on payments (GraphQL only, never REST).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIyzicoEmulator, type IyzicoEmulator } from '../../emulators/iyzico/server.ts';
import { useGateway } from '../helpers/fixture.ts';
import { gql } from '../helpers/webhooks.ts';
import { paymentBody } from '../helpers/payments.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { decryptSecret } from '../../src/domain/secrets.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { addPaymentAccount } from '../../src/domain/settings.ts';
import { credentialHints, maskCredential, providerSupports } from '../../src/domain/account-credentials.ts';
import { createRegistry, type ProviderDefinition } from '../../src/providers/registry.ts';
import { PROVIDER_IDS } from '../../src/providers/catalog.ts';
import { createLogger } from '../../src/logger.ts';
import { IYZICO_SANDBOX_URL } from '../../src/providers/iyzico/settings.ts';
import type { Capability } from '../../src/providers/types.ts';

const gw = useGateway({ merchant: true, merchants: { other: {} } });
const { t, merchant: m, merchants } = gw;
const db = () => t.gateway.services.db;
let token: string;
let emulator: IyzicoEmulator;

// Long enough to show their last four characters; none of them may ever come back whole.
const API_KEY = 'sandbox-test-api-key-7f3a';
const SECRET_KEY = 'sandbox-test-secret-key-9b2c';

const ERRORS = 'errors { kind code message path }';
const ACCOUNT = 'token name provider providerLabel mode currencies capabilities settings credentialHints { name hint }';
const CREATE = `mutation ($input: CreatePaymentAccountInput!) { createPaymentAccount(input: $input) { result { successful message } paymentAccount { ${ACCOUNT} } ${ERRORS} } }`;
const UPDATE = `mutation ($token: String!, $credentials: JSON, $settings: JSON) {
  updatePaymentAccountConnection(token: $token, credentials: $credentials, settings: $settings) { result { successful } paymentAccount { ${ACCOUNT} } ${ERRORS} }
}`;
const BIN_SOURCE = `mutation ($token: String) { setBinSource(token: $token) { result { successful } workspace { binSourceAccount { token } } ${ERRORS} } }`;
const PROVIDERS = '{ providers { id label capabilities credentialFields { name required defaultValue } settingFields { name required defaultValue } } }';

const iyzicoInput = (extra: Record<string, unknown> = {}) => ({
  name: `iyzico ${Math.random().toString(36).slice(2, 8)}`,
  provider: 'iyzico',
  currencies: ['TRY'],
  capabilities: ['secure', 'refund'],
  credentials: { api_key: API_KEY, secret_key: SECRET_KEY },
  ...extra,
});
const accountCount = () => db().paymentAccount.count({ where: { workspaceId: m.workspaceId } });
const paths = (errors: Array<{ path: string[] }>) => errors.map((e) => e.path.join('.'));

beforeAll(async () => {
  token = await createAccessToken(db(), m.team, 'credentials test');
  emulator = await startIyzicoEmulator({ apiKey: 'emulator-api-key-0001', secretKey: 'emulator-secret-key-0001' });
});
afterAll(async () => {
  await emulator?.close();
});

describe('creating an account with credentials', { timeout: 60_000 }, () => {
  it('refuses missing or bad credentials and settings at their field paths and writes nothing', async () => {
    const before = await accountCount();
    const res = await gql(t, token, CREATE, { input: iyzicoInput({ credentials: { api_key: API_KEY }, settings: { base_url: 'ftp://example.com' } }) });
    const out = res.body.data.createPaymentAccount;
    expect(out.result.successful).toBe(false);
    expect(out.errors).toEqual([
      expect.objectContaining({ kind: 'validation', code: 'required', path: ['credentials', 'secret_key'] }),
      expect.objectContaining({ kind: 'validation', code: 'invalid_url', path: ['settings', 'base_url'] }),
    ]);
    expect(out.result.message).toBe('This field is required.');

    const none = await gql(t, token, CREATE, { input: iyzicoInput({ credentials: undefined }) });
    expect(paths(none.body.data.createPaymentAccount.errors)).toEqual(['credentials.api_key', 'credentials.secret_key']);
    const wrongShape = await gql(t, token, CREATE, { input: iyzicoInput({ credentials: 'api_key=x' }) });
    expect(wrongShape.body.data.createPaymentAccount.errors).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['credentials'] })]);
    const notText = await gql(t, token, CREATE, { input: iyzicoInput({ credentials: { api_key: 42, secret_key: SECRET_KEY } }) });
    expect(notText.body.data.createPaymentAccount.errors).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['credentials', 'api_key'] })]);
    // The simulator takes none: a credential given to it is an unknown field, not silently kept.
    const simulator = await gql(t, token, CREATE, { input: { name: 'Sim', currencies: ['TRY'], capabilities: ['secure'], credentials: { api_key: API_KEY } } });
    expect(simulator.body.data.createPaymentAccount.errors).toEqual([expect.objectContaining({ code: 'unknown_field', path: ['credentials', 'api_key'] })]);
    const unknownProvider = await gql(t, token, CREATE, { input: iyzicoInput({ provider: 'paypal' }) });
    expect(unknownProvider.body.data.createPaymentAccount.errors).toEqual([expect.objectContaining({ code: 'value_not_allowed', path: ['provider'], message: `Must be one of: ${PROVIDER_IDS.join(', ')}.` })]);
    expect(await accountCount()).toBe(before);
  });

  it('names the values an enum setting takes, in Turkish and English', async () => {
    const refusal = async (lang: 'tr' | 'en', input: Record<string, unknown>) => {
      const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept-Language': lang, Authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: CREATE, variables: { input: { name: 'x', currencies: ['TRY'], capabilities: ['secure'], ...input } } }),
      });
      return ((await res.json()) as { data: { createPaymentAccount: { errors: Array<{ code: string; message: string; path: string[] }> } } }).data.createPaymentAccount.errors;
    };
    const before = await accountCount();
    const banks = 'akbank, isbank, halkbank, ziraat, teb, sekerbank, finansbank';
    const est = { provider: 'est', credentials: { client_id: '700655000200', store_key: 'k', api_user: 'u', api_password: 'p' } };
    expect(await refusal('en', { ...est, settings: {} })).toEqual([{ kind: 'validation', code: 'value_not_allowed', path: ['settings', 'bank'], message: `Must be one of: ${banks}.` }]);
    expect(await refusal('tr', { ...est, settings: { bank: 'garanti', model: '3D' } })).toEqual([
      { kind: 'validation', code: 'value_not_allowed', path: ['settings', 'bank'], message: `Şunlardan biri olmalıdır: ${banks}.` },
      { kind: 'validation', code: 'value_not_allowed', path: ['settings', 'model'], message: 'Şunlardan biri olmalıdır: 3d, 3d_pay.' },
    ]);
    const garanti = {
      provider: 'garanti',
      credentials: { merchant_id: '7000679', terminal_id: '30691298', provision_user: 'PROVAUT', provision_password: 'p', refund_user: 'PROVRFN', refund_password: 'p', store_key: 'k' },
    };
    expect(await refusal('en', { ...garanti, settings: { model: '3dpay', lang: 'de' } })).toEqual([
      { kind: 'validation', code: 'value_not_allowed', path: ['settings', 'model'], message: 'Must be one of: 3d, 3d_pay.' },
      { kind: 'validation', code: 'value_not_allowed', path: ['settings', 'lang'], message: 'Must be one of: tr, en.' },
    ]);
    expect(await refusal('en', { settings: { outage: 'slow' } })).toEqual([{ kind: 'validation', code: 'value_not_allowed', path: ['settings', 'outage'], message: 'Must be one of: none, errors, unreachable.' }]);
    expect(await accountCount()).toBe(before);
  });

  it('seals the credentials with the master key, fills the settings defaults and answers only masked hints', async () => {
    const res = await gql(t, token, CREATE, { input: iyzicoInput() });
    const account = res.body.data.createPaymentAccount.paymentAccount;
    expect(account).toMatchObject({
      provider: 'iyzico',
      providerLabel: 'iyzico',
      capabilities: ['secure', 'refund'],
      settings: { base_url: IYZICO_SANDBOX_URL, timeout_ms: 60_000 },
      credentialHints: [
        { name: 'api_key', hint: '••••7f3a' },
        { name: 'secret_key', hint: '••••9b2c' },
      ],
    });
    const row = await db().paymentAccount.findUniqueOrThrow({ where: { id: account.token } });
    expect(row.credentials).not.toContain(API_KEY);
    expect(JSON.parse(decryptSecret(t.gateway.masterKey, row.credentials!))).toEqual({ api_key: API_KEY, secret_key: SECRET_KEY });
    expect(row.settings).toEqual({ base_url: IYZICO_SANDBOX_URL, timeout_ms: 60_000 });
    expect(JSON.stringify(res.body)).not.toMatch(/sandbox-test-(api|secret)-key/);
  });

  it('masks values under 12 characters completely', () => {
    expect(maskCredential('short-key01')).toBe('••••');
    expect(maskCredential('long-enough-key')).toBe('••••-key');
    expect(credentialHints(t.gateway.masterKey, { credentials: null })).toEqual([]);
  });

  it('lets an account switch on only capabilities its provider offers', async () => {
    const unknown = await gql(t, token, CREATE, { input: iyzicoInput({ capabilities: ['secure', 'teleport'] }) });
    expect(unknown.body.data.createPaymentAccount.errors).toEqual([expect.objectContaining({ code: 'value_not_allowed', path: ['capabilities', '1'] })]);

    // Every provider in the catalog offers all eight today, so a provider without conversion is made here.
    const limited: ProviderDefinition = {
      ...t.gateway.services.providers.definition('iyzico'),
      id: 'iyzico',
      label: 'No conversion',
      capabilities: new Set<Capability>(['secure', 'non_secure', 'refund']),
    };
    const s = { ...t.gateway.services, providers: createRegistry([limited], (v) => decryptSecret(t.gateway.masterKey, v)) };
    const workspace = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
    const before = await accountCount();
    const refused = await addPaymentAccount(s, workspace, iyzicoInput({ capabilities: ['secure', 'conversion', 'refund', 'cancel'] })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).issues).toEqual([
      { path: ['capabilities', 1], code: 'capability_not_supported', params: { capability: 'conversion', provider: 'No conversion' } },
      { path: ['capabilities', 3], code: 'capability_not_supported', params: { capability: 'cancel', provider: 'No conversion' } },
    ]);
    expect(await accountCount()).toBe(before);

    // Without a list, an account gets what its provider offers (conversion only when asked for).
    const made = await addPaymentAccount(s, workspace, iyzicoInput({ capabilities: undefined }));
    expect(made).toMatchObject({ secure: true, nonSecure: true, refund: true, cancel: false, conversion: false, cardStorage: false });
    expect(providerSupports(s.providers, made, 'secure')).toBe(true);
    expect(providerSupports(s.providers, made, 'cancel')).toBe(false);
    // Switched on in the row, but the provider does not offer it: still not usable.
    const forced = await db().paymentAccount.update({ where: { id: made.id }, data: { cancel: true } });
    expect(providerSupports(s.providers, forced, 'cancel')).toBe(false);
    expect(providerSupports(t.gateway.services.providers, forced, 'cancel')).toBe(true);
    expect(providerSupports(t.gateway.services.providers, forced, 'card_storage')).toBe(false);
  });
});

describe('replacing credentials and settings', { timeout: 60_000 }, () => {
  it('replaces the credentials wholesale: the old ciphertext is gone, the new one decrypts to the new pair', async () => {
    const created = (await gql(t, token, CREATE, { input: iyzicoInput({ settings: { base_url: 'http://127.0.0.1:1/' } }) })).body.data.createPaymentAccount.paymentAccount;
    const before = await db().paymentAccount.findUniqueOrThrow({ where: { id: created.token } });
    expect(before.settings).toEqual({ base_url: 'http://127.0.0.1:1', timeout_ms: 60_000 });

    // Half a pair is refused: nothing changes.
    const half = await gql(t, token, UPDATE, { token: created.token, credentials: { api_key: 'sandbox-new-api-key-1111' } });
    expect(half.body.data.updatePaymentAccountConnection.errors).toEqual([expect.objectContaining({ code: 'required', path: ['credentials', 'secret_key'] })]);
    const badSettings = await gql(t, token, UPDATE, { token: created.token, credentials: { api_key: 'sandbox-new-api-key-1111', secret_key: 'x' }, settings: { base_url: 'http://a/?q=1', extra: 1 } });
    expect(paths(badSettings.body.data.updatePaymentAccountConnection.errors)).toEqual(['settings.base_url', 'settings.extra']);
    const nothing = await gql(t, token, UPDATE, { token: created.token });
    expect(nothing.body.data.updatePaymentAccountConnection.errors).toEqual([expect.objectContaining({ code: 'connection_change_empty', path: ['credentials'] })]);
    expect((await db().paymentAccount.findUniqueOrThrow({ where: { id: created.token } })).credentials).toBe(before.credentials);

    const res = await gql(t, token, UPDATE, { token: created.token, credentials: { api_key: 'sandbox-new-api-key-1111', secret_key: 'sandbox-new-secret-2222' } });
    const out = res.body.data.updatePaymentAccountConnection;
    expect(out.errors).toEqual([]);
    expect(out.paymentAccount.credentialHints).toEqual([
      { name: 'api_key', hint: '••••1111' },
      { name: 'secret_key', hint: '••••2222' },
    ]);
    const after = await db().paymentAccount.findUniqueOrThrow({ where: { id: created.token } });
    expect(after.credentials).not.toBe(before.credentials);
    expect(JSON.parse(decryptSecret(t.gateway.masterKey, after.credentials!))).toEqual({ api_key: 'sandbox-new-api-key-1111', secret_key: 'sandbox-new-secret-2222' });
    expect(after.settings).toEqual(before.settings); // settings not given: kept

    // Settings alone: the credentials stay exactly as they were.
    const moved = await gql(t, token, UPDATE, { token: created.token, settings: { timeout_ms: '5000' } });
    expect(moved.body.data.updatePaymentAccountConnection.paymentAccount.settings).toEqual({ base_url: IYZICO_SANDBOX_URL, timeout_ms: 5_000 });
    expect((await db().paymentAccount.findUniqueOrThrow({ where: { id: created.token } })).credentials).toBe(after.credentials);
  });

  it("answers not found for another workspace's account and changes nothing there", async () => {
    const theirs = await db().paymentAccount.findUniqueOrThrow({ where: { id: merchants.other.accountToken } });
    const res = await gql(t, token, UPDATE, { token: theirs.id, settings: {} });
    expect(res.body.data.updatePaymentAccountConnection.errors).toEqual([expect.objectContaining({ kind: 'not_found', code: 'account_not_found', path: ['token'] })]);
    expect(await db().paymentAccount.findUniqueOrThrow({ where: { id: theirs.id } })).toEqual(theirs);
  });
});

describe('the BIN source account', { timeout: 60_000 }, () => {
  it('answers BIN lookups from the chosen account, with the credentials it has now; null goes back to the default', async () => {
    // Wrong credentials first: the emulator refuses them, so the BIN's facts are unknown.
    const wrong = { api_key: 'sandbox-wrong-api-key-0000', secret_key: 'sandbox-wrong-secret-0000' };
    const created = (await gql(t, token, CREATE, { input: iyzicoInput({ credentials: wrong, settings: { base_url: emulator.url } }) })).body.data.createPaymentAccount.paymentAccount;

    const set = await gql(t, token, BIN_SOURCE, { token: created.token });
    expect(set.body.data.setBinSource).toMatchObject({ result: { successful: true }, workspace: { binSourceAccount: { token: created.token } } });
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).binSourceAccountId).toBe(created.token);
    await t.gateway.admission.synced();
    const refused = await m.call('retrieve-bin', { card: { bin: '55260800' }, transaction: { amount: '100.00' } });
    expect(refused.status).toBe(200);
    expect(refused.body.card).toMatchObject({ issuer_name: null, scheme: null });

    // The emulator's own pair: from the next call on, the account's connector uses it.
    await gql(t, token, UPDATE, { token: created.token, credentials: { api_key: emulator.apiKey, secret_key: emulator.secretKey } });
    await t.gateway.admission.synced();
    const answered = await m.call('retrieve-bin', { card: { bin: '45435900' }, transaction: { amount: '100.00' } });
    expect(answered.body.card).toMatchObject({ issuer_name: 'Türkiye İş Bankası', scheme: 'visa', type: 'credit' });

    // Back to the default (simulator) account: it does not know that BIN.
    const cleared = await gql(t, token, BIN_SOURCE, { token: null });
    expect(cleared.body.data.setBinSource.workspace.binSourceAccount).toBeNull();
    await t.gateway.admission.synced();
    const simulator = await m.call('retrieve-bin', { card: { bin: '45435900' }, transaction: { amount: '100.00' } });
    expect(simulator.body.card).toMatchObject({ issuer_name: null });
    expect((await m.call('retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00' } })).body.card.issuer_name).toBe('Simülasyon Bank');
  });

  it("refuses another workspace's account or a malformed token at `token` and keeps the setting", async () => {
    await gql(t, token, BIN_SOURCE, { token: m.accountToken });
    for (const bad of [merchants.other.accountToken, 'not-a-token']) {
      const res = await gql(t, token, BIN_SOURCE, { token: bad });
      expect(res.body.data.setBinSource.errors).toEqual([expect.objectContaining({ kind: 'validation', code: 'account_not_found', path: ['token'] })]);
    }
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).binSourceAccountId).toBe(m.accountToken);
    await gql(t, token, BIN_SOURCE, { token: null });
  });
});

describe('what leaves the gateway', { timeout: 60_000 }, () => {
  it('lists the providers with their fields for forms', async () => {
    const res = await gql(t, token, PROVIDERS);
    const providers = res.body.data.providers;
    expect(providers.map((p: { id: string }) => p.id)).toEqual([...PROVIDER_IDS]);
    expect(providers[1]).toEqual({
      id: 'iyzico',
      label: 'iyzico',
      capabilities: expect.arrayContaining(['secure', 'refund']),
      credentialFields: [
        { name: 'api_key', required: true, defaultValue: null },
        { name: 'secret_key', required: true, defaultValue: null },
      ],
      settingFields: [
        { name: 'base_url', required: false, defaultValue: IYZICO_SANDBOX_URL },
        { name: 'timeout_ms', required: false, defaultValue: '60000' },
      ],
    });
    expect(providers[0]).toMatchObject({ id: 'simulator', credentialFields: [], settingFields: [{ name: 'outage', required: false, defaultValue: null }] });
    expect((await gql(t, null, PROVIDERS)).body.errors).toBeDefined();
  });

  it('never answers or logs a credential: every account field read back, every log line so far', async () => {
    const res = await gql(t, token, `{ workspace { paymentAccounts { ${ACCOUNT} } binSourceAccount { ${ACCOUNT} } } }`);
    const text = JSON.stringify(res.body);
    expect(res.body.data.workspace.paymentAccounts.length).toBeGreaterThan(3);
    const secrets = [API_KEY, SECRET_KEY, 'sandbox-new-api-key-1111', 'sandbox-new-secret-2222', emulator.apiKey, emulator.secretKey, 'sandbox-wrong-secret-0000'];
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(t.logLines.join('\n')).not.toContain(secret);
    }
  });

  it('redacts credentials a log line might carry, whole or by field', () => {
    const lines: string[] = [];
    createLogger('info', (line) => lines.push(line)).info('account', { credentials: { api_key: API_KEY }, input: { secret_key: SECRET_KEY } });
    expect(lines[0]).not.toContain(API_KEY);
    expect(lines[0]).not.toContain(SECRET_KEY);
    expect(JSON.parse(lines[0])).toMatchObject({ credentials: '[redacted]', input: { secret_key: '[redacted]' } });
  });

  it("shows the provider's own failure code and text on GraphQL's payment, never in REST", async () => {
    const paid = await m.call('regular-payment', paymentBody(m, { card: { number: '4000000000000002' } }));
    const id = paid.body.transaction.token;
    await db().payment.update({ where: { id }, data: { providerErrorCode: '10051', providerErrorMessage: 'Kart limiti yetersiz' } });
    const res = await gql(t, token, 'query ($token: String!) { payment(token: $token) { providerErrorCode providerErrorMessage } }', { token: id });
    expect(res.body.data.payment).toEqual({ providerErrorCode: '10051', providerErrorMessage: 'Kart limiti yetersiz' });
    const rest = await m.call('retrieve-payment', { transaction: { token: id } });
    expect(JSON.stringify(rest.body)).not.toContain('10051');
    expect(JSON.stringify(rest.body)).not.toMatch(/provider_error/);
  });
});

describe('the catalog list the CLI reads', () => {
  it('names the providers the registry has', () => {
    expect(t.gateway.services.providers.definitions.map((d) => d.id)).toEqual([...PROVIDER_IDS]);
  });
});
