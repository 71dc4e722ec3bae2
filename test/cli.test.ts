// The admin CLI as an operator uses it, on the gateway's database: in-process (runCli) for every
// command, and once as the real executable.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useGateway } from './helpers/fixture.ts';
import { cliOn } from './helpers/cli.ts';
import { call, type MerchantCredentials } from './helpers/client.ts';
import type { accountJson, ruleJson, workspaceJson } from '../src/cli/format.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const gw = useGateway();
const { t } = gw;
const cli = cliOn(t);
const cliJson = cli.json;

type WorkspaceOut = ReturnType<typeof workspaceJson>;
type AccountOut = ReturnType<typeof accountJson>;
type RuleOut = ReturnType<typeof ruleJson>;
interface CredentialsOut {
  team: string;
  api_key: string;
  api_secret: string;
}
interface TokenOut {
  role: string;
  team: string | null;
  name: string;
  token: string;
}
interface GraphQLData {
  workspaces?: Array<{ slug: string }>;
  workspace?: { slug: string } | null;
}

/** Workspaces the CLI then acts on; creating one through the CLI is the first test's subject. */
const createMerchant = (slug: string): Promise<MerchantCredentials> => gw.seed({ slug });

const retrieveBin = (creds: MerchantCredentials) => call(t.gateway.baseUrl, creds, 'retrieve-bin', { card: { bin: '41111111' }, transaction: { amount: '100.00' } });

async function graphql(token: string, query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as { data?: GraphQLData; errors?: unknown[] } };
}

