import { ERRORS, IyziFailure } from './errors.ts';

/**
 * iyzico sends and takes decimal amounts ("1.2", 1.2); the emulator keeps integer minor
 * units so refund arithmetic is exact. More than two significant decimals is refused.
 */
export function toMinor(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || text === '') throw new IyziFailure(ERRORS.required(field));
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) throw new IyziFailure(ERRORS.invalidField(field));
  const decimals = (match[2] ?? '').replace(/0+$/, '');
  if (decimals.length > 2) throw new IyziFailure(ERRORS.invalidField(field));
  return Number(match[1]) * 100 + Number(decimals.padEnd(2, '0'));
}

/** Minor units back to the JSON number iyzico answers with (1.2, 100, 0.5). */
export function toAmount(minor: number): number {
  return minor / 100;
}
