// The per-process cache behind API keys, secrets, channels and accounts: entries are kept per
// owner (a database client, a master key), and an owner's map is emptied when it is full.
import { describe, expect, it } from 'vitest';
import { processCache } from '../../src/domain/process-cache.ts';

describe('processCache', () => {
  it('keeps entries apart per owner, and forgets one on delete', () => {
    const cache = processCache<number>();
    const a = {};
    const b = {};
    cache.set(a, 'k', 1);
    cache.set(b, 'k', 2);
    expect([cache.get(a, 'k'), cache.get(b, 'k')]).toEqual([1, 2]);
    cache.delete(a, 'k');
    expect([cache.get(a, 'k'), cache.get(b, 'k')]).toEqual([undefined, 2]);
  });

  it('starts an owner over when its map is full, so memory stays bounded', () => {
    const cache = processCache<number>(2);
    const owner = {};
    cache.set(owner, 'one', 1);
    cache.set(owner, 'two', 2);
    cache.set(owner, 'three', 3);
    expect([cache.get(owner, 'one'), cache.get(owner, 'two'), cache.get(owner, 'three')]).toEqual([undefined, undefined, 3]);
  });
});
