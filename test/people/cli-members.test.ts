// `gateway member list | role | remove` on a real database: the team by e-mail with the
// dashboard's rules (the last owner stays, a removed member's session is refused at once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvitation, createInvitation } from '../../src/domain/people/members.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { cliOn, type Cli } from '../helpers/cli.ts';

let t: TestGateway;
let cli: Cli;
const PASSWORD = 'correct horse battery';

async function join(email: string, role: 'owner' | 'operator'): Promise<void> {
  const workspace = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { slug: 'crew' } });
  const { link } = await createInvitation(t.gateway.services, workspace, { label: 'test', role: 'owner' }, { email, role });
  await acceptInvitation(t.gateway.services.db, { token: decodeURIComponent(link.split('#invitation=')[1]!), password: PASSWORD }, t.clock);
}

beforeAll(async () => {
  t = await startTestGateway();
  await seedWorkspace(t, { slug: 'crew' });
  cli = cliOn(t);
  await join('boss@crew.example', 'owner');
  t.clock.advance(1000); // members list oldest first
  await join('hand@crew.example', 'operator');
  const workspace = await t.gateway.services.db.workspace.findUniqueOrThrow({ where: { slug: 'crew' } });
  await createInvitation(t.gateway.services, workspace, { label: 'test', role: 'owner' }, { email: 'soon@crew.example', role: 'viewer' });
});
afterAll(async () => {
  await t?.stop();
});

describe('gateway member list | role | remove', () => {
  it('lists members and pending invitations', async () => {
    const listed = await cli.json<{ members: Array<{ email: string; role: string; two_factor: boolean }>; invitations: Array<{ email: string; role: string }> }>('member', 'list', 'crew');
    expect(listed.members.map((x) => [x.email, x.role, x.two_factor])).toEqual([['boss@crew.example', 'owner', false], ['hand@crew.example', 'operator', false]]);
    expect(listed.invitations.map((i) => [i.email, i.role])).toEqual([['soon@crew.example', 'viewer']]);
    const text = await cli.run(['member', 'list', 'crew']);
    expect(text.stdout).toContain('hand@crew.example  operator  since');
  });

  it('changes a role by e-mail; the last owner keeps theirs; a bad role or an unknown e-mail is said', async () => {
    expect(await cli.json('member', 'role', 'crew', 'Hand@Crew.example', 'developer')).toEqual({ team: 'crew', email: 'hand@crew.example', role: 'developer' });
    await cli.fails(['member', 'role', 'crew', 'boss@crew.example', 'viewer'], 'id: The last owner of the workspace cannot be removed or given another role.');
    await cli.fails(['member', 'role', 'crew', 'hand@crew.example', 'boss'], '--role must be one of owner, developer, operator, viewer');
    await cli.fails(['member', 'role', 'crew', 'nobody@crew.example', 'viewer'], 'email: Team member not found.');
  });

  it("removes a member, whose open session is refused at once; the last owner stays", async () => {
    const signIn = await fetch(`${t.gateway.baseUrl}/auth/sign-in`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: 'hand@crew.example', password: PASSWORD }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const ask = () => fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-CSRF-Token': csrfToken }, body: JSON.stringify({ query: '{ viewerRole }' }) });
    expect((await ask()).status).toBe(200);

    expect(await cli.json('member', 'remove', 'crew', 'hand@crew.example')).toEqual({ team: 'crew', email: 'hand@crew.example', removed: true });
    expect((await ask()).status).toBe(401);
    await cli.fails(['member', 'remove', 'crew', 'boss@crew.example'], 'id: The last owner of the workspace cannot be removed or given another role.');
    const listed = await cli.json<{ members: Array<{ email: string }> }>('member', 'list', 'crew');
    expect(listed.members.map((x) => x.email)).toEqual(['boss@crew.example']);
  });
});
