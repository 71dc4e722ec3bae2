// The CLI's payment accounts with a provider's credentials and settings (`account create
// --provider iyzico --credential … --setting …`, `account update`, `account list`) and the BIN
// source (`workspace settings --bin-source`), in-process on a real gateway's database: errors name
// the field path, credentials are stored sealed and printed only masked, in text and in JSON.
import { PROVIDER_IDS } from '../src/providers/catalog.ts';
import { describe, expect, it } from 'vitest';
import { useGateway } from './helpers/fixture.ts';
import { cliOn } from './helpers/cli.ts';
import { decryptSecret } from '../src/domain/secrets.ts';
import type { accountJson } from '../src/cli/format.ts';

const gw = useGateway({ merchant: true, merchants: { other: {} } });
const { t, merchant: m, merchants } = gw;
const cli = cliOn(t);
const db = () => t.gateway.services.db;

type AccountOut = ReturnType<typeof accountJson>;

const API_KEY = 'sandbox-cli-api-key-a1b2';
const SECRET_KEY = 'sandbox-cli-secret-key-c3d4';

describe('CLI accounts with credentials', { timeout: 120_000 }, () => {
  it('creates an iyzico account: credentials sealed, settings kept, only masked hints printed', async () => {
    const res = await cli.run([
      'account', 'create', m.team, 'iyzico TRY', '--provider', 'iyzico', '--currencies', 'TRY',
      '--credential', `api_key=${API_KEY}`, '--credential', `secret_key=${SECRET_KEY}`, '--setting', 'base_url=http://127.0.0.1:9/x=1',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('credential api_key      ••••a1b2');
    expect(res.stdout).toContain('setting base_url        http://127.0.0.1:9/x=1');
    const token = /payment_provider_token\s+([0-9a-f-]{36})/.exec(res.stdout)![1];
    const row = await db().paymentAccount.findUniqueOrThrow({ where: { id: token } });
    expect(row).toMatchObject({ provider: 'iyzico', settings: { base_url: 'http://127.0.0.1:9/x=1', timeout_ms: 60_000 }, conversion: false, secure: true, cardStorage: true });
    expect(JSON.parse(decryptSecret(t.gateway.masterKey, row.credentials!))).toEqual({ api_key: API_KEY, secret_key: SECRET_KEY });

    const listed = await cli.json<AccountOut[]>('account', 'list', m.team);
    expect(listed.find((a) => a.payment_provider_token === token)).toMatchObject({
      provider: 'iyzico',
      settings: { base_url: 'http://127.0.0.1:9/x=1', timeout_ms: 60_000 },
      credentials: [
        { name: 'api_key', hint: '••••a1b2' },
        { name: 'secret_key', hint: '••••c3d4' },
      ],
    });
    const text = await cli.run(['account', 'list', m.team]);
    expect(text.stdout).toContain('settings: base_url=http://127.0.0.1:9/x=1 timeout_ms=60000  credentials: api_key=••••a1b2 secret_key=••••c3d4');
    for (const out of [res.stdout, text.stdout, JSON.stringify(listed)]) {
      expect(out).not.toContain(API_KEY);
      expect(out).not.toContain(SECRET_KEY);
    }
  });

  it('refuses bad credentials and settings with their field paths, writing nothing', async () => {
    const before = await db().paymentAccount.count();
    await cli.fails(
      ['account', 'create', m.team, 'x', '--provider', 'iyzico', '--credential', `api_key=${API_KEY}`, '--setting', 'base_url=ftp://bank'],
      'credentials.secret_key: Bu alan zorunludur. / This field is required.; settings.base_url: http veya https',
    );
    await cli.fails(['account', 'create', m.team, 'x', '--credential', 'api_key=k'], 'credentials.api_key: Bu alan tanınmıyor. / This field is not allowed.');
    expect(await db().paymentAccount.count()).toBe(before);
  });

  it.each([
    ['a word without =', ['--credential', SECRET_KEY], 'Invalid --credential: expected name=value, e.g. --credential api_key=…'],
    ['an empty name', ['--setting', `=${SECRET_KEY}`], 'Invalid --setting: expected name=value, e.g. --setting api_key=…'],
    ['a name twice', ['--credential', 'api_key=a', '--credential', `api_key=${SECRET_KEY}`], '--credential api_key is given twice'],
    ['an unknown provider', ['--provider', 'paypal'], `Unknown provider "paypal" (expected ${PROVIDER_IDS.join(', ')})`],
  ])('refuses %s before opening the database, without echoing a value', async (_name, words, expected) => {
    const res = await cli.run(['account', 'create', m.team, 'x', ...words]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`error: ${expected}\n`);
    expect(res.stderr).not.toContain(SECRET_KEY);
  });

  it.each([
    ['an EST account without its bank', ['--provider', 'est'], 'settings.bank: Şunlardan biri olmalıdır: akbank, isbank, halkbank, ziraat, teb, sekerbank, finansbank. / Must be one of: akbank, isbank, halkbank, ziraat, teb, sekerbank, finansbank.'],
    ['a bank EST does not serve', ['--provider', 'est', '--setting', 'bank=garanti'], 'settings.bank: Şunlardan biri olmalıdır: akbank, isbank,'],
    ['an EST model in capitals', ['--provider', 'est', '--setting', 'bank=akbank', '--setting', 'model=3D'], 'settings.model: Şunlardan biri olmalıdır: 3d, 3d_pay. / Must be one of: 3d, 3d_pay.'],
    ["a Garanti model without GVP's underscore", ['--provider', 'garanti', '--setting', 'model=3dpay'], 'settings.model: Şunlardan biri olmalıdır: 3d, 3d_pay. / Must be one of: 3d, 3d_pay.'],
    ['a Garanti environment', ['--provider', 'garanti', '--setting', 'environment=live'], 'settings.environment: Şunlardan biri olmalıdır: test, production. / Must be one of: test, production.'],
    ['an outage the simulator cannot play', ['--setting', 'outage=slow'], 'settings.outage: Şunlardan biri olmalıdır: none, errors, unreachable. / Must be one of: none, errors, unreachable.'],
  ])('refuses %s naming the values it takes', async (_name, words, expected) => {
    const res = await cli.run(['account', 'create', m.team, 'x', ...words]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(expected);
    expect(res.stderr).not.toContain('{allowed}');
  });

  it('starts an outage on a simulator account and ends it with outage= or outage=none', async () => {
    const created = await cli.json<AccountOut>('account', 'create', m.team, 'outage', '--setting', 'outage=errors');
    const token = created.payment_provider_token;
    const settings = async () => (await db().paymentAccount.findUniqueOrThrow({ where: { id: token } })).settings;
    expect(await settings()).toEqual({ outage: 'errors' });
    for (const end of ['outage=', 'outage=none']) {
      expect((await cli.run(['account', 'update', m.team, token, '--setting', 'outage=unreachable'])).code).toBe(0);
      expect(await settings()).toEqual({ outage: 'unreachable' });
      const res = await cli.run(['account', 'update', m.team, token, '--setting', end]);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).not.toContain('setting outage');
      expect(await settings()).toEqual({});
    }
  });

  it('update replaces the credentials wholesale (half a pair is refused) and the settings', async () => {
    const created = await cli.json<AccountOut>('account', 'create', m.team, 'to update', '--provider', 'iyzico', '--credential', `api_key=${API_KEY}`, '--credential', `secret_key=${SECRET_KEY}`);
    const token = created.payment_provider_token;
    const before = await db().paymentAccount.findUniqueOrThrow({ where: { id: token } });
    await cli.fails(['account', 'update', m.team, token, '--credential', 'api_key=sandbox-new-key-0009'], 'credentials.secret_key: Bu alan zorunludur.');
    await cli.fails(['account', 'update', m.team, token], 'Nothing to change: give --credential and/or --setting');
    expect((await db().paymentAccount.findUniqueOrThrow({ where: { id: token } })).credentials).toBe(before.credentials);

    const res = await cli.run(['account', 'update', m.team, token, '--credential', 'api_key=sandbox-new-key-0009', '--credential', 'secret_key=short', '--setting', 'base_url=https://api.iyzipay.com', '--setting', 'timeout_ms=30000']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('credential api_key      ••••0009');
    expect(res.stdout).toContain('credential secret_key   ••••\n');
    expect(res.stdout).not.toContain('sandbox-new-key-0009');
    const after = await db().paymentAccount.findUniqueOrThrow({ where: { id: token } });
    expect(after.credentials).not.toBe(before.credentials);
    expect(JSON.parse(decryptSecret(t.gateway.masterKey, after.credentials!))).toEqual({ api_key: 'sandbox-new-key-0009', secret_key: 'short' });
    expect(after.settings).toEqual({ base_url: 'https://api.iyzipay.com', timeout_ms: 30_000 });
  });

  it('workspace settings --bin-source sets an account of the workspace, or the default again', async () => {
    const set = await cli.json<{ bin_source: string | null }>('workspace', 'settings', m.team, '--bin-source', m.accountToken);
    expect(set.bin_source).toBe(m.accountToken);
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).binSourceAccountId).toBe(m.accountToken);
    const shown = await cli.run(['workspace', 'settings', m.team]);
    expect(shown.stdout).toContain(`BIN source    ${m.accountToken}`);

    await cli.fails(['workspace', 'settings', m.team, '--bin-source', merchants.other.accountToken], 'token: Ödeme hesabı bulunamadı. / Payment account not found.');
    await cli.fails(['workspace', 'settings', m.team, '--bin-source', 'abc'], 'Invalid payment account token "abc"');
    expect((await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } })).binSourceAccountId).toBe(m.accountToken);

    const cleared = await cli.json<{ bin_source: string | null }>('workspace', 'settings', m.team, '--bin-source', 'default');
    expect(cleared.bin_source).toBeNull();
    expect((await cli.run(['workspace', 'settings', m.team])).stdout).toContain('BIN source    the default account');
  });
});

describe('CLI installment plan', { timeout: 120_000 }, () => {
  it('sets the counts offered with their rates and the programs, and refuses a bad rate at its path', async () => {
    const out = await cli.json<{ installments: unknown }>('account', 'installments', m.team, m.accountToken, '--rate', '3=4.5', '--rate', '6=9', '--program', 'Bonus');
    expect(out.installments).toEqual({ counts: [3, 6], rates: { '3': '4.50', '6': '9.00' }, programs: ['Bonus'] });
    const text = await cli.run(['account', 'installments', m.team, m.accountToken, '--rate', '2=1']);
    expect(text.stdout).toContain('2=1.00%; programs: any card.');
    const before = await db().paymentAccount.findUniqueOrThrow({ where: { id: m.accountToken } });
    await cli.fails(['account', 'installments', m.team, m.accountToken, '--rate', '4=abc'], 'rates.4: ');
    expect(await db().paymentAccount.findUniqueOrThrow({ where: { id: m.accountToken } })).toEqual(before);
  });
});
