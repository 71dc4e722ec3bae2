// The rule tester over the attempts the gateway stored: what a rule's conditions would have done
// to the workspace's payments of the last 7, 30 or 90 days (how many, how many of them succeeded,
// the latest of them). The conditions become one SQL predicate over the payment rows (the fields
// rules read, as the payment keeps them), read in one pass over the workspace's index range by
// creation time, with no row sent back but the counts and the sample; a field the payment does not keep (the
// card's type and issuer) is unknown, and a condition on it does not hold, as when an attempt is
// judged without it. The e-mail is the payment's customer's (as it is now: a customer who changed
// address is read with the new one). docs/performance.md, "The rule tester at a million payments".
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/raw.ts';
import { isFieldRef, type Condition, type RuleField } from './rules.ts';

/** How many matching payments the answer names, newest first. */
export const SAMPLE_SIZE = 20;

// The address's figure: the guard lists the address first when the attempt had one (guard.ts,
// guardSources), so it is read with plain operators, several times cheaper than a JSON path. The
// key is written into the text (one of two names), so the two fields are two statements.
const guardFigure = (name: 'cards' | 'declines') =>
  Prisma.sql`CASE WHEN p.risk->'figures'->0->>'kind' = 'ip' THEN (p.risk->'figures'->0->>${Prisma.raw(`'${name}'`)})::bigint END`;

/** Each field as the stored payment `p` (and its customer `c`) gives it; NULL where it is not kept. */
const COLUMNS: Record<RuleField, Prisma.Sql> = {
  amount: Prisma.sql`p.amount`,
  currency: Prisma.sql`p.currency::text`,
  installment_number: Prisma.sql`p."installmentNumber"::bigint`,
  source: Prisma.sql`coalesce(p.risk->>'source', p.source::text)`,
  security: Prisma.sql`CASE p."securityType" WHEN 'secure' THEN 'secure' ELSE 'regular' END`,
  'card.bin': Prisma.sql`p."cardFirstDigits"`,
  'card.scheme': Prisma.sql`p."cardScheme"`,
  'card.type': Prisma.sql`NULL::text`,
  'card.issuer_code': Prisma.sql`NULL::text`,
  'card.country': Prisma.sql`p.risk->>'cardCountry'`,
  ip: Prisma.sql`p.ip`,
  'ip.country': Prisma.sql`p.risk->>'ipCountry'`,
  email: Prisma.sql`c.email`,
  email_domain: Prisma.sql`split_part(c.email, '@', 2)`,
  'ip.cards': guardFigure('cards'),
  'ip.declines': guardFigure('declines'),
};

const NUMBER_FIELDS = new Set<RuleField>(['amount', 'installment_number', 'ip.cards', 'ip.declines']);
/** Text already in lower case: the customer's e-mail is lowered once per customer (rows), not once per payment. */
const LOWERED = new Set<RuleField>(['email', 'email_domain']);
const textOf = (field: RuleField) => (NUMBER_FIELDS.has(field) || LOWERED.has(field) ? COLUMNS[field] : Prisma.sql`lower(${COLUMNS[field]})`);

/**
 * One condition as SQL, with rules.ts's meaning: an unknown value never holds (a comparison with
 * NULL is NULL, which neither counts nor selects a row, and no condition is negated as a whole, so
 * no `IS NOT NULL` is needed: it read each field twice, and a JSON field costs); text compares
 * without case.
 */
