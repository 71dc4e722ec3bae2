// GatheredWrites: while one statement is in flight, the writes asked for meanwhile go together in
// the next; a write alone goes at once; a statement's failure reaches only the callers it concerns.
import { describe, expect, it } from 'vitest';
import { GatheredWrites } from '../../src/db/gathered-writes.ts';

interface Item {
  key: string;
  value: number;
}

/** A writer whose statements are held until released, recording what each carried. */
function heldWriter(fail: (items: Item[]) => Error | null = () => null) {
  const statements: string[][] = [];
  const pending: Array<() => void> = [];
  const writes = new GatheredWrites<Item, number>(
    (items) =>
      new Promise((resolve, reject) => {
        statements.push(items.map((i) => i.key));
        pending.push(() => {
          const err = fail(items);
          if (err) reject(err);
          else resolve(new Map(items.map((i) => [i.key, i.value * 10])));
        });
      }),
    (item) => item.key,
    3,
  );
  /** Lets the statements sent so far finish, and waits for what they start. */
  const release = async () => {
    for (const done of pending.splice(0)) done();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { writes, statements, release };
}

describe('GatheredWrites', () => {
  it('sends a write alone at once, and the writes asked for meanwhile together in the next statement', async () => {
    const { writes, statements, release } = heldWriter();
    const first = writes.add({ key: 'a', value: 1 });
    expect(statements).toEqual([['a']]);
    const later = [writes.add({ key: 'b', value: 2 }), writes.add({ key: 'c', value: 3 })];
    expect(statements).toEqual([['a']]);
    await release();
    expect(await first).toBe(10);
    expect(statements).toEqual([['a'], ['b', 'c']]);
    await release();
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('takes at most its limit in one statement, and never the same key twice', async () => {
    const { writes, statements, release } = heldWriter();
    const all = [writes.add({ key: 'a', value: 1 })];
    for (const key of ['b', 'b', 'c', 'd', 'e']) all.push(writes.add({ key, value: 2 }));
    await release();
    expect(statements).toEqual([['a'], ['b', 'c', 'd']]);
    await release();
    expect(statements).toEqual([['a'], ['b', 'c', 'd'], ['b', 'e']]);
    await release();
    expect(await Promise.all(all)).toEqual([10, 20, 20, 20, 20, 20]);
  });

  it('answers undefined for an item the statement changed nothing for', async () => {
    const writes = new GatheredWrites<Item, number>(async () => new Map(), (item) => item.key);
    await expect(writes.add({ key: 'a', value: 1 })).resolves.toBeUndefined();
  });

  it("tries each write of a failed statement alone, so that one write's error reaches only its caller", async () => {
    const { writes, statements, release } = heldWriter((items) => (items.some((i) => i.value < 0) ? new Error('invalid input value') : null));
    const first = writes.add({ key: 'a', value: 1 });
    const good = writes.add({ key: 'b', value: 2 });
    const bad = writes.add({ key: 'c', value: -1 });
    const settled = Promise.allSettled([good, bad]);
    await release();
    await release();
    await release();
    expect(await first).toBe(10);
    const [g, b] = await settled;
    expect(g).toEqual({ status: 'fulfilled', value: 20 });
    expect(b.status === 'rejected' && (b.reason as Error).message).toBe('invalid input value');
    expect(statements).toEqual([['a'], ['b', 'c'], ['b'], ['c']]);
  });

  it('a busy database fails the whole statement for every caller, without a try each (they wait and ask again)', async () => {
    const busy = Object.assign(new Error('too many clients already'), { code: '53300' });
    const { writes, statements, release } = heldWriter((items) => (items.length > 1 ? busy : null));
    const first = writes.add({ key: 'a', value: 1 });
    const settled = Promise.allSettled([writes.add({ key: 'b', value: 2 }), writes.add({ key: 'c', value: 3 })]);
    await release();
    await release();
    expect(await first).toBe(10);
    expect((await settled).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(statements).toEqual([['a'], ['b', 'c']]);
  });
});
