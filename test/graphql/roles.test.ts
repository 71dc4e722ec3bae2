// Token roles over the whole schema: the role table names every mutation, and for every mutation
// and every role the gateway either lets the call through to its resolver or refuses it with
// FORBIDDEN having written nothing (every table but the audit trail compared before and after).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType,
  type GraphQLArgument, type GraphQLInputType,
} from 'graphql';
import { createAccessToken } from '../../src/domain/access-tokens.ts';
import { schema } from '../../src/graphql/schema.ts';
import { allowedMutations, FIELD_ROLES, MUTATION_ROLES, mutationRefusal, QUERY_ROLES } from '../../src/graphql/roles.ts';
import type { GraphQLContext } from '../../src/graphql/context.ts';
import { CARDS, paymentBody } from '../helpers/payments.ts';
import { seedWorkspace, startTestGateway, type Merchant, type TestGateway } from '../helpers/gateway.ts';

let t: TestGateway;
// The mutations run for real with sample input (rotateApiCredentials rotates the key): the field
// checks use a workspace of their own.
let m: Merchant;
const ROLES = ['owner', 'developer', 'operator', 'viewer'] as const;
const tokens: Record<string, string> = {};
const readers: Record<string, string> = {};

type GqlError = { message: string; extensions?: { code?: string } };
async function gql(token: string, query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${t.gateway.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: GqlError[] } };
}

const mutationFields = () => Object.values(schema.getMutationType()!.getFields());

/** A value GraphQL accepts for a type (the domain may still refuse it): enough to reach the resolver. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0]!.value;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type));
    return Object.fromEntries(fields.map((f) => [f.name, sample(f.type)]));
  }
  const name = getNamedType(type).name;
  const scalars: Record<string, unknown> = { String: 'x', ID: '00000000-0000-4000-8000-000000000000', Int: 1, Float: 1, Boolean: true, AmountInput: '1.00', DateTime: '2026-01-01T00:00:00Z', JSON: {} };
  return scalars[name] ?? 'x';
}

/** `mutation ($a: T!, …) { name(a: $a, …) { __typename } }` with sample values for the required arguments. */
function callOf(name: string): { query: string; variables: Record<string, unknown> } {
  const field = schema.getMutationType()!.getFields()[name]!;
  const args = field.args.filter((a: GraphQLArgument) => isNonNullType(a.type));
  const decl = args.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const pass = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  const selection = isObjectType(getNamedType(field.type)) ? '{ __typename }' : '';
  const head = decl ? `mutation (${decl})` : 'mutation';
  return { query: `${head} { ${name}${pass ? `(${pass})` : ''} ${selection} }`, variables: Object.fromEntries(args.map((a) => [a.name, sample(a.type)])) };
}

