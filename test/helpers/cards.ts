// Card numbers for card-testing runs: Luhn-valid numbers on the simulator's approved BINs (the
// simulator approves any valid number it has no other rule for), each different.
import { luhnValid } from '../../src/domain/cards.ts';

/** The `index`-th distinct valid number under `bin` (6 digits, 16 in all). */
export function testCardNumber(index: number, bin = '411111'): string {
  const body = `${bin}${String(index).padStart(9, '0')}`;
  for (let check = 0; check < 10; check++) if (luhnValid(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable: one check digit always fits');
}

/** The same number with its last digit changed: a typo the Luhn check catches. */
export const mistyped = (number: string): string => `${number.slice(0, -1)}${(Number(number.at(-1)) + 1) % 10}`;
