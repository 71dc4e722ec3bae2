// The masking of echoed input keeps what the REST shim reads from graphql-js's messages (the field
// path and the reason), and removes every value, whatever shape the bad input has.
import { describe, expect, it } from 'vitest';
import { execute, parse, type GraphQLError } from 'graphql';
import { schema } from '../../src/graphql/schema.ts';
import { maskGraphQLError, maskInputEcho, maskSentValues, sentValues } from '../../src/graphql/masking.ts';
import { variableErrors } from '../../src/rest/errors.ts';

const NUMBER = '4556737586899855';
const CVC = '7391';
const PAY = parse('mutation ($input: PaymentInput!) { regularPayment(input: $input) { result { successful } } }');

async function coercionErrors(input: unknown): Promise<readonly GraphQLError[]> {
  const result = await execute({ schema, document: PAY, variableValues: { input }, contextValue: {} });
  return result.errors ?? [];
}

const INPUTS: Array<[string, unknown]> = [
  ['unknown keys beside the card', { card: { number: NUMBER, securityCode: CVC, pin: 1 } }],
  ['numbers for strings', { card: { number: Number(NUMBER), securityCode: Number(CVC) } }],
  ['an object for a string', { card: { number: { n: NUMBER }, securityCode: [CVC] } }],
  ['a string with "; " and a fake path inside', { card: { number: `${NUMBER}; at "input.x"; `, securityCode: { 'k at "input.y"; ': CVC } } }],
  ['a key that fakes a path', { card: { 'x at "input.card"; ': NUMBER, 'Evil at "input.card"; Field': CVC } }],
  ['not an object at all', `${NUMBER} ${CVC}`],
  ['a list for the input', [NUMBER, CVC]],
];

describe('masking graphql-js coercion messages', () => {
  it.each(INPUTS)('%s: no value left, the same REST field errors', async (_name, input) => {
    const errors = await coercionErrors(input);
    expect(errors.length).toBeGreaterThan(0);
    const masked = errors.map(maskGraphQLError);
    // The shape rules alone, then with the values the caller sent (both run on Yoga's answers).
    const sent = sentValues({ input });
    for (const e of masked) {
      const message = maskSentValues(e.message, sent);
      expect(message).not.toContain(NUMBER);
      expect(message).not.toMatch(new RegExp(`(?<!\\d)${CVC}(?!\\d)`));
      expect(message).toContain('[redacted]');
    }
    expect(variableErrors(masked, 'en')).toEqual(variableErrors(errors, 'en'));
  });

  it('the shape rules alone already hide values of ordinary bad input', async () => {
    for (const [, input] of INPUTS.slice(0, 3)) {
      for (const e of (await coercionErrors(input)).map(maskGraphQLError)) expect(e.message).not.toMatch(new RegExp(`${NUMBER}|(?<!\\d)${CVC}(?!\\d)`));
    }
  });

  it('keeps the path and the reason', () => {
    expect(maskInputEcho('Variable "$input" got invalid value { number: "4556737586899855" } at "input.card.number"; String cannot represent a non string value: 4556737586899855')).toBe(
      'Variable "$input" got invalid value [redacted] at "input.card.number"; String cannot represent a non string value: [redacted]',
    );
  });

  it.each([
    ['a literal of the wrong type', 'Expected value of type "String", found 7391; reason', 'Expected value of type "String", found [redacted]; reason'],
    ['an enum value', 'Value "7391" does not exist in "Currency" enum. Did you mean the enum value "TRY"?', 'Value [redacted] does not exist in "Currency" enum.'],
    ['a lexer token', 'Syntax Error: Expected Name, found Int "7391".', 'Syntax Error: Expected Name, found Int [redacted].'],
    ['a field suggestion', 'Cannot query field "workspaes" on type "Query". Did you mean "workspaces" or "workspace"?', 'Cannot query field "workspaes" on type "Query".'],
  ])('masks %s', (_name, message, masked) => {
    expect(maskInputEcho(message)).toBe(masked);
  });
});