/** Every row of every table but the audit trail, hashed: equal before and after means nothing was written. */
async function fingerprint(): Promise<string> {
  const tables = await t.gateway.services.db.$queryRawUnsafe<Array<{ tablename: string }>>(
    `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('AuditEntry') AND tablename NOT LIKE '\\_%' AND tablename NOT LIKE 'rate\\_limit%' ORDER BY tablename`,
  );
  const parts = await Promise.all(
    tables.map(async ({ tablename }) => {
      const [row] = await t.gateway.services.db.$queryRawUnsafe<Array<{ h: string | null }>>(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS h FROM "${tablename}" x`);
      return `${tablename}:${row?.h ?? ''}`;
    }),
  );
  return parts.join(',');
}

beforeAll(async () => {
  t = await startTestGateway();
  await seedWorkspace(t, { slug: 'roles' });
  m = await seedWorkspace(t, { slug: 'fields' });
  for (const role of ROLES) tokens[role] = await createAccessToken(t.gateway.services.db, 'roles', `${role} token`, { role });
  for (const role of ROLES) readers[role] = await createAccessToken(t.gateway.services.db, 'fields', `${role} reader`, { role });
  tokens.support = await createAccessToken(t.gateway.services.db, null, 'support token');
});
afterAll(() => t?.stop());

/** What every role may call: a link's token or the person's own session (their sessions, password, second factor) is the proof. */
const SELF = ['acceptInvitation', 'changePassword', 'confirmSecondFactor', 'confirmTwoFactor', 'disableTwoFactor', 'requestPasswordReset', 'resetPassword', 'revokeSession', 'startTwoFactor'];

describe('the role table', () => {
  it('names every mutation of the schema, and nothing else', () => {
    const inSchema = mutationFields().map((f) => f.name).sort();
    expect(Object.keys(MUTATION_ROLES).sort()).toEqual(inSchema);
    for (const roles of Object.values(MUTATION_ROLES)) expect(roles).toContain('owner');
  });

  it('keeps the policy: viewers change nothing, operators handle money back, developers integrate, owners manage tokens', () => {
    const allowedTo = (role: string) => Object.keys(MUTATION_ROLES).filter((name) => (MUTATION_ROLES[name] as readonly string[]).includes(role)).sort();
    // A link's token or a person's own session is the proof for these; a viewer changes nothing else.
    expect(allowedTo('viewer')).toEqual(SELF);
    expect(allowedTo('owner')).toEqual(Object.keys(MUTATION_ROLES).sort());
    expect(allowedTo('operator')).toEqual([...SELF, 'cancelPayment', 'cancelSubscription', 'createAccessToken', 'createPaymentLink', 'defaultSavedCard', 'deleteSavedCard', 'refundPayment', 'saveProduct', 'updatePaymentLink'].sort());
    expect(allowedTo('developer')).toEqual([
      ...SELF, 'createAccessToken',
      'addRiskListEntry', 'addWebhookAddress', 'advanceTestClock', 'createChannel', 'deleteWebhookAddress', 'disableWebhookAddress', 'enableWebhookAddress',
      'removeRiskListEntry', 'removeRiskRule', 'resendNotification', 'rotateApiCredentials', 'rotateWebhookSecret', 'saveRiskRule', 'sendTestWebhook', 'setCheckoutSettings', 'setRiskGuard', 'setUnknownKeys', 'setWebhookEvents',
    ].sort());
  });

  it('names only fields and queries the schema has', () => {
    for (const key of Object.keys(FIELD_ROLES)) {
      const [type, field] = key.split('.') as [string, string];
      expect(Object.keys((schema.getType(type) as { getFields(): object }).getFields()), key).toContain(field);
    }
    for (const name of Object.keys(QUERY_ROLES)) expect(Object.keys(schema.getQueryType()!.getFields())).toContain(name);
  });

  it('refuses a mutation missing from the table, even to an owner', () => {
    const ctx = { lang: 'en', viewer: { kind: 'dashboard', workspace: {}, token: { id: 'x', name: 'x', role: 'owner' } } } as unknown as GraphQLContext;
    expect(mutationRefusal(ctx, 'refundPayment')).toBeNull();
    expect(mutationRefusal(ctx, 'dropEverything')?.extensions.code).toBe('FORBIDDEN');
    const merchant = { lang: 'en', viewer: { kind: 'merchant', workspace: {} } } as unknown as GraphQLContext;
    expect(mutationRefusal(merchant, 'refundPayment')).toBeNull();
    expect(mutationRefusal(merchant, 'dropEverything')?.extensions.code).toBe('FORBIDDEN');
  });
});

describe.each([...ROLES, 'support'])('a %s token', (role) => {
  it.each(mutationFields().map((f) => f.name))('%s: allowed by the table reaches the resolver, else FORBIDDEN and nothing written', async (name) => {
    const allowed = role !== 'support' && (MUTATION_ROLES[name] as readonly string[]).includes(role);
    const { query, variables } = callOf(name);
    const before = allowed ? '' : await fingerprint();
    const res = await gql(tokens[role]!, query, variables);
    const codes = (res.body.errors ?? []).map((e) => e.extensions?.code);
    if (allowed) {
      expect(codes, JSON.stringify(res.body.errors)).not.toContain('FORBIDDEN');
    } else {
      expect(codes).toEqual(['FORBIDDEN']);
      expect(res.body.data?.[name] ?? null).toBeNull();
      expect(await fingerprint()).toBe(before);
    }
  });
});

describe('viewerPermissions: what the dashboard may offer the token in use', () => {
  // Written out, not derived from the table: the list and the table must both change for a role to gain a mutation.
  const OPERATOR = [...SELF, 'cancelPayment', 'cancelSubscription', 'createAccessToken', 'createPaymentLink', 'defaultSavedCard', 'deleteSavedCard', 'refundPayment', 'saveProduct', 'updatePaymentLink'].sort();
  const DEVELOPER = [...SELF, 'addRiskListEntry', 'addWebhookAddress', 'advanceTestClock', 'createAccessToken', 'createChannel', 'deleteWebhookAddress', 'disableWebhookAddress', 'enableWebhookAddress', 'removeRiskListEntry', 'removeRiskRule', 'resendNotification', 'rotateApiCredentials', 'rotateWebhookSecret', 'saveRiskRule', 'sendTestWebhook', 'setCheckoutSettings', 'setRiskGuard', 'setUnknownKeys', 'setWebhookEvents'].sort();
  const expected: Record<string, string[]> = { owner: Object.keys(MUTATION_ROLES).sort(), developer: DEVELOPER, operator: OPERATOR, viewer: SELF, support: [] };

  it.each([...ROLES, 'support'])('%s: exactly the mutations the role table lets it call', async (role) => {
    const res = await gql(readers[role] ?? tokens[role]!, '{ viewerPermissions viewerRole }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewerRole).toBe(role);
    expect(res.body.data.viewerPermissions).toEqual(expected[role]);
    const fromTable = Object.keys(MUTATION_ROLES).filter((name) => role !== 'support' && (MUTATION_ROLES[name] as readonly string[]).includes(role)).sort();
    expect(res.body.data.viewerPermissions).toEqual(fromTable);
  });

  it('is empty without a token', async () => {
    const res = await fetch(`${t.gateway.baseUrl}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ viewerPermissions }' }) });
    expect(((await res.json()) as { data: { viewerPermissions: string[] } }).data.viewerPermissions).toEqual([]);
  });

  it('a merchant (the API secret) may call every mutation', () => {
    const merchant = { lang: 'en', viewer: { kind: 'merchant', workspace: {} } } as unknown as GraphQLContext;
    expect(allowedMutations(merchant)).toEqual(Object.keys(MUTATION_ROLES).sort());
  });
});

