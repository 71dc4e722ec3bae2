// A value outside a fixed list is refused naming the list, whatever error the schema was given:
// the message never keeps its {allowed} placeholder.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../../src/domain/errors.ts';
import { message } from '../../src/domain/messages.ts';
import { parseInput } from '../../src/domain/validation.ts';

const refusal = (schema: z.ZodType, input: unknown) => {
  try {
    parseInput(schema, input);
  } catch (err) {
    if (err instanceof ValidationError) return err.issues;
  }
  throw new Error('accepted');
};

describe('enum refusals', () => {
  it.each([
    ['no error of its own', z.enum(['3d', '3d_pay'])],
    ['a code the catalog does not have', z.enum(['3d', '3d_pay'], { error: 'invalid_option' })],
    ['value_not_allowed', z.enum(['3d', '3d_pay'], { error: 'value_not_allowed' })],
  ])('list the allowed values for a schema with %s, missing or wrong', (_name, field) => {
    const schema = z.object({ model: field });
    for (const input of [{}, { model: '3D' }]) {
      const [issue] = refusal(schema, input);
      expect(issue).toEqual({ path: ['model'], code: 'value_not_allowed', params: { allowed: '3d, 3d_pay' } });
      expect(message(issue!.code, 'tr', issue!.params)).toBe('Şunlardan biri olmalıdır: 3d, 3d_pay.');
      expect(message(issue!.code, 'en', issue!.params)).toBe('Must be one of: 3d, 3d_pay.');
    }
  });

  it('keep a message of their own that already names the values', () => {
    expect(refusal(z.object({ currency: z.enum(['TRY', 'USD'], { error: 'currency_invalid' }) }), { currency: 'JPY' })).toEqual([{ path: ['currency'], code: 'currency_invalid' }]);
  });
});
