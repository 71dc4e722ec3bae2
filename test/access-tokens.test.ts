// Access tokens: create with expiry (support tokens 30 days by default), list and revoke in the CLI
// and over GraphQL; a revoked or expired token answers 401 at once, on every gateway process.
import { describe, expect, it } from 'vitest';
import { useGateway, useResources } from './helpers/fixture.ts';
import { cliOn } from './helpers/cli.ts';
import { gql } from './helpers/webhooks.ts';

const gw = useGateway({ merchants: { a: { slug: 'tok-a' }, b: { slug: 'tok-b' } } });
const { t } = gw;
const cli = cliOn(t);
const resources = useResources();

interface Created { id: string; role: string; team: string | null; name: string; expires_at: string | null; token: string }
interface Listed { id: string; role: string; team: string | null; name: string; created_at: string; expires_at: string | null; revoked_at: string | null; active: boolean }
const DAY = 24 * 60 * 60 * 1000;
const workspaces = (token: string, on = t) => gql(on, token, '{ workspaces { slug } }');

describe('access tokens', () => {
  it('a support token expires after 30 days by default; --expires-in-days sets a dashboard expiry', async () => {
    const support = await cli.json<Created>('token', 'create', '--support', '--name', 'Support desk');
    const expiresIn = Date.parse(support.expires_at!) - Date.now();
    expect(expiresIn).toBeGreaterThan(30 * DAY - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(30 * DAY);
    const forever = await cli.json<Created>('token', 'create', '--workspace', 'tok-a');
    expect(forever.expires_at).toBeNull();
    const week = await cli.json<Created>('token', 'create', '--workspace', 'tok-a', '--name', 'week', '--expires-in-days', '7');
    expect(Date.parse(week.expires_at!) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);

    expect((await workspaces(support.token)).status).toBe(200);
    expect((await workspaces(week.token)).status).toBe(200);
    t.clock.advance(8 * DAY);
    expect((await workspaces(week.token)).status).toBe(401);
    expect((await workspaces(support.token)).status).toBe(200);
    t.clock.advance(23 * DAY);
    expect((await workspaces(support.token)).status).toBe(401);
    expect((await workspaces(forever.token)).status).toBe(200);
    await cli.fails(['token', 'create', '--support', '--expires-in-days', '0'], '--expires-in-days must be a whole number of days from 1 to 3650, or never');
  });

  it('token list shows ids, roles, expiry and state, never a token; revoke stops it at once on every process', async () => {
    const second = await resources.startGateway({ databaseUrl: t.databaseUrl, clock: t.clock });
    const dash = await cli.json<Created>('token', 'create', '--workspace', 'tok-b', '--name', 'b-ops');
    expect((await workspaces(dash.token)).body.data).toEqual({ workspaces: [{ slug: 'tok-b' }] });
    expect((await workspaces(dash.token, second)).status).toBe(200);

    const listed = await cli.json<Listed[]>('token', 'list', '--workspace', 'tok-b');
    expect(listed).toEqual([{ id: dash.id, role: 'owner', team: 'tok-b', name: 'b-ops', created_at: expect.any(String), expires_at: null, revoked_at: null, active: true }]);
    expect(JSON.stringify(await cli.json<Listed[]>('token', 'list'))).not.toContain(dash.token);

    const revoked = await cli.json<Listed>('token', 'revoke', dash.id);
    expect(revoked).toMatchObject({ id: dash.id, active: false, revoked_at: expect.any(String) });
    expect((await workspaces(dash.token)).status).toBe(401);
    expect((await workspaces(dash.token, second)).status).toBe(401);
    await cli.fails(['token', 'revoke', '00000000-0000-0000-0000-000000000000'], 'No access token 00000000-0000-0000-0000-000000000000');
  });

  it('over GraphQL a dashboard lists and revokes its own tokens only; support lists all and revokes none', async () => {
    const mine = await cli.json<Created>('token', 'create', '--workspace', 'tok-a', '--name', 'gql-a');
    const spare = await cli.json<Created>('token', 'create', '--workspace', 'tok-a', '--name', 'gql-a-spare');
    const other = await cli.json<Created>('token', 'create', '--workspace', 'tok-b', '--name', 'gql-b');
    // The first test moved the gateway's clock 31 days past the CLI's.
    const support = await cli.json<Created>('token', 'create', '--support', '--name', 'gql-support', '--expires-in-days', 'never');

    const list = await gql(t, mine.token, '{ accessTokens { id name role workspace active revokedAt } }');
    expect(list.body.errors).toBeUndefined();
    const names = (list.body.data!.accessTokens as Array<{ name: string; workspace: string }>).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['gql-a', 'gql-a-spare']));
    expect(names).not.toContain('gql-b');
    const all = await gql(t, support.token, '{ accessTokens { name } }');
    expect(all.body.errors, JSON.stringify(all.body)).toBeUndefined();
    expect((all.body.data!.accessTokens as Array<{ name: string }>).map((r) => r.name)).toEqual(expect.arrayContaining(['gql-a', 'gql-b', 'gql-support']));

    const revoke = 'mutation ($id: ID!) { revokeAccessToken(id: $id) { result { successful message } accessToken { id active } errors { code path } } }';
    const foreign = await gql(t, mine.token, revoke, { id: other.id });
    expect(foreign.body.data!.revokeAccessToken).toEqual({ result: { successful: false, message: 'Access token not found.' }, accessToken: null, errors: [{ code: 'access_token_not_found', path: ['id'] }] });
    expect((await workspaces(other.token)).status).toBe(200);

    const byStaff = await gql(t, support.token, revoke, { id: spare.id });
    expect(byStaff.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await workspaces(spare.token)).status).toBe(200);

    const done = await gql(t, mine.token, revoke, { id: spare.id });
    expect(done.body.data!.revokeAccessToken).toEqual({ result: { successful: true, message: null }, accessToken: { id: spare.id, active: false }, errors: [] });
    expect((await workspaces(spare.token)).status).toBe(401);
    expect((await workspaces(mine.token)).status).toBe(200);
  });
});
