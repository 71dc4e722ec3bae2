// Every change made with the CLI is an audit entry, as the same change made in the dashboard is:
// the GraphQL operation's name (or one of the CLI's own for what only it changes), the arguments
// and options given, under the operating-system account that ran it. A credential given on the
// command line never reaches the trail; a refused command and a read write nothing there.
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { cliOn } from '../helpers/cli.ts';

const { t } = useGateway();
const cli = cliOn(t);

describe('the CLI on the audit trail', () => {
  it('records each write under the account that ran it, without the credentials given, and no read or refused command', async () => {
    const run = async (...args: string[]) => {
      const res = await cli.run(['--json', ...args], { USER: 'ops' });
      expect(res.code, res.stderr).toBe(0);
      expect(res.stderr).toBe('');
      return JSON.parse(res.stdout) as Record<string, unknown>;
    };
    await run('workspace', 'create', 'audited-shop', '--bare');
    const account = await run('account', 'create', 'audited-shop', 'Card POS', '--provider', 'iyzico', '--credential', 'api_key=sandbox-key-1', '--credential', 'secret_key=sandbox-secret-TOP', '--setting', 'base_url=https://sandbox-api.iyzipay.com');
    const token = account.payment_provider_token as string;
    await run('account', 'default', 'audited-shop', token);
    await run('routing', 'add', 'audited-shop', '--account', token, '--scheme', 'visa', '--min-amount', '10.00');
    await run('workspace', 'time-zone', 'audited-shop', 'Europe/Berlin');
    await run('token', 'create', 'audited-shop', 'ops viewer', '--role', 'viewer');
    // Reads and refusals leave nothing.
    await run('account', 'list', 'audited-shop');
    await cli.fails(['routing', 'add', 'audited-shop', '--account', token, '--min-amount', '20.00', '--max-amount', '10.00'], '--min-amount is above --max-amount');

    const workspace = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { slug: 'audited-shop' } });
    const entries = await t.gateway.services.db.auditEntry.findMany({ where: { workspaceId: workspace.id }, orderBy: { createdAt: 'asc' } });
    expect(entries.map((e) => [e.operation, e.outcome, e.role, e.tokenId])).toEqual([
      ['createWorkspace', 'done', 'owner', null],
      ['createPaymentAccount', 'done', 'owner', null],
      ['setDefaultPaymentAccount', 'done', 'owner', null],
      ['addRoutingRule', 'done', 'owner', null],
      ['setWorkspaceTimeZone', 'done', 'owner', null],
      ['createAccessToken', 'done', 'owner', null],
    ]);
    expect(new Set(entries.map((e) => e.tokenName))).toEqual(new Set([`cli: ops@${hostname()}`]));
    expect(entries[1]!.variables).toMatchObject({ slug: 'audited-shop', name: 'Card POS', provider: 'iyzico', setting: { base_url: 'https://sandbox-api.iyzipay.com' } });
    expect(entries[3]!.variables).toMatchObject({ slug: 'audited-shop', account: token, scheme: 'visa', minAmount: '1000' });
    expect(entries[5]!.variables).toMatchObject({ team: 'audited-shop', name: 'ops viewer', role: 'viewer' });
    const stored = JSON.stringify(entries.map((e) => e.variables));
    expect(stored).not.toContain('sandbox-secret-TOP');
    expect(stored).not.toContain('sandbox-key-1');
  });
});
