// The dashboard's `can` (dashboard/src/kit/can.ts) fed by the shell's own WhoAmI query, read from
// App.tsx and sent to a real gateway with tokens of each kind: an operator may refund but not
// create tokens, a viewer and support staff may change nothing, an owner everything; before the
// answer nothing is allowed.
import { describe, expect, it } from 'vitest';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { MUTATION_ROLES } from '../../src/graphql/roles.ts';
import { canFrom } from '../../dashboard/src/kit/can.ts';
import { dashboardOperations } from '../helpers/dashboard-queries.ts';
import { useGateway } from '../helpers/fixture.ts';

const { t, merchant: m } = useGateway({ merchant: true });

const WHO_AM_I = dashboardOperations().find((o) => o.file === 'dashboard/src/App.tsx' && /query WhoAmI\b/.test(o.document))!.document;

/** `can` as the shell builds it for this token. */
async function canOf(token: string) {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: WHO_AM_I }),
  });
  const body = (await res.json()) as { data: { viewerPermissions: string[] }; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return canFrom(body.data.viewerPermissions);
}

describe("the dashboard's can()", () => {
  it('allows nothing before the gateway has answered', () => {
    expect(canFrom(undefined)('refundPayment')).toBe(false);
    expect(canFrom(null)('refundPayment')).toBe(false);
  });

  it("follows the token's role, through the shell's WhoAmI query", async () => {
    const db = t.gateway.services.db;
    const operator = await canOf(await createAccessToken(db, m.team, 'operator', { role: 'operator' }));
    expect(operator('refundPayment')).toBe(true);
    expect(operator('createPaymentLink')).toBe(true);
    // A token within its own role: an operator may make one for an operator's automation.
    expect(operator('createAccessToken')).toBe(true);
    expect(operator('rotateApiCredentials')).toBe(false);
    expect(operator('noSuchMutation')).toBe(false);

    const developer = await canOf(await createAccessToken(db, m.team, 'developer', { role: 'developer' }));
    expect(developer('rotateApiCredentials')).toBe(true);
    expect(developer('refundPayment')).toBe(false);

    const owner = await canOf(await createAccessToken(db, m.team, 'owner', { role: 'owner' }));
    for (const name of Object.keys(MUTATION_ROLES)) expect(owner(name), name).toBe(true);

    // A viewer changes nothing of the workspace's, only what is one's own (invitations, sessions,
    // password resets and changes, the second factor); support staff change nothing.
    const own = new Set(['acceptInvitation', 'requestPasswordReset', 'resetPassword', 'revokeSession', 'changePassword', 'startTwoFactor', 'confirmTwoFactor', 'disableTwoFactor', 'confirmSecondFactor']);
    const viewer = await canOf(await createAccessToken(db, m.team, 'viewer', { role: 'viewer' }));
    for (const name of Object.keys(MUTATION_ROLES)) expect(viewer(name), name).toBe(own.has(name));
    const support = await canOf(await createAccessToken(db, null, 'support'));
    for (const name of Object.keys(MUTATION_ROLES)) expect(support(name), name).toBe(false);
  });
});
