// A bank's hex order id with a long run of digits is masked in the logs like a card number; the
// tests' finder matches it masked or not (test/helpers/logged-ids.ts).
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { isLoggedId, loggedId } from '../helpers/logged-ids.ts';

describe('ids as logged', () => {
  it('match an order id whose digit run the logger masked, and no other id', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line));
    const id = 'a1b2c3d41234567890123ef0a1b2c3d4';
    logger.info('bank exchange', { request: { OrderId: id } });
    const logged = (JSON.parse(lines[0]!) as { request: { OrderId: string } }).request.OrderId;
    expect(logged).not.toBe(id);
    expect(isLoggedId(logged, id)).toBe(true);
    expect(loggedId(id).test(lines[0]!)).toBe(true);
    expect(isLoggedId(logged, 'f1b2c3d41234567890123ef0a1b2c3d4')).toBe(false);
    expect(isLoggedId('0a0b', '0a0b')).toBe(true);
  });
});
