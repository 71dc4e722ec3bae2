// A workspace's cascade bound and health thresholds: set over GraphQL (setRoutingResilience) and
// the CLI (`workspace resilience`), read back on the workspace and its accounts; each value out of
// its range is refused at its own field with the range, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest';
import { useGateway } from '../helpers/fixture.ts';
import { cliOn } from '../helpers/cli.ts';
import { gql } from '../helpers/webhooks.ts';
import { createAccessToken } from '../../src/domain/access-tokens.ts';

const { t, merchant: m } = useGateway({ merchant: true });
const cli = cliOn(t);
const db = () => t.gateway.services.db;
let token: string;
beforeAll(async () => {
  token = await createAccessToken(db(), m.team, 'resilience');
});

const SET = `mutation Set($input: RoutingResilienceInput!) {
  setRoutingResilience(input: $input) {
    result { successful }
    errors { path code message }
    workspace { cascadeExtraAttempts healthWindowSeconds healthMinFailures healthFailurePercent healthCooldownSeconds healthProbePayments }
  }
}`;
const settings = async () => {
  const w = await db().workspace.findUniqueOrThrow({ where: { id: m.workspaceId } });
  return [w.cascadeExtraAttempts, w.healthWindowSeconds, w.healthMinFailures, w.healthFailurePercent, w.healthCooldownSeconds, w.healthProbePayments];
};

describe('routing resilience settings', () => {
  it('start at the documented defaults and show on the workspace, with each account\u2019s health', async () => {
    expect(await settings()).toEqual([2, 60, 5, 50, 30, 3]);
    const res = await gql(t, token, '{ workspace { cascadeExtraAttempts healthProbePayments paymentAccounts { token health healthChangedAt } } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toMatchObject({ workspace: { cascadeExtraAttempts: 2, healthProbePayments: 3, paymentAccounts: [{ token: m.accountToken, health: 'healthy', healthChangedAt: null }] } });
  });

  it('GraphQL changes only the values given', async () => {
    const res = await gql(t, token, SET, { input: { cascadeExtraAttempts: 1, healthCooldownSeconds: 120 } });
    expect(res.body.data).toMatchObject({ setRoutingResilience: { result: { successful: true }, errors: [], workspace: { cascadeExtraAttempts: 1, healthWindowSeconds: 60, healthCooldownSeconds: 120 } } });
    expect(await settings()).toEqual([1, 60, 5, 50, 120, 3]);
  });

  it.each([
    ['cascadeExtraAttempts', 6, 'Must be an integer from 0 to 5.'],
    ['cascadeExtraAttempts', -1, 'Must be an integer from 0 to 5.'],
    ['healthWindowSeconds', 9, 'Must be an integer from 10 to 3600.'],
    ['healthMinFailures', 0, 'Must be an integer from 1 to 1000.'],
    ['healthFailurePercent', 101, 'Must be an integer from 1 to 100.'],
    ['healthCooldownSeconds', 3601, 'Must be an integer from 5 to 3600.'],
    ['healthProbePayments', 0, 'Must be an integer from 1 to 100.'],
  ])('GraphQL refuses %s = %s at its path, and writes nothing', async (field, value, message) => {
    const before = await settings();
    const res = await gql(t, token, SET, { input: { [field]: value, healthProbePayments: field === 'healthProbePayments' ? value : 4 } });
    expect(res.body.data).toMatchObject({ setRoutingResilience: { result: { successful: false }, errors: [{ path: [field], code: 'integer_between', message }], workspace: null } });
    expect(await settings()).toEqual(before);
  });

  it('the CLI shows and sets them, and refuses a value out of range at its field', async () => {
    const out = await cli.json<Record<string, number>>('workspace', 'resilience', m.team, '--cascade', '0', '--health-probes', '5');
    expect(out).toMatchObject({ cascadeExtraAttempts: 0, healthProbePayments: 5 });
    expect((await cli.run(['workspace', 'resilience', m.team])).stdout).toContain('cascade             0 more account(s) after a technical failure');
    const before = await settings();
    await cli.fails(['workspace', 'resilience', m.team, '--health-failure-percent', '0'], 'healthFailurePercent:');
    await cli.fails(['workspace', 'resilience', m.team, '--cascade', 'two'], 'cascadeExtraAttempts:');
    expect(await settings()).toEqual(before);
  });
});
