// A workspace's routing resilience settings: how far a payment cascades after a technical failure,
// and the account health thresholds (health.ts). Each is an integer within its range; a change
// names only the settings it changes.
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { IssueList } from '../errors.ts';

/** Each setting's range, and its default (the schema's, repeated here for docs and the CLI). */
export const RESILIENCE_RANGES = {
  cascadeExtraAttempts: { min: 0, max: 5, default: 2 },
  healthWindowSeconds: { min: 10, max: 3600, default: 60 },
  healthMinFailures: { min: 1, max: 1000, default: 5 },
  healthFailurePercent: { min: 1, max: 100, default: 50 },
  healthCooldownSeconds: { min: 5, max: 3600, default: 30 },
  healthProbePayments: { min: 1, max: 100, default: 3 },
} as const;

export type ResilienceSetting = keyof typeof RESILIENCE_RANGES;
export type ResilienceSettings = Pick<Workspace, ResilienceSetting>;

const integer = z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' });
const input = z.object(Object.fromEntries(Object.keys(RESILIENCE_RANGES).map((key) => [key, integer.nullish()])) as Record<ResilienceSetting, z.ZodOptional<z.ZodNullable<typeof integer>>>).strict();

export async function setResilienceSettings(s: Pick<Services, 'db'>, workspace: Workspace, raw: unknown): Promise<Workspace> {
  const given = parseInput(input, raw);
  const issues = new IssueList();
  const change: Partial<ResilienceSettings> = {};
  for (const [key, range] of Object.entries(RESILIENCE_RANGES) as Array<[ResilienceSetting, (typeof RESILIENCE_RANGES)[ResilienceSetting]]>) {
    const value = given[key];
    if (value === null || value === undefined) continue;
    if (value < range.min || value > range.max) issues.add([key], 'integer_between', { min: range.min, max: range.max });
    else change[key] = value;
  }
  issues.throwIfAny();
  return s.db.workspace.update({ where: { id: workspace.id }, data: change });
}
