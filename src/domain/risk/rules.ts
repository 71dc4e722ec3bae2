// A merchant's own risk rules: ordered, each on or off, each a list of conditions (field, operator,
// value) over what is known of an attempt when it is judged, and an outcome (block, require_3ds,
// allow). The first enabled rule whose conditions all hold fires. A process keeps a workspace's
// enabled rules for the settings version it read them at (`liveRules`), as it keeps its accounts.
import { isIP } from 'node:net';
import { z } from 'zod';
import { Prisma, type RiskRule, type Workspace } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/raw.ts';
import { processCache } from '../process-cache.ts';
import type { Services } from '../services.ts';
import { parseInput, text } from '../validation.ts';
import { IssueList, NotFoundError } from '../errors.ts';
import type { RiskOutcome } from './types.ts';

/** What a condition may read of an attempt, and whether it is a number or text. */
export const RULE_FIELDS = {
  amount: 'number',
  currency: 'text',
  installment_number: 'number',
  source: 'text',
  security: 'text',
  'card.bin': 'text',
  'card.scheme': 'text',
  'card.type': 'text',
  'card.issuer_code': 'text',
  'card.country': 'text',
  ip: 'text',
  'ip.country': 'text',
  email: 'text',
  email_domain: 'text',
  'ip.cards': 'number',
  'ip.declines': 'number',
} as const;
export type RuleField = keyof typeof RULE_FIELDS;

const NUMBER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in'] as const;
const TEXT_OPERATORS = ['eq', 'ne', 'in', 'not_in', 'starts_with'] as const;
export type RuleOperator = (typeof NUMBER_OPERATORS)[number] | (typeof TEXT_OPERATORS)[number];

/** Another field of the attempt, compared with eq / ne (`card.country ne ip.country`). */
export type FieldRef = { field: RuleField };

export type Condition = {
  field: RuleField;
  operator: RuleOperator;
  /** One value, or several for in / not_in; amounts in minor units (kuruş); or another field of the same kind. */
  value: string | number | Array<string | number> | FieldRef;
};

export const isFieldRef = (value: Condition['value']): value is FieldRef => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A rule as the statement reads it. */
export interface RuleRow {
  id: string;
  name: string;
  outcome: RiskOutcome;
  conditions: Condition[];
}

/** What of an attempt the conditions read (null: unknown, and a condition on it does not hold). */
export type AttemptFacts = { [K in RuleField]: (typeof RULE_FIELDS)[K] extends 'number' ? number | null : string | null };

/**
 * The workspace's enabled rules in order, kept per process for the `settingsVersion` they were
 * read at. Every write to a workspace's rules bumps that version in the same transaction (a
 * trigger, migration 0050, as for accounts), and a call acts on the workspace row read with it
 * (src/rest/admission.ts), so a payment never reads rules older than its own workspace row, and a
 * payment reads no rules at all while they are unchanged. No rules at all: nothing is read.
 */
export async function liveRules(db: Db, workspace: Pick<Workspace, 'id' | 'settingsVersion' | 'riskRuleCount'>): Promise<RuleRow[]> {
  if (workspace.riskRuleCount === 0) return [];
  const cached = rulesByVersion.get(db, workspace.id);
  // A newer entry than the row is as good: the row is only a little behind the memory's.
  if (cached && cached.version >= workspace.settingsVersion) return cached.rules;
  // The version is read with the rules, so the entry is labelled with what it holds.
  const [row] = await queryRows<{ version: number; rules: RuleRow[] }>(
    db,
    Prisma.sql`SELECT w."settingsVersion" AS version, coalesce((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'outcome', r.outcome, 'conditions', r.conditions) ORDER BY r.position, r."createdAt")
      FROM "RiskRule" r WHERE r."workspaceId" = w.id AND r.enabled), '[]'::json) AS rules FROM "Workspace" w WHERE w.id = ${workspace.id}::uuid`,
  );
  if (!row) return [];
  rulesByVersion.set(db, workspace.id, { version: row.version, rules: row.rules });
  return row.rules;
}

const rulesByVersion = processCache<{ version: number; rules: RuleRow[] }>();

/** The first rule whose conditions all hold, or null. */
export function firstMatching(rules: RuleRow[], facts: AttemptFacts): RuleRow | null {
  return rules.find((rule) => rule.conditions.every((c) => holds(c, facts))) ?? null;
}

