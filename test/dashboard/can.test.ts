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
    expect(operator('createAccessToken')).toBe(false);
    expect(operator('rotateApiCredentials')).toBe(false);
    expect(operator('noSuchMutation')).toBe(false);

    const developer = await canOf(await createAccessToken(db, m.team, 'developer', { role: 'developer' }));
    expect(developer('rotateApiCredentials')).toBe(true);
    expect(developer('refundPayment')).toBe(false);

    const owner = await canOf(await createAccessToken(db, m.team, 'owner', { role: 'owner' }));
    for (const name of Object.keys(MUTATION_ROLES)) expect(owner(name), name).toBe(true);

    for (const token of [await createAccessToken(db, m.team, 'viewer', { role: 'viewer' }), await createAccessToken(db, null, 'support')]) {
      const can = await canOf(token);
      for (const name of Object.keys(MUTATION_ROLES)) expect(can(name), name).toBe(false);
    }
  });
});
