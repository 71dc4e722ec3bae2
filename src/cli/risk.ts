// `gateway risk …`: a workspace's own risk rules and its block and allow lists. Every rule lives in
// src/domain/risk/rules.ts, lists.ts and rule-test.ts (the checks, with the field path of each
// mistake); this file only reads words, calls them, and prints. A condition is written as one
// argument, "<field> <operator> <value>", with a comma list for in / not_in; amounts in minor units.
import type { Command } from 'commander';
import type { RiskListEntry, RiskRule } from '../generated/prisma/client.ts';
import { DomainError } from '../domain/errors.ts';
import { requireWorkspace } from '../domain/workspaces.ts';
import { isUuid } from '../domain/validation.ts';
import { isFieldRef, parseRuleTest, removeRule, RULE_FIELDS, saveRule, type Condition, type RuleField } from '../domain/risk/rules.ts';
import { addListEntry, removeListEntry } from '../domain/risk/lists.ts';
import { testOnStoredAttempts } from '../domain/risk/rule-test.ts';
import { withDatabase, type CliContext, type CliIo } from './context.ts';
import { CliError } from './parse.ts';
import { domainErrorLine } from './webhooks.ts';
import { auditCliChange } from './audit.ts';

/**
 * `amount gte 500000`, `email_domain in a.com,b.com`: one condition; the domain checks the words.
 * With eq / ne, a value that names another field of the same kind compares the two
 * (`card.country ne ip.country`).
 */
export function parseCondition(text: string, previous: Condition[] = []): Condition[] {
  const m = /^\s*(\S+)\s+(\S+)\s+(.+?)\s*$/.exec(text);
  if (!m) throw new CliError(`A condition is "<field> <operator> <value>", e.g. "amount gte 500000" (got "${text}")`);
  const [, field, operator, raw] = m as unknown as [string, string, string, string];
  const kind = RULE_FIELDS[field as RuleField];
  if ((operator === 'eq' || operator === 'ne') && raw !== field && kind !== undefined && RULE_FIELDS[raw as RuleField] === kind) {
    return [...previous, { field: field as RuleField, operator, value: { field: raw as RuleField } }];
  }
  const number = kind === 'number';
  const one = (v: string): string | number => (number && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());
  const value = operator === 'in' || operator === 'not_in' ? raw.split(',').filter((v) => v.trim() !== '').map(one) : one(raw);
  return [...previous, { field: field as RuleField, operator: operator as Condition['operator'], value }];
}

const conditionText = (c: Condition) => `${c.field} ${c.operator} ${isFieldRef(c.value) ? c.value.field : Array.isArray(c.value) ? c.value.join(',') : c.value}`;

export function ruleJson(r: RiskRule) {
  return { id: r.id, position: r.position, enabled: r.enabled, name: r.name, outcome: r.outcome, conditions: r.conditions };
}

export function ruleLine(r: RiskRule): string {
  return `${r.position}. ${r.enabled ? 'on ' : 'off'}  ${r.outcome} when ${(r.conditions as Condition[]).map(conditionText).join(' and ')}  "${r.name}"  id=${r.id}`;
}

export function entryJson(e: RiskListEntry) {
  return { id: e.id, list: e.list, kind: e.kind, value: e.value, note: e.note, created_at: e.createdAt.toISOString() };
}

const entryLine = (e: RiskListEntry) => `${e.list}  ${e.kind}  ${e.value}${e.note ? `  (${e.note})` : ''}  id=${e.id}`;

/** Runs a risk action with the database open; domain errors become one-line CLI errors (exit 1). */
function action<A extends unknown[]>(io: CliIo, run: (ctx: CliContext, ...args: A) => Promise<void>) {
  return withDatabase(io, async (ctx, ...args: A) => {
    try {
      await run(ctx, ...args);
    } catch (err) {
      if (err instanceof DomainError) throw new CliError(domainErrorLine(err));
      throw err;
    }
  });
}

const integer = (name: string) => (text: string) => {
  if (!/^\d+$/.test(text)) throw new CliError(`--${name} takes a whole number (got "${text}")`);
  return Number(text);
};