function holds(c: Condition, facts: AttemptFacts): boolean {
  const actual = facts[c.field];
  if (actual === null) return false;
  // A field compared with another: both must be known.
  const other = isFieldRef(c.value) ? facts[c.value.field] : undefined;
  if (other === null) return false;
  const values = other !== undefined ? [other] : Array.isArray(c.value) ? c.value : [c.value as string | number];
  const same = (v: string | number) => (typeof actual === 'number' ? Number(v) === actual : String(v).toLowerCase() === actual.toLowerCase());
  const first = values[0]!;
  switch (c.operator) {
    case 'eq':
      return same(first);
    case 'ne':
      return !same(first);
    case 'in':
      return values.some(same);
    case 'not_in':
      return !values.some(same);
    case 'starts_with':
      return typeof actual === 'string' && actual.toLowerCase().startsWith(String(first).toLowerCase());
    case 'gt':
      return Number(actual) > Number(first);
    case 'gte':
      return Number(actual) >= Number(first);
    case 'lt':
      return Number(actual) < Number(first);
    case 'lte':
      return Number(actual) <= Number(first);
  }
}

const scalar = z.union([z.string(), z.number()]);
const fieldRef = z.object({ field: z.string({ error: 'required' }) }).strict();
const ruleInput = z
  .object({
    id: z.string().uuid({ error: 'invalid_uuid' }).nullish(),
    name: text().min(1, { error: 'required' }).max(100, { error: 'too_long' }),
    outcome: z.enum(['block', 'require_3ds', 'allow'], { error: 'risk_rule_outcome' }),
    enabled: z.boolean({ error: 'invalid_boolean' }).nullish(),
    position: z.number({ error: 'invalid_integer' }).int({ error: 'invalid_integer' }).min(0, { error: 'invalid_integer' }).max(10_000, { error: 'invalid_integer' }).nullish(),
    conditions: z
      .array(z.object({ field: z.string({ error: 'required' }), operator: z.string({ error: 'required' }), value: z.union([scalar, z.array(scalar).max(100, { error: 'too_many_items' }), fieldRef]) }).strict(), { error: 'invalid_type' })
      .min(1, { error: 'risk_rule_conditions' })
      .max(20, { error: 'too_many_items' }),
  })
  .strict();

/** Creates a rule, or changes the one `id` names; each condition is checked at its own path. */
export async function saveRule(s: Pick<Services, 'db'>, workspace: Workspace, raw: unknown): Promise<RiskRule> {
  const input = parseInput(ruleInput, raw);
  const issues = new IssueList();
  input.conditions.forEach((c, i) => checkCondition(issues, i, c));
  issues.throwIfAny();
  const conditions = input.conditions as Condition[];
  return s.db.$transaction(async (tx) => {
    if (input.id) {
      const { count } = await tx.riskRule.updateMany({
        where: { id: input.id, workspaceId: workspace.id },
        data: { name: input.name, outcome: input.outcome, conditions, ...(input.enabled != null ? { enabled: input.enabled } : {}), ...(input.position != null ? { position: input.position } : {}) },
      });
      if (count === 0) throw NotFoundError.single(['id'], 'risk_rule_not_found');
      return tx.riskRule.findUniqueOrThrow({ where: { id: input.id } });
    }
    const last = await tx.riskRule.aggregate({ where: { workspaceId: workspace.id }, _max: { position: true } });
    await tx.workspace.update({ where: { id: workspace.id }, data: { riskRuleCount: { increment: 1 } } });
    return tx.riskRule.create({
      data: { workspaceId: workspace.id, name: input.name, outcome: input.outcome, conditions, enabled: input.enabled ?? true, position: input.position ?? (last._max.position ?? -1) + 1 },
    });
  });
}

/** The periods the rule tester reads stored attempts over, in days. */
export const TEST_PERIODS = [7, 30, 90] as const;

const testInput = z
  .object({
    conditions: ruleInput.shape.conditions,
    attempt: z.record(z.string(), z.union([z.string(), z.number()]).nullable(), { error: 'invalid_type' }).nullish(),
    days: z.union(TEST_PERIODS.map((d) => z.literal(d)) as [z.ZodLiteral<7>, z.ZodLiteral<30>, z.ZodLiteral<90>], { error: 'risk_test_days' }).nullish(),
  })
  .strict();

