import { describe, expect, it } from 'vitest';
import { deepKeys, toCamel, toSnake } from '../../src/rest/case.ts';

describe('snake_case on the wire, camelCase inside', () => {
  it('converts keys both ways, nested objects and arrays included', () => {
    expect(toCamel('channel_reference')).toBe('channelReference');
    expect(toCamel('card_3d_secure')).toBe('card3dSecure');
    expect(toSnake('installmentNumber')).toBe('installment_number');
    expect(deepKeys({ transaction: { channel_token: 't', items: [{ unit_price: '1.00' }] } }, toCamel)).toEqual({
      transaction: { channelToken: 't', items: [{ unitPrice: '1.00' }] },
    });
  });

  it('still converts right once a caller has filled the remembered keys with made-up ones', () => {
    for (let i = 0; i < 2_500; i++) expect(toCamel(`made_up_${i}`)).toBe(`madeUp${i}`);
    expect(toCamel('channel_reference')).toBe('channelReference');
    expect(toCamel('made_up_7')).toBe('madeUp7');
  });

  it('keeps a "__proto__" key a plain key, never the prototype', () => {
    const converted = deepKeys(JSON.parse('{"__proto__": {"isAdmin": true}}'), toSnake) as Record<string, unknown>;
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(Object.hasOwn(converted, '__proto__')).toBe(true);
    expect((converted as { is_admin?: unknown }).is_admin).toBeUndefined();
  });

  it('keeps a key that becomes "__proto__" once converted a plain key too', () => {
    const converted = deepKeys(JSON.parse('{"_Proto__": {"isAdmin": true}, "nested": [{"_Proto__": 1}]}'), toSnake) as Record<string, unknown>;
    expect(Object.getPrototypeOf(converted)).toBe(Object.prototype);
    expect(Object.hasOwn(converted, '__proto__')).toBe(true);
    expect(Object.keys(converted)).toEqual(['__proto__', 'nested']);
    expect((converted as { is_admin?: unknown }).is_admin).toBeUndefined();
    expect(Object.hasOwn((converted.nested as object[])[0]!, '__proto__')).toBe(true);
  });
});
