import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENUMS_FILE, INTROSPECTION_FILE, SCHEMA_FILE, printedEnums, printedSchema, writeIntrospection } from '../../src/graphql/print.ts';

/** Fails naming the first differing line rather than dumping two whole files; the fix is one command. */
function expectSame(name: string, committedText: string, expectedText: string) {
  const committed = committedText.split('\n');
  const printed = expectedText.split('\n');
  const line = printed.findIndex((text, i) => committed[i] !== text);
  const where = line === -1 ? `${committed.length - printed.length} extra line(s) at the end` : `line ${line + 1}: expected ${JSON.stringify(printed[line]?.slice(0, 200))}, found ${JSON.stringify(committed[line]?.slice(0, 200) ?? null)}`;
  if (committed.join('\n') !== printed.join('\n')) expect.fail(`${name} is stale (${where}): run npm run schema:print`);
}

describe('schema.graphql and what the dashboard generates from it', () => {
  it('schema.graphql is the schema the code builds', () => {
    expectSame('schema.graphql', readFileSync(SCHEMA_FILE, 'utf8'), printedSchema());
  });

  it("dashboard/src/schema-enums.ts lists the schema's enums", () => {
    expectSame('dashboard/src/schema-enums.ts', readFileSync(ENUMS_FILE, 'utf8'), printedEnums());
  });

  it("dashboard/src/graphql-env.d.ts is gql.tada's introspection of schema.graphql", () => {
    const fresh = path.join(mkdtempSync(path.join(tmpdir(), 'introspection-')), 'graphql-env.d.ts');
    writeIntrospection(fresh);
    expectSame('dashboard/src/graphql-env.d.ts', readFileSync(INTROSPECTION_FILE, 'utf8'), readFileSync(fresh, 'utf8'));
  });
});