export interface RuleTest {
  conditions: Condition[];
  /** An attempt described by its fields, to try the conditions on. */
  attempt: Record<string, string | number | null> | null;
  /** A period of stored attempts to try them on (rule-test.ts). */
  days: 7 | 30 | 90 | null;
}

/** The tester's question, checked: every condition at its path, the attempt's fields, and at least one of attempt and days. */
export function parseRuleTest(raw: unknown): RuleTest {
  const input = parseInput(testInput, raw);
  const issues = new IssueList();
  input.conditions.forEach((c, i) => checkCondition(issues, i, c));
  for (const [field, value] of Object.entries(input.attempt ?? {})) {
    const kind = RULE_FIELDS[field as RuleField];
    if (!kind) issues.add(['attempt', field], 'risk_rule_field', { fields: Object.keys(RULE_FIELDS).join(', ') });
    else if (value !== null && kind === 'number' && !Number.isInteger(Number(value))) issues.add(['attempt', field], 'risk_rule_number');
  }
  if (!input.attempt && !input.days) issues.add(['days'], 'risk_test_days');
  issues.throwIfAny();
  return { conditions: input.conditions as Condition[], attempt: input.attempt ?? null, days: input.days ?? null };
}

/**
 * The rule tester on a described attempt: whether the conditions hold for it (fields left out are
 * unknown, and a condition on them does not hold), condition by condition. Nothing is charged or
 * written.
 */
export function testConditions(conditions: Condition[], attempt: Record<string, string | number | null>): { matches: boolean; holds: boolean[] } {
  const facts = Object.fromEntries(
    Object.entries(RULE_FIELDS).map(([field, kind]) => {
      const value = attempt[field] ?? null;
      return [field, value === null ? null : kind === 'number' ? Number(value) : String(value)];
    }),
  ) as AttemptFacts;
  const results = conditions.map((c) => holds(c, facts));
  return { matches: results.every(Boolean), holds: results };
}

export async function removeRule(s: Pick<Services, 'db'>, workspace: Workspace, id: string): Promise<void> {
  await s.db.$transaction(async (tx) => {
    const { count } = await tx.riskRule.deleteMany({ where: { id, workspaceId: workspace.id } });
    if (count === 0) throw NotFoundError.single(['id'], 'risk_rule_not_found');
    await tx.workspace.update({ where: { id: workspace.id }, data: { riskRuleCount: { decrement: 1 } } });
  });
}

/** A field compared with another: eq or ne, with a different field of the same kind. */
function checkFieldRef(issues: IssueList, i: number, field: string, operator: string, other: string): void {
  if (operator !== 'eq' && operator !== 'ne') return void issues.add(['conditions', i, 'operator'], 'risk_rule_operator', { operators: 'eq, ne' });
  const kind = RULE_FIELDS[other as RuleField];
  if (!kind || other === field || kind !== RULE_FIELDS[field as RuleField]) issues.add(['conditions', i, 'value', 'field'], 'risk_rule_field_ref');
}

function checkCondition(issues: IssueList, i: number, c: { field: string; operator: string; value: unknown }): void {
  const at = (key: string) => ['conditions', i, key];
  const kind = RULE_FIELDS[c.field as RuleField];
  if (!kind) return void issues.add(at('field'), 'risk_rule_field', { fields: Object.keys(RULE_FIELDS).join(', ') });
  const operators: readonly string[] = kind === 'number' ? NUMBER_OPERATORS : TEXT_OPERATORS;
  if (!operators.includes(c.operator)) return void issues.add(at('operator'), 'risk_rule_operator', { operators: operators.join(', ') });
  if (isFieldRef(c.value as Condition['value'])) return checkFieldRef(issues, i, c.field, c.operator, (c.value as FieldRef).field);
  const many = c.operator === 'in' || c.operator === 'not_in';
  if (many !== Array.isArray(c.value) || (many && (c.value as unknown[]).length === 0)) return void issues.add(at('value'), many ? 'risk_rule_values' : 'risk_rule_value');
  const values = (many ? c.value : [c.value]) as Array<string | number>;
  if (kind === 'number' && values.some((v) => !Number.isInteger(Number(v)) || String(v).trim() === '')) return void issues.add(at('value'), 'risk_rule_number');
  if (c.field === 'ip' && c.operator !== 'starts_with' && values.some((v) => isIP(String(v)) === 0)) issues.add(at('value'), 'invalid_ip');
}
