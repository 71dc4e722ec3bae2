// createDb names every statement text so each connection prepares it once (src/db/client.ts).
import { describe, expect, it } from 'vitest';
import { preparedStatementName } from '../../src/db/client.ts';

const q = (sql: string) => ({ sql });

describe('prepared statement names', () => {
  it('give one text one name, and another text another', () => {
    const name = preparedStatementName();
    const a = name(q('SELECT "t0"."id" FROM "public"."Payment" AS "t0" WHERE "t0"."id" = $1'));
    const b = name(q('SELECT "t0"."id" FROM "public"."Channel" AS "t0" WHERE "t0"."id" = $1'));
    expect(a).not.toBe('');
    expect(b).not.toBe('');
    expect(a).not.toBe(b);
    expect(name(q('SELECT "t0"."id" FROM "public"."Payment" AS "t0" WHERE "t0"."id" = $1'))).toBe(a);
  });

  it('leave transaction control unnamed', () => {
    const name = preparedStatementName();
    for (const sql of ['BEGIN', 'COMMIT', 'ROLLBACK', ' begin', 'SAVEPOINT s1', 'RELEASE SAVEPOINT s1']) expect(name(q(sql))).toBe('');
  });

  it('stop naming new texts past the bound, and keep the names already given', () => {
    const name = preparedStatementName(2);
    const first = name(q('SELECT 1'));
    const second = name(q('SELECT 2'));
    expect(name(q('SELECT 3'))).toBe('');
    expect(name(q('SELECT 1'))).toBe(first);
    expect(name(q('SELECT 2'))).toBe(second);
  });
});