function conditionSql(c: Condition): Prisma.Sql {
  const numeric = NUMBER_FIELDS.has(c.field);
  const column = textOf(c.field);
  if (isFieldRef(c.value)) {
    const other = textOf(c.value.field);
    return Prisma.sql`(${column} ${c.operator === 'eq' ? Prisma.sql`=` : Prisma.sql`<>`} ${other})`;
  }
  const values = (Array.isArray(c.value) ? c.value : [c.value as string | number]).map((v) => (numeric ? BigInt(Number(v)) : String(v).toLowerCase()));
  const one = numeric ? Prisma.sql`${values[0]}::bigint` : Prisma.sql`${values[0]}::text`;
  const list = numeric ? Prisma.sql`${values}::bigint[]` : Prisma.sql`${values}::text[]`;
  const test = {
    eq: Prisma.sql`${column} = ${one}`,
    ne: Prisma.sql`${column} <> ${one}`,
    gt: Prisma.sql`${column} > ${one}`,
    gte: Prisma.sql`${column} >= ${one}`,
    lt: Prisma.sql`${column} < ${one}`,
    lte: Prisma.sql`${column} <= ${one}`,
    in: Prisma.sql`${column} = ANY(${list})`,
    not_in: Prisma.sql`NOT (${column} = ANY(${list}))`,
    starts_with: Prisma.sql`starts_with(${column}, ${one})`,
  }[c.operator];
  return Prisma.sql`(${test})`;
}

export interface PastTest {
  days: number;
  /** The workspace's payments in the period. */
  attempts: number;
  /** Those every condition holds for: the rule would have fired on them. */
  matched: number;
  /** Of the matched, those that succeeded (what blocking them would have cost). */
  succeeded: number;
  /** The latest matched payments' ids, newest first (at most SAMPLE_SIZE). */
  sample: string[];
}

/** The rows the conditions read: the workspace's payments of the period. */
function rows(workspaceId: string, conditions: Condition[], since: Date, now: Date): Prisma.Sql {
  const needsCustomer = conditions.some((c) => [c.field, isFieldRef(c.value) ? c.value.field : null].some((f) => f === 'email' || f === 'email_domain'));
  const customers = Prisma.sql`LEFT JOIN (SELECT id, lower(email) AS email FROM "Customer" WHERE "workspaceId" = ${workspaceId}::uuid) c ON c.id = p."customerId"`;
  return Prisma.sql`FROM "Payment" p ${needsCustomer ? customers : Prisma.empty}
      WHERE p."workspaceId" = ${workspaceId}::uuid AND p."createdAt" > ${since}::timestamp AND p."createdAt" <= ${now}::timestamp`;
}

/** The two statements of a test: the period's counts, and its newest matches (SAMPLE_SIZE at most). */
export function pastStatements(workspaceId: string, conditions: Condition[], days: number, now: Date): { counts: Prisma.Sql; sample: Prisma.Sql } {
  const matches = Prisma.join(conditions.map(conditionSql), ' AND ');
  const from = rows(workspaceId, conditions, new Date(now.getTime() - days * 86_400_000), now);
  return {
    counts: Prisma.sql`SELECT count(*)::int AS attempts, count(*) FILTER (WHERE hit)::int AS matched, count(*) FILTER (WHERE hit AND status = 'successful')::int AS succeeded
        FROM (SELECT p.status, ${matches} AS hit ${from}) x`,
    sample: Prisma.sql`SELECT p.id ${from} AND ${matches} ORDER BY p."createdAt" DESC, p.id LIMIT ${SAMPLE_SIZE}`,
  };
}

/**
 * Two statements at once on two connections: the period's counts in one pass over the workspace's
 * payments of the period (no row leaves PostgreSQL), and the newest matches read backwards along
 * the (workspace, creation time) index, which stops at the SAMPLE_SIZE-th. Both are sent unnamed
 * (raw.ts, RawOptions): planned for their values every time.
 */
export async function testOnStoredAttempts(db: Db, workspaceId: string, conditions: Condition[], days: number, now: Date): Promise<PastTest> {
  const { counts: countsSql, sample: sampleSql } = pastStatements(workspaceId, conditions, days, now);
  const [[counts], sample] = await Promise.all([
    queryRows<{ attempts: number; matched: number; succeeded: number }>(db, countsSql, { unnamed: true }),
    queryRows<{ id: string }>(db, sampleSql, { unnamed: true }),
  ]);
  return { days, attempts: counts?.attempts ?? 0, matched: counts?.matched ?? 0, succeeded: counts?.succeeded ?? 0, sample: sample.map((r) => r.id) };
}
