import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, printedSchema } from '../../src/graphql/print.ts';

describe('schema.graphql', () => {
  it('is the schema the code builds', () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8').split('\n');
    const printed = printedSchema().split('\n');
    // Name the first differing line rather than dumping two whole schemas; the fix is one command.
    const line = printed.findIndex((text, i) => committed[i] !== text);
    const where = line === -1 ? `${committed.length - printed.length} extra line(s) at the end` : `line ${line + 1}: expected ${JSON.stringify(printed[line])}, found ${JSON.stringify(committed[line] ?? null)}`;
    if (committed.join('\n') !== printed.join('\n')) expect.fail(`schema.graphql is stale (${where}): run npm run schema:print`);
  });
});
