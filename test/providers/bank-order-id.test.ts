// A bank's order id names one payment in every call, and a log never takes it for a card number.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { bankOrderId } from '../../src/providers/bank-order-id.ts';

const PAYMENT = '01234567-8901-4234-8567-890123456789';

describe('bank order ids', () => {
  it('are the same for every call of one payment, and differ between payments', () => {
    const id = bankOrderId(`${PAYMENT}:charge`);
    expect(bankOrderId(`${PAYMENT}:authorise`)).toBe(id);
    expect(bankOrderId(`${PAYMENT}:complete`)).toBe(id);
    expect(bankOrderId('11234567-8901-4234-8567-890123456789:charge')).not.toBe(id);
  });

  it('are 32 letters a-p, the uuid digit for digit, also for a key of another shape', () => {
    expect(bankOrderId(`${PAYMENT}:charge`)).toBe('abcdefghijabecdeifghijabcdefghij');
    expect(bankOrderId('not-a-uuid:charge')).toMatch(/^[a-p]{32}$/);
    expect(bankOrderId('not-a-uuid:charge')).toBe(bankOrderId('not-a-uuid:charge'));
  });

  it('reach the logs as they are, where a uuid of digits could have been masked as a card number', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', (line) => lines.push(line));
    const id = bankOrderId(`${PAYMENT}:charge`);
    // Digits that pass the Luhn check, as some uuids' would.
    const hex = 'ab4111111111111111cd';
    logger.info('bank exchange', { request: { OrderId: id, Hex: hex } });
    const logged = (JSON.parse(lines[0]!) as { request: { OrderId: string; Hex: string } }).request;
    expect(logged.OrderId).toBe(id);
    expect(logged.Hex).not.toBe(hex);
  });
});
