// A workspace's card-testing guard settings (guard.ts): on or off, the window and cool-down, and
// each rule's threshold (0 turns that rule off). Each is an integer within its range; a change
// names only the settings it changes. The defaults and why they are what they are: README.md,
// "Card-testing guard".
import { z } from 'zod';
import type { Workspace } from '../../generated/prisma/client.ts';
import type { Services } from '../services.ts';
import { parseInput } from '../validation.ts';
import { IssueList } from '../errors.ts';

/** Each threshold's range and default (the schema's, repeated here for docs, the CLI and GraphQL). */
export const GUARD_RANGES = {
  riskWindowSeconds: { min: 60, max: 86_400, default: 600 },
  riskCooldownSeconds: { min: 60, max: 86_400, default: 1800 },
  riskIpCards: { min: 0, max: 1000, default: 5 },
  riskIpCardsFor3ds: { min: 0, max: 1000, default: 3 },
  riskIpDeclines: { min: 0, max: 1000, default: 4 },
  riskTargetDeclines: { min: 0, max: 100_000, default: 25 },
  riskWorkspaceDeclines: { min: 0, max: 1_000_000, default: 200 },
} as const;

export type GuardThreshold = keyof typeof GUARD_RANGES;
export type GuardSettings = Pick<Workspace, GuardThreshold | 'riskGuard'>;

const integer = z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' });
const input = z
  .object({
    riskGuard: z.boolean({ error: 'invalid_boolean' }).nullish(),
    ...(Object.fromEntries(Object.keys(GUARD_RANGES).map((key) => [key, integer.nullish()])) as Record<GuardThreshold, z.ZodOptional<z.ZodNullable<typeof integer>>>),
  })
  .strict();

export async function setGuardSettings(s: Pick<Services, 'db'>, workspace: Workspace, raw: unknown): Promise<Workspace> {
  const given = parseInput(input, raw);
  const issues = new IssueList();
  const change: Partial<GuardSettings> = {};
  if (given.riskGuard !== null && given.riskGuard !== undefined) change.riskGuard = given.riskGuard;
  for (const [key, range] of Object.entries(GUARD_RANGES) as Array<[GuardThreshold, (typeof GUARD_RANGES)[GuardThreshold]]>) {
    const value = given[key];
    if (value === null || value === undefined) continue;
    if (value < range.min || value > range.max) issues.add([key], 'integer_between', { min: range.min, max: range.max });
    else change[key] = value;
  }
  issues.throwIfAny();
  return s.db.workspace.update({ where: { id: workspace.id }, data: change });
}