export function registerRiskCommands(program: Command, io: CliIo): void {
  const risk = program.command('risk').description("A workspace's own risk rules and its block and allow lists (the card-testing guard's thresholds: workspace settings --risk-*)");
  const rules = risk.command('rules').description('Rules: read in order, the first enabled one whose conditions all hold fires');

  rules
    .command('list')
    .description("List a workspace's rules in the order they are read")
    .argument('<team>', 'workspace slug')
    .action(
      action(io, async (ctx, team: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const all = await ctx.db.riskRule.findMany({ where: { workspaceId: workspace.id }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] });
        ctx.print(all.map(ruleJson), all.length ? all.map(ruleLine) : [`No risk rules in "${team}".`]);
      }),
    );

  rules
    .command('save')
    .description('Create a rule, or change the one --id names (every field is given again)')
    .argument('<team>', 'workspace slug')
    .requiredOption('--name <name>', 'what the team calls it')
    .requiredOption('--outcome <outcome>', 'block, require_3ds or allow')
    .requiredOption('--when <condition>', `"<field> <operator> <value>", repeated for each condition; fields: ${Object.keys(RULE_FIELDS).join(', ')}; with eq / ne the value may be another field ("card.country ne ip.country")`, parseCondition, [])
    .option('--id <id>', 'the rule to change')
    .option('--position <n>', 'where it is read (lower first; default: after the others)', integer('position'))
    .option('--off', 'saved switched off')
    .action(
      action(io, async (ctx, team: string, opts: { name: string; outcome: string; when: Condition[]; id?: string; position?: number; off?: boolean }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const input = { id: opts.id, name: opts.name, outcome: opts.outcome, conditions: opts.when, position: opts.position, enabled: opts.off ? false : opts.id ? undefined : true };
        const rule = await saveRule({ db: ctx.db }, workspace, input);
        await auditCliChange(ctx, io, workspace.id, 'saveRiskRule', { input });
        ctx.print(ruleJson(rule), [`Risk rule saved in "${team}":`, `  ${ruleLine(rule)}`]);
      }),
    );

  for (const [name, enabled] of [['on', true], ['off', false]] as const) {
    rules
      .command(name)
      .description(`Switch a rule ${name}`)
      .argument('<team>', 'workspace slug')
      .argument('<id>', 'the rule')
      .action(
        action(io, async (ctx, team: string, id: string) => {
          const workspace = await requireWorkspace(ctx.db, team);
          const found = isUuid(id) ? await ctx.db.riskRule.findFirst({ where: { id, workspaceId: workspace.id } }) : null;
          if (!found) throw new CliError(`No risk rule ${id} in "${team}"`);
          const input = { id, name: found.name, outcome: found.outcome, conditions: found.conditions, enabled };
          const rule = await saveRule({ db: ctx.db }, workspace, input);
          await auditCliChange(ctx, io, workspace.id, 'saveRiskRule', { input });
          ctx.print(ruleJson(rule), [`  ${ruleLine(rule)}`]);
        }),
      );
  }

  rules
    .command('remove')
    .description('Remove a rule')
    .argument('<team>', 'workspace slug')
    .argument('<id>', 'the rule')
    .action(
      action(io, async (ctx, team: string, id: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        await removeRule({ db: ctx.db }, workspace, id);
        await auditCliChange(ctx, io, workspace.id, 'removeRiskRule', { id });
        ctx.print({ removed: id }, [`Risk rule ${id} removed from "${team}".`]);
      }),
    );

  rules
    .command('test')
    .description('What conditions would have done to the payments of the last 7, 30 or 90 days (nothing is charged or written)')
    .argument('<team>', 'workspace slug')
    .requiredOption('--when <condition>', '"<field> <operator> <value>", repeated', parseCondition, [])
    .option('--days <n>', '7, 30 or 90', integer('days'), 30)
    .action(
      action(io, async (ctx, team: string, opts: { when: Condition[]; days: number }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const test = parseRuleTest({ conditions: opts.when, days: opts.days });
        const past = await testOnStoredAttempts(ctx.db, workspace.id, test.conditions, test.days!, new Date());
        ctx.print(past, [`Of ${past.attempts} payments in the last ${past.days} days the rule would have fired on ${past.matched}; ${past.succeeded} of them succeeded.`, ...past.sample.map((id) => `  ${id}`)]);
      }),
    );

  const lists = risk.command('lists').description('Block and allow lists: BIN prefixes, cards (by a payment token), addresses and CIDR ranges, e-mail addresses and domains');

  lists
    .command('show')
    .description("List a workspace's block and allow list entries")
    .argument('<team>', 'workspace slug')
    .action(
      action(io, async (ctx, team: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const all = await ctx.db.riskListEntry.findMany({ where: { workspaceId: workspace.id }, orderBy: [{ list: 'asc' }, { kind: 'asc' }, { createdAt: 'asc' }] });
        ctx.print(all.map(entryJson), all.length ? all.map(entryLine) : [`No list entries in "${team}".`]);
      }),
    );

  lists
    .command('add')
    .description('Add an entry (an existing one is kept); for a card give a payment token: that payment’s card is listed by its fingerprint')
    .argument('<team>', 'workspace slug')
    .argument('<list>', 'block or allow')
    .argument('<kind>', 'bin, card, ip, email or domain')
    .argument('<value>', 'the BIN prefix, payment token, address or CIDR range, e-mail address or domain')
    .option('--note <text>', 'why, for the team')
    .action(
      action(io, async (ctx, team: string, list: string, kind: string, value: string, opts: { note?: string }) => {
        const workspace = await requireWorkspace(ctx.db, team);
        const input = { list, kind, value, note: opts.note };
        const entry = await addListEntry({ db: ctx.db }, workspace, input);
        await auditCliChange(ctx, io, workspace.id, 'addRiskListEntry', { input });
        ctx.print(entryJson(entry), [`Added to "${team}": ${entryLine(entry)}`]);
      }),
    );

  lists
    .command('remove')
    .description('Remove an entry by its id')
    .argument('<team>', 'workspace slug')
    .argument('<id>', 'the entry')
    .action(
      action(io, async (ctx, team: string, id: string) => {
        const workspace = await requireWorkspace(ctx.db, team);
        await removeListEntry({ db: ctx.db }, workspace, id);
        await auditCliChange(ctx, io, workspace.id, 'removeRiskListEntry', { id });
        ctx.print({ removed: id }, [`List entry ${id} removed from "${team}".`]);
      }),
    );
}