describe('gateway CLI', { timeout: 120_000 }, () => {
  it('workspace create prints a key and secret that authenticate a signed call', async () => {
    const text = await cli.run(['workspace', 'create', 'acme', '--time-zone', 'Europe/London', '--plan', 'orders,saved_cards']);
    expect(text.code).toBe(0);
    const apiKey = /api_key\s+(pk_\w+)/.exec(text.stdout)?.[1];
    const apiSecret = /api_secret\s+(sk_\w+)/.exec(text.stdout)?.[1];
    expect(apiKey && apiSecret).toBeTruthy();
    await cliJson<unknown>('channel', 'create', 'acme', 'Web');
    const account = await cliJson<AccountOut>('account', 'create', 'acme', 'Simulator', '--currencies', 'TRY', '--capabilities', 'secure,refund', '--default');
    expect(account).toMatchObject({ provider: 'simulator', currencies: ['TRY'], capabilities: ['secure', 'refund'], default: true });

    const res = await retrieveBin({ team: 'acme', apiKey: apiKey!, apiSecret: apiSecret! });
    expect(res.status).toBe(200);
    expect(res.body.card.scheme).toBe('visa');

    const [listed] = await cliJson<WorkspaceOut[]>('workspace', 'list');
    expect(listed).toMatchObject({ team: 'acme', active: true, mode: 'test', time_zone: 'Europe/London', plan: ['orders', 'saved_cards'], default_payment_provider_token: account.payment_provider_token });
  });

  it('workspace suspend makes calls 403 until activate', async () => {
    const creds = await createMerchant('suspendme');
    expect((await retrieveBin(creds)).status).toBe(200);
    expect((await cliJson<WorkspaceOut>('workspace', 'suspend', 'suspendme')).active).toBe(false);
    // The gateway forgets a remembered admission when the change's notification arrives.
    await t.gateway.admission.synced();
    expect((await retrieveBin(creds)).status).toBe(403);
    await cliJson<WorkspaceOut>('workspace', 'activate', 'suspendme');
    await t.gateway.admission.synced();
    expect((await retrieveBin(creds)).status).toBe(200);
  });

  it('workspace limits shows and sets the workspace\'s own 429 limits; default goes back to the gateway setting', async () => {
    const creds = await createMerchant('limited');
    expect(await cliJson('workspace', 'limits', 'limited')).toEqual({ team: 'limited', per_second: null, links_per_minute: null });
    expect(await cliJson('workspace', 'limits', 'limited', '--per-second', '2', '--links-per-minute', '0')).toEqual({ team: 'limited', per_second: 2, links_per_minute: 0 });
    expect((await cli.run(['workspace', 'limits', 'limited'])).stdout).toContain('per second (every operation)     2');
    await t.gateway.admission.synced();
    const burst = await Promise.all(Array.from({ length: 8 }, () => retrieveBin(creds)));
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(await cliJson('workspace', 'limits', 'limited', '--per-second', 'default')).toEqual({ team: 'limited', per_second: null, links_per_minute: 0 });
    await cli.fails(['workspace', 'limits', 'limited', '--per-second', '-1'], 'Invalid limit "-1"');
    await cli.fails(['workspace', 'limits', 'limited', '--links-per-minute', 'lots'], 'Invalid limit "lots"');
  });

  it('workspace rotate-key revokes the old key and issues a working one', async () => {
    const old = await createMerchant('rotator');
    const rotated = await cliJson<CredentialsOut>('workspace', 'rotate-key', 'rotator');
    expect(rotated.api_key).not.toBe(old.apiKey);
    await t.gateway.admission.synced();
    expect((await retrieveBin(old)).status).toBe(401);
    expect((await retrieveBin({ team: 'rotator', apiKey: rotated.api_key, apiSecret: rotated.api_secret })).status).toBe(200);
  });

  it('workspace plan and time-zone change the workspace', async () => {
    await createMerchant('planner');
    expect((await cliJson<WorkspaceOut>('workspace', 'plan', 'planner', 'payment_links,pay_by_link')).plan).toEqual(['payment_links', 'pay_by_link']);
    expect((await cliJson<WorkspaceOut>('workspace', 'plan', 'planner', 'none')).plan).toEqual([]);
    expect((await cliJson<WorkspaceOut>('workspace', 'time-zone', 'planner', 'America/New_York')).time_zone).toBe('America/New_York');
  });

  it('routing add, list and remove round-trip', async () => {
    await createMerchant('router');
    const troy = await cliJson<AccountOut>('account', 'create', 'router', 'Troy account', '--currencies', 'TRY');
    const token = troy.payment_provider_token;
    const first = await cliJson<RuleOut>('routing', 'add', 'router', '--account', token, '--scheme', 'troy', '--card-type', 'debit', '--currency', 'try', '--min-amount', '10', '--max-amount', '2500.50');
    const second = await cliJson<RuleOut>('routing', 'add', 'router', '--account', token, '--bin-prefix', '979203', '--issuer-code', '0001');
    expect(first).toMatchObject({ position: 1, payment_provider_token: token, scheme: 'troy', card_type: 'debit', currency: 'TRY', min_amount: '10.00', max_amount: '2500.50', bin_prefix: null });
    expect(second).toMatchObject({ position: 2, bin_prefix: '979203', issuer_code: '0001', min_amount: null });

    expect((await cliJson<RuleOut[]>('routing', 'list', 'router')).map((r) => r.id)).toEqual([first.id, second.id]);
    const text = await cli.run(['routing', 'list', 'router']);
    expect(text.stdout).toContain('scheme=troy card_type=debit currency=TRY min_amount=10.00 max_amount=2500.50');

    await cliJson<unknown>('routing', 'remove', 'router', first.id);
    expect((await cliJson<RuleOut[]>('routing', 'list', 'router')).map((r) => r.id)).toEqual([second.id]);
    const again = await cli.run(['routing', 'remove', 'router', first.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`No routing rule ${first.id}`);
  });

  it('account default switches the default account', async () => {
    await createMerchant('switcher');
    const other = await cliJson<AccountOut>('account', 'create', 'switcher', 'Second');
    expect(other.default).toBe(false);
    await cliJson<AccountOut>('account', 'default', 'switcher', other.payment_provider_token);
    const accounts = await cliJson<AccountOut[]>('account', 'list', 'switcher');
    expect(accounts.filter((a) => a.default).map((a) => a.name)).toEqual(['Second']);
  });

  it('token create gives a dashboard token for one workspace and a support token for all', async () => {
    await createMerchant('dash-a');
    await createMerchant('dash-b');
    const dashboard = await cliJson<TokenOut>('token', 'create', '--workspace', 'dash-a', '--name', 'Ops dashboard');
    const support = await cliJson<TokenOut>('token', 'create', '--support');
    expect(dashboard).toMatchObject({ role: 'owner', team: 'dash-a', name: 'Ops dashboard' });
    expect(support).toMatchObject({ role: 'support', team: null });

    const own = await graphql(dashboard.token, '{ workspaces { slug } }');
    expect(own.body.data?.workspaces).toEqual([{ slug: 'dash-a' }]);
    const all = await graphql(support.token, '{ workspaces { slug } }');
    expect(all.body.data?.workspaces?.map((w) => w.slug)).toEqual(expect.arrayContaining(['dash-a', 'dash-b', 'acme']));
    const one = await graphql(support.token, 'query ($slug: String) { workspace(slug: $slug) { slug } }', { slug: 'dash-b' });
    expect(one.body.data?.workspace).toEqual({ slug: 'dash-b' });
    expect((await graphql(`${dashboard.token}x`, '{ workspaces { slug } }')).status).toBe(401);
  });

  it('token create <team> <name> --role gives a token of that role; token list shows it', async () => {
    await createMerchant('dash-r');
    const operator = await cliJson<TokenOut>('token', 'create', 'dash-r', 'Refund desk', '--role', 'operator');
    expect(operator).toMatchObject({ role: 'operator', team: 'dash-r', name: 'Refund desk' });
    const listed = await cliJson<TokenOut[]>('token', 'list', '--workspace', 'dash-r');
    expect(listed.map((r) => [r.name, r.role])).toEqual([['Refund desk', 'operator']]);
    const refused = await graphql(operator.token, 'mutation { rotateApiCredentials { result { successful } } }');
    expect((refused.body as { errors?: Array<{ extensions?: { code?: string } }> }).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it.each([
    ['an unknown role', ['token', 'create', 'acme', 'x', '--role', 'admin'], '--role must be one of owner, developer, operator, viewer'],
    ['a support token with a role', ['token', 'create', '--support', '--role', 'viewer'], 'A support token has no role'],
    ['an unknown workspace', ['channel', 'create', 'nope', 'Web'], 'No workspace "nope"'],
    ['a bad time zone', ['workspace', 'time-zone', 'acme', 'Mars/Olympus'], 'Unknown time zone "Mars/Olympus"'],
    ['a bad amount', ['routing', 'add', 'acme', '--account', '00000000-0000-0000-0000-000000000000', '--min-amount', '10.001'], 'Invalid amount for --min-amount: "10.001"'],
    ['a duplicate slug', ['workspace', 'create', 'acme'], 'Workspace "acme" already exists'],
    ['an unknown plan feature', ['workspace', 'plan', 'acme', 'orders,loans'], 'Unknown plan feature "loans"'],
    ['an unknown account', ['account', 'default', 'acme', '00000000-0000-0000-0000-000000000000'], 'No payment account 00000000-0000-0000-0000-000000000000 in "acme"'],
    ['a malformed token', ['routing', 'add', 'acme', '--account', 'abc'], 'Invalid payment account token "abc"'],
    ['a token without a target', ['token', 'create'], 'Give exactly one of --workspace <slug> or --support'],
  ])('%s exits 1 with a one-line message', async (_name, args, message) => {
    await cli.fails(args, message);
  });
});

describe('the gateway executable', () => {
  it('prints its help with exit 0, and an error with exit 1', async () => {
    const run = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
        });
      });

    const help = await run('--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: gateway \[options\] \[command\]/);
    expect(help.stdout).toContain('npm run gateway -- --json workspace list');

    const refused = await run('workspace', 'create', 'Not A Slug');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^error: Invalid workspace slug "Not A Slug"/);
  });
});
