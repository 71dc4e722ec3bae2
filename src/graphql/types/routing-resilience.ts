// Routing resilience for the dashboard: each account's health (healthy, degraded, probing) and the
// workspace's cascade and health thresholds, changed with one mutation. Resolvers only call
// src/domain/routing/settings.ts; writes act for the caller's own workspace.
import { builder } from '../builder.ts';
import { actingWorkspace } from '../auth.ts';
import { payload, ResultRef, UserErrorRef, type ResultShape, type UserErrorShape } from './result.ts';
import { WorkspaceRecord } from './workspace.ts';
import { RESILIENCE_RANGES, setResilienceSettings, type ResilienceSetting } from '../../domain/routing/settings.ts';
import type { Workspace } from '../../generated/prisma/client.ts';

builder.prismaObjectField('PaymentAccount', 'health', (t) =>
  t.exposeString('health', { description: 'Routing health: healthy; degraded (out of routing until its cool-down ends); probing (back on probation)' }),
);
builder.prismaObjectField('PaymentAccount', 'healthChangedAt', (t) => t.expose('healthChangedAt', { type: 'DateTime', nullable: true }));

const DESCRIPTIONS: Record<ResilienceSetting, string> = {
  cascadeExtraAttempts: 'How many more accounts a payment may try after a technical failure',
  healthWindowSeconds: "The window of an account's recent calls that health judges",
  healthMinFailures: 'Technical failures within the window that take an account out of routing (with the percent)',
  healthFailurePercent: "The share of the window's calls that must have failed",
  healthCooldownSeconds: 'How long a degraded account stays out of routing',
  healthProbePayments: 'Successful payments after the cool-down before the account is healthy again',
};

for (const [key, range] of Object.entries(RESILIENCE_RANGES) as Array<[ResilienceSetting, (typeof RESILIENCE_RANGES)[ResilienceSetting]]>) {
  builder.prismaObjectField('Workspace', key, (t) => t.exposeInt(key, { description: `${DESCRIPTIONS[key]} (${range.min}-${range.max}, default ${range.default})` }));
}

const RoutingResilienceInput = builder.inputType('RoutingResilienceInput', {
  description: 'The settings to change; absent or null keeps the current value',
  fields: (t) => Object.fromEntries(Object.keys(RESILIENCE_RANGES).map((key) => [key, t.int({ description: DESCRIPTIONS[key as ResilienceSetting] })])) as Record<ResilienceSetting, ReturnType<typeof t.int>>,
});

interface ResiliencePayloadShape {
  result: ResultShape;
  errors: UserErrorShape[];
  workspace?: Workspace;
}

const ResiliencePayload = builder.objectRef<ResiliencePayloadShape>('RoutingResiliencePayload').implement({
  fields: (t) => ({
    result: t.field({ type: ResultRef, resolve: (p) => p.result }),
    workspace: t.field({ type: WorkspaceRecord, nullable: true, resolve: (p) => p.workspace ?? null }),
    errors: t.field({ type: [UserErrorRef], resolve: (p) => p.errors }),
  }),
});

builder.mutationField('setRoutingResilience', (t) =>
  t.field({
    type: ResiliencePayload,
    description: 'Changes the cascade bound and the account health thresholds of the caller’s workspace',
    args: { input: t.arg({ type: RoutingResilienceInput, required: true }) },
    resolve: (_r, args, ctx) => payload(ctx, async () => ({ workspace: await setResilienceSettings(ctx.services, actingWorkspace(ctx), args.input) })) as Promise<ResiliencePayloadShape>,
  }),
);