describe('fields some roles read as null', () => {
  const Q = '{ workspace { apiKey paymentAccounts { credentialHints { name } } } }';

  it.each([
    ['owner', true],
    ['developer', true],
    ['operator', false],
    ['viewer', false],
  ])('%s sees the API key and credential hints: %s', async (role, sees) => {
    const res = await gql(readers[role]!, Q);
    expect(res.body.errors).toBeUndefined();
    const ws = res.body.data.workspace;
    if (sees) {
      expect(ws.apiKey).toBe(m.apiKey);
      expect(ws.paymentAccounts[0].credentialHints).toEqual(expect.any(Array));
    } else {
      expect(ws.apiKey).toBeNull();
      expect(ws.paymentAccounts[0].credentialHints).toBeNull();
    }
  });

  it("a viewer does not read the provider's own failure text; an operator does", async () => {
    const failed = await m.call('regular-payment', paymentBody(m, { card: { number: CARDS.providerError } }));
    const token = failed.body?.transaction?.token;
    expect(token, JSON.stringify(failed.body)).toBeTruthy();
    // The simulator keeps no provider text of its own; a bank's connector would.
    await t.gateway.services.db.payment.update({ where: { id: token }, data: { providerErrorCode: '91', providerErrorMessage: 'Issuer switch inoperative' } });
    const q = 'query ($t: String!) { payment(token: $t) { providerErrorMessage providerErrorCode } }';
    const asViewer = await gql(readers.viewer!, q, { t: token });
    const asOperator = await gql(readers.operator!, q, { t: token });
    expect(asViewer.body.data.payment).toEqual({ providerErrorMessage: null, providerErrorCode: null });
    expect(asOperator.body.data.payment).toEqual({ providerErrorMessage: 'Issuer switch inoperative', providerErrorCode: '91' });
  });
});
