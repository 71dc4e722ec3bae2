// Every gateway code the iyzico error map gives has a message in the catalog, so a shopper always
// reads the gateway's text in their language and never iyzico's own.
import { describe, expect, it } from 'vitest';
import { GATEWAY_CODES, mapFailure } from '../../../src/providers/iyzico/codes.ts';
import { isMessageCode, message } from '../../../src/domain/messages.ts';

describe('iyzico error codes in the catalog', () => {
  it.each([...GATEWAY_CODES])('%s has a decline message in Turkish and English', (code) => {
    expect(isMessageCode(`decline_${code}`) || isMessageCode(code)).toBe(true);
  });

  it('maps bank refusals it names and ones it does not to catalogued codes', () => {
    for (const [errorCode, errorGroup] of [['10051', 'NOT_SUFFICIENT_FUNDS'], ['10217', undefined], ['10999', undefined], ['9999', undefined]] as const) {
      const { code } = mapFailure({ errorCode, errorGroup, errorMessage: 'x' }, 'payment');
      expect(GATEWAY_CODES.has(code)).toBe(true);
      expect(message(isMessageCode(`decline_${code}`) ? (`decline_${code}` as never) : (code as never), 'en')).not.toBe('x');
    }
  });
});
