// The guard phase's shoppers (`--guard-shoppers`): the bench's one address and card by default, or
// every payment from an address and with a card of its own, none of them seen before.
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/lib/args.ts';
import { newShopper } from '../../bench/lib/gateway-ops.ts';
import { luhnValid } from '../../src/domain/cards.ts';

describe('--guard-shoppers', () => {
  it('is same by default, takes new, and refuses anything else by name', () => {
    expect(parseBenchArgs([])!.guardShoppers).toBe('same');
    expect(parseBenchArgs(['--guard-shoppers', 'new'])!.guardShoppers).toBe('new');
    expect(() => parseBenchArgs(['--guard-shoppers', 'many'])).toThrow('--guard-shoppers: expected same or new, got "many"');
  });

  it('new: each payment its own address and valid card number', () => {
    const shoppers = Array.from({ length: 1000 }, (_, i) => newShopper(70_000 + i));
    expect(new Set(shoppers.map((s) => s.ip)).size).toBe(1000);
    expect(new Set(shoppers.map((s) => s.card)).size).toBe(1000);
    expect(shoppers.every((s) => luhnValid(s.card) && s.card.startsWith('411111'))).toBe(true);
  });
});
