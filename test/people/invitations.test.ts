// A pending invitation sent again (a new link by a real SMTP message, the old link dead, a new
// expiry) and cancelled (its link dead at once, gone from the list); another workspace's
// invitation is not found; both are owners' and audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { INVITATION_DAYS } from '../../src/domain/people/members.ts';
import { seedWorkspace, startTestGateway, type TestGateway } from '../helpers/gateway.ts';
import { startMailBox, type MailBox } from '../helpers/smtp.ts';

let t: TestGateway;
let box: MailBox;
let owner: string;
let viewer: string;
let stranger: string;

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function gql(token: string | null, query: string, variables?: Record<string, unknown>): Promise<Body> {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as Body;
}

async function linkFromMail(email: string): Promise<string> {
  const mail = await box.waitFor(email, /#invitation=/);
  box.mails.splice(box.mails.indexOf(mail), 1);
  return decodeURIComponent(/#invitation=([^\s&]+)/.exec(mail.text)![1]!);
}

const INVITE = 'mutation ($email: String!) { inviteMember(email: $email, role: viewer) { invitation { id } errors { code } } }';
const RESEND = 'mutation ($id: ID!) { resendInvitation(id: $id) { invitation { id email expiresAt } errors { code path } } }';
const CANCEL = 'mutation ($id: ID!) { cancelInvitation(id: $id) { invitation { id } errors { code path } } }';
const PREVIEW = 'query ($t: String!) { invitation(invitationToken: $t) { email } }';

beforeAll(async () => {
  box = await startMailBox();
  t = await startTestGateway({ env: { SMTP_URL: box.url, MAIL_FROM: 'Kasa <kasa@example.com>' } });
  await seedWorkspace(t, { slug: 'inv' });
  await seedWorkspace(t, { slug: 'inv-other' });
  owner = await createAccessToken(t.gateway.services.db, 'inv', 'owner desk');
  viewer = await createAccessToken(t.gateway.services.db, 'inv', 'viewer desk', { role: 'viewer' });
  stranger = await createAccessToken(t.gateway.services.db, 'inv-other', 'other owner');
});
afterAll(async () => {
  await t?.stop();
  await box?.close();
});

describe('pending invitations', () => {
  it('sent again: a new link by e-mail, the old one dead, a new expiry', async () => {
    const id = (await gql(owner, INVITE, { email: 'again@example.com' })).data.inviteMember.invitation.id as string;
    const first = await linkFromMail('again@example.com');
    t.clock.advance(3 * 24 * 3600_000);
    const resent = await gql(owner, RESEND, { id });
    expect(resent.data.resendInvitation.errors).toEqual([]);
    expect(new Date(resent.data.resendInvitation.invitation.expiresAt).getTime()).toBe(t.clock.now().getTime() + INVITATION_DAYS * 24 * 3600_000);
    const second = await linkFromMail('again@example.com');
    expect(second).not.toBe(first);
    expect((await gql(null, PREVIEW, { t: first })).data.invitation).toBeNull();
    expect((await gql(null, PREVIEW, { t: second })).data.invitation).toEqual({ email: 'again@example.com' });
    expect(await t.gateway.services.db.auditEntry.count({ where: { operation: 'resendInvitation', outcome: 'done', tokenName: 'owner desk' } })).toBe(1);
  });

  it('cancelled: the link dead at once and gone from the list; another workspace finds nothing; a viewer may not', async () => {
    const id = (await gql(owner, INVITE, { email: 'never@example.com' })).data.inviteMember.invitation.id as string;
    const link = await linkFromMail('never@example.com');
    expect((await gql(viewer, CANCEL, { id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gql(stranger, CANCEL, { id })).data.cancelInvitation.errors).toEqual([{ code: 'invitation_not_found', path: ['id'] }]);
    expect((await gql(stranger, RESEND, { id })).data.resendInvitation.errors).toEqual([{ code: 'invitation_not_found', path: ['id'] }]);
    expect((await gql(owner, CANCEL, { id: 'not-a-uuid' })).data.cancelInvitation.errors).toEqual([{ code: 'invitation_not_found', path: ['id'] }]);

    expect((await gql(owner, CANCEL, { id })).data.cancelInvitation).toEqual({ invitation: { id }, errors: [] });
    expect((await gql(null, PREVIEW, { t: link })).data.invitation).toBeNull();
    const accept = await gql(null, 'mutation ($t: String!) { acceptInvitation(invitationToken: $t, password: "long enough password") { errors { code } } }', { t: link });
    expect(accept.data.acceptInvitation.errors).toEqual([{ code: 'invitation_invalid' }]);
    expect((await gql(owner, '{ invitations { email } }')).data.invitations.map((i: { email: string }) => i.email)).not.toContain('never@example.com');
    expect((await gql(owner, CANCEL, { id })).data.cancelInvitation.errors).toEqual([{ code: 'invitation_not_found', path: ['id'] }]);
    expect(await t.gateway.services.db.auditEntry.count({ where: { operation: 'cancelInvitation', outcome: 'done' } })).toBe(1);
  });
});
